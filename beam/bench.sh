#!/usr/bin/env bash
# Beam throughput and equality on the shared URL lists (see docs/scale.md and
# benchmarks/README.md, "Beam and SQL at scale"). Usage:
#
#   beam/bench.sh /path/to/shared/data/urls [RUNS]
#
# For each corpus it times `urlnorm dedup --format csv` (the CLI), and
# `urlnorm-beam dedup` on prism and on the direct runner, checks that the
# three outputs are byte-identical, and prints URLs/s and peak RSS. Then it
# writes the big corpus as 8 Parquet files and times `urlnorm sql` (DuckDB
# with the urlnorm functions) grouping them, checking its counts against
# `urlnorm dedup` over the same files. Everything is written under
# $OUT (default /tmp/urlnorm-beam-bench): userbait.txt is never committed,
# nor anything made from it.
set -euo pipefail
data=${1:?usage: beam/bench.sh /path/to/shared/data/urls [RUNS]}
runs=${2:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/tmp/urlnorm-beam-bench}
mkdir -p "$out/big" "$out/parquet"
(cd "$root" && go build -o "$out/urlnorm" ./cmd/urlnorm)
(cd "$root/beam" && go build -o "$out/urlnorm-beam" ./cmd/urlnorm-beam)

lists=("$data"/isaacs_files.txt "$data"/kasztp.txt "$data"/node_files.txt "$data"/userbait.txt "$data"/web_dirty.txt)
# big: the lists 6 times over, as 30 files (the BOM of userbait.txt stays at
# the start of each copy, where urlnorm removes it).
for i in 1 2 3 4 5 6; do
	for f in "${lists[@]}"; do cp "$f" "$out/big/$i-$(basename "$f")"; done
done

# timed LABEL OUTFILE CMD…: runs CMD $runs times (stdout to OUTFILE), prints
# the median wall seconds, the largest peak RSS (MB) and the median CPU
# seconds (user + system: on a machine shared with other jobs, wall time
# includes waiting for a core).
timed() {
	local label=$1 file=$2; shift 2
	local walls=() cpus=() rss=0
	for _ in $(seq "$runs"); do
		/usr/bin/time -f "%e %M %U %S" -o "$out/time" "$@" >"$file" 2>"$out/stderr" || { cat "$out/stderr"; exit 1; }
		read -r w m u s <"$out/time"
		walls+=("$w")
		cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')")
		((m > rss)) && rss=$m
	done
	med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
	echo "$label $(med "${walls[@]}") $((rss / 1024)) $(med "${cpus[@]}")"
}

report() { # corpus lines label wall rss cpu
	awk -v c="$1" -v n="$2" -v l="$3" -v w="$4" -v r="$5" -v u="$6" 'BEGIN {
		printf "| %s | %s | %s | %.2f s | %.0f k | %.2f s | %.0f k | %d MB |\n", c, n, l, w, n / w / 1000, u, n / u / 1000, r}'
}

echo "| corpus | URLs | command | wall (median of $runs) | URLs/s (wall) | CPU user+sys | URLs per CPU-second | peak RSS |"
echo "|---|---:|---|---:|---:|---:|---:|---:|"
for corpus in shared big; do
	if [ $corpus = shared ]; then files=("${lists[@]}"); else files=("$out"/big/*.txt); fi
	lines=$(awk 'END {print NR}' "${files[@]}") # counts a last line without '\n' too
	read -r _ w r u < <(timed cli "$out/cli.csv" "$out/urlnorm" dedup -q --format csv "${files[@]}")
	report $corpus "$lines" "urlnorm dedup" "$w" "$r" "$u"
	for runner in prism direct; do
		read -r _ w r u < <(timed $runner "$out/$runner.csv" "$out/urlnorm-beam" dedup -q --runner $runner --format csv --output - "${files[@]}")
		report $corpus "$lines" "urlnorm-beam dedup --runner $runner" "$w" "$r" "$u"
		cmp "$out/cli.csv" "$out/$runner.csv" || { echo "$corpus: $runner differs from urlnorm dedup" >&2; exit 1; }
	done
	echo "$corpus: prism and direct equal urlnorm dedup byte for byte ($(($(wc -l <"$out/cli.csv") - 1)) groups)" >&2
done

# SQL over partitioned Parquet: the big corpus's web_dirty copies as 8 files
# of whole lines (DuckDB reads lines with no quoting; urlnorm dedup reads the
# same Parquet files for the check).
for i in $(seq 0 7); do
	"$out/urlnorm" sql "COPY (SELECT column0 AS url FROM read_csv('$out/big/*.txt', header=false, delim=E'\\x1f', quote='', escape='', columns={'column0': 'VARCHAR'}, strict_mode=false) WHERE hash(column0) % 8 = $i) TO '$out/parquet/part-$i.parquet' (FORMAT parquet)" >/dev/null
done
pq=$("$out/urlnorm" sql --format csv "SELECT count(*) FROM read_parquet('$out/parquet/*.parquet')" | tail -1)
read -r _ w r u < <(timed sql "$out/sql.csv" "$out/urlnorm" sql --format csv \
	"SELECT count(*) AS count, u AS url FROM (SELECT try_normalize_url(url) AS u FROM read_parquet('$out/parquet/*.parquet')) WHERE u IS NOT NULL GROUP BY u ORDER BY count DESC, url")
report parquet "$pq" "urlnorm sql (DuckDB, GROUP BY normalize_url)" "$w" "$r" "$u"
read -r _ w r u < <(timed cli "$out/cli-pq.csv" "$out/urlnorm" dedup -q --format csv --examples 0 "$out"/parquet/*.parquet)
report parquet "$pq" "urlnorm dedup (Parquet input)" "$w" "$r" "$u"
diffs=$("$out/urlnorm" sql --format csv "SELECT count(*) FROM (
	(SELECT * FROM read_csv('$out/sql.csv', all_varchar=true) EXCEPT ALL SELECT count, url FROM read_csv('$out/cli-pq.csv', all_varchar=true))
	UNION ALL
	(SELECT count, url FROM read_csv('$out/cli-pq.csv', all_varchar=true) EXCEPT ALL SELECT * FROM read_csv('$out/sql.csv', all_varchar=true)))" | tail -1)
echo "parquet: urlnorm sql groups vs urlnorm dedup: $diffs differing rows" >&2
[ "$diffs" = 0 ]
