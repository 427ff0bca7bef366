#!/usr/bin/env bash
# run.sh: the benchmark run behind "make bench" (benchmarks/README.md).
#
#   benchmarks/run.sh            measure; results in benchmarks/out/
#   benchmarks/run.sh -publish   also copy them to benchmarks/results/ and
#                                splice the tables into benchmarks/README.md
#   benchmarks/run.sh -quick     a smoke run (3 samples, 100k rows): checks
#                                the plumbing, not figures to publish
#
# Environment: SAMPLES (Go-level samples, default 10), SQL_SAMPLES (5,
# DuckDB), SQLITE_SAMPLES (3),
# SQL_ROWS (1000000,10000000), QUIET_IDLE (90 %), QUIET_TIMEOUT (1800 s,
# per measurement), QUIET_NICE_IDLE (set: niced processes count as idle),
# URLNORM_DATA (the shared URL lists).
#
# Steps: build the loadable extensions (make extensions, when the Makefile
# has that target) and both harnesses, niced; write the SQL data files,
# niced; then, for each harness, wait for a quiet machine (quiet.sh) and
# measure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cd "$here"

publish=0
samples=${SAMPLES:-10} sql_samples=${SQL_SAMPLES:-5} sqlite_samples=${SQLITE_SAMPLES:-3} sql_rows=${SQL_ROWS:-1000000,10000000}
for a in "$@"; do
	case "$a" in
	-publish) publish=1 ;;
	-quick) samples=3 sql_samples=2 sqlite_samples=2 sql_rows=100000 ;;
	*) echo "usage: run.sh [-publish] [-quick]" >&2; exit 2 ;;
	esac
done
quiet=(./quiet.sh -idle "${QUIET_IDLE:-90}" -timeout "${QUIET_TIMEOUT:-1800}" ${QUIET_NICE_IDLE:+-nice-idle} --)

if make -C "$root" -n extensions >/dev/null 2>&1; then
	nice make -C "$root" extensions || echo "run.sh: make extensions failed; sqlbench will report the extension paths missing" >&2
fi
mkdir -p out/bin
nice go build -o out/bin/urlbench ./cmd/urlbench
nice go build -o out/bin/sqlbench ./cmd/sqlbench
nice out/bin/sqlbench -prepare -rows "$sql_rows" -out out

"${quiet[@]}" out/bin/urlbench -samples "$samples" -out out >/dev/null
"${quiet[@]}" out/bin/sqlbench -samples "$sql_samples" -sqlite-samples "$sqlite_samples" -rows "$sql_rows" -ext "$root/dist" -out out >/dev/null
echo "run.sh: results in $here/out (results.md, chart.svg, sql.md and their JSON)" >&2

if ((publish)); then
	mkdir -p results
	cp out/results.json out/results.md out/chart.svg out/sql.json out/sql.md results/
	nice go run ./cmd/splice README.md go-results=results/results.md sql-results=results/sql.md
	echo "run.sh: published to $here/results and README.md" >&2
fi
