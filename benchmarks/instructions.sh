#!/usr/bin/env bash
# instructions.sh: instructions per URL of the normalize benchmarks, counted
# by cachegrind. Unlike time on a shared VM (whose speed drifts by 2× over an
# evening), the count repeats within about 1 % from run to run (±8 of ~700 per
# URL, measured 2026-11-24), so a hot-path change can be judged in seconds; it
# is a proxy (it ignores cache misses and branch mispredictions), so confirm a
# change with urlbench before publishing.
#
#   benchmarks/instructions.sh [-rev REV] [BENCH_REGEXP...]
#
# BENCH_REGEXP defaults to 'BenchmarkNormalize$/^default$/^web$'. With -rev,
# the same benchmarks of git revision REV (built in a temporary worktree)
# are counted too, side by side. Needs valgrind (apt-get install valgrind)
# and, for the web corpora, $URLNORM_DATA (the shared URL lists; kasztp is
# in the repository).
#
# Method: the benchmark runs 100,000 and 300,000 iterations under
# cachegrind with GOGC=off and GOMAXPROCS=1 (no background GC work to
# count); the difference of the two totals divided by 200,000 is the count
# per URL, without the start-up and corpus loading.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

rev=""
if [[ "${1:-}" == "-rev" ]]; then
	rev=$2
	shift 2
fi
patterns=("$@")
((${#patterns[@]})) || patterns=('BenchmarkNormalize$/^default$/^web$')
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
export URLNORM_DATA=${URLNORM_DATA:-$(cd "$root/.." && pwd)/shared/data/urls}

tmp=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tmp/wt" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT

bins=("$tmp/work.test")
labels=("working tree")
(cd "$root/normalize" && go test -c -o "$tmp/work.test" .)
if [[ -n "$rev" ]]; then
	git -C "$root" worktree add --detach "$tmp/wt" "$rev" >/dev/null 2>&1
	(cd "$tmp/wt/normalize" && go test -c -o "$tmp/rev.test" .)
	bins+=("$tmp/rev.test")
	labels+=("$rev")
fi

count() { # binary pattern iterations → total instructions
	(cd "$root/normalize" && GOGC=off GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no \
		--cachegrind-out-file=/dev/null "$1" -test.run '^$' -test.bench "$2" -test.benchtime "${3}x" -test.cpu 1 2>&1) |
		awk '/I[ ]+refs/ {gsub(",", "", $4); print $4}'
}

printf '%-55s' "benchmark"
for l in "${labels[@]}"; do printf ' %16s' "$l"; done
echo
for p in "${patterns[@]}"; do
	printf '%-55s' "$p"
	for b in "${bins[@]}"; do
		lo=$(count "$b" "$p" 100000)
		hi=$(count "$b" "$p" 300000)
		if [[ -z "$lo" || -z "$hi" ]]; then
			printf ' %16s' "no such bench"
		else
			printf ' %16s' "$(((hi - lo) / 200000)) instr/URL"
		fi
	done
	echo
done
