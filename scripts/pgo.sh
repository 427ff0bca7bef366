#!/usr/bin/env bash
# scripts/pgo.sh: writes ext/urlnorm.pgo, the CPU profile that ext/build.sh
# gives the Go compiler (-pgo) for the DuckDB extension.
#
# Why: with a profile the compiler inlines the hot calls it names and, on
# amd64, aligns the hot blocks of loops. Without one, the speed of a row
# depended on where the linker happened to place the bridge's chunk loop:
# the same code, shifted by 32 bytes, ran BenchmarkChunk/Chunk/url_host in
# 31 or 43 ns a row (benchmarks/README.md, "Profile-guided builds"). With
# the profile both placements ran at 27–31, and the DuckDB extension's
# normalize_url row went from a median of 152 to 143 ns. (The SQLite
# extension is built without it: there url_host's row was 5 % slower.)
#
# The profile is the rows the DuckDB extension runs: the bridge's chunks of
# every function, and, when $URLNORM_DATA has the shared URL lists,
# AppendNormalized with every built-in profile over the web corpora.
# Regenerate it after a change to hot code (a stale profile still builds;
# it only helps less):
#
#   URLNORM_DATA=../shared/data/urls scripts/pgo.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
go=${GO:-go}
export GOEXPERIMENT
GOEXPERIMENT=$(scripts/goexperiment.sh "$($go env GOARCH)")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# profile PACKAGE BENCH: a CPU profile of PACKAGE's benchmarks BENCH, run
# in the package's directory (their test data paths are relative).
profile() {
	local name=${1//\//_}
	$go test -c -o "$tmp/$name.test" "./$1"
	(cd "$1" && "$tmp/$name.test" -test.run '^$' -test.bench "$2" -test.benchtime 1s \
		-test.cpuprofile "$tmp/$name.prof" >"$tmp/$name.out") ||
		{ cat "$tmp/$name.out" >&2; exit 1; }
	profiles+=("$tmp/$name.prof")
}
profiles=()
profile internal/bridge 'BenchmarkChunk/Chunk/'
if [ -n "${URLNORM_DATA:-}" ]; then
	profile normalize 'BenchmarkSQLRows/AppendNormalized/'
else
	echo "scripts/pgo.sh: URLNORM_DATA unset: no AppendNormalized rows over the web corpora in the profile" >&2
fi
$go tool pprof -proto "${profiles[@]}" >"$tmp/merged.pgo" 2>/dev/null
mv "$tmp/merged.pgo" ext/urlnorm.pgo
echo "wrote ext/urlnorm.pgo ($(wc -c <ext/urlnorm.pgo) bytes) from ${#profiles[@]} profiles"
