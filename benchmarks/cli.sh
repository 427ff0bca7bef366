#!/usr/bin/env bash
# CLI throughput: `urlnorm normalize` (and hash, jsonl, dedup) against `cat`
# of the same file, in one hyperfine run, on the web corpus (kasztp +
# userbait, built as ../shared/data/urls/PROVENANCE.md says) and on the
# same corpus repeated 20 times (steady state, startup amortized).
#
#   benchmarks/cli.sh [DATA_DIR]     # DATA_DIR: the shared data/urls directory
#
# userbait.txt has unknown copyright: the corpus is built under
# benchmarks/out/ (git-ignored) and never committed. Needs hyperfine.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data/urls}
out=benchmarks/out/cli
mkdir -p "$out"
command -v hyperfine >/dev/null || { echo "cli.sh: install hyperfine (apt-get install hyperfine)" >&2; exit 2; }

for f in kasztp userbait; do
	sed -e '1s/^\xEF\xBB\xBF//' -e 's/\r$//' "$data/$f.txt" | awk 'length($0)>0' > "$out/$f.clean"
done
cat "$out/kasztp.clean" "$out/userbait.clean" > "$out/web.txt"
for _ in $(seq 20); do cat "$out/web.txt"; done > "$out/web20.txt"
go build -o "$out/urlnorm" ./cmd/urlnorm
u="$out/urlnorm"

echo "machine: $(nproc) cores, $(uptime | sed 's/.*load/load/')"
# startup: the binary on an empty input
hyperfine -N --warmup 5 --runs 30 --export-json "$out/startup.json" "$u normalize -q /dev/null" --output null >/dev/null
python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(f'startup (normalize of an empty file): {r[\"median\"]*1000:.1f} ms')" "$out/startup.json"
for f in web web20; do
	in="$out/$f.txt"
	echo "== $f.txt: $(wc -l < "$in") lines, $(wc -c < "$in") bytes"
	hyperfine -N --warmup 3 --min-runs 10 --export-json "$out/$f.json" \
		-n cat "cat $in" \
		-n "normalize" "$u normalize -q $in" \
		-n "normalize --jobs 1" "$u normalize -q --jobs 1 $in" \
		-n "hash" "$u hash -q $in" \
		-n "normalize --format jsonl" "$u normalize -q --format jsonl $in" \
		-n "dedup" "$u dedup -q $in" \
		--output null >/dev/null
	# wall time (median) and CPU time (user+sys, mean) per command, as
	# input MB/s and lines/s: on a shared machine CPU time is the steadier
	# figure, wall time what a user waits.
	python3 - "$out/$f.json" "$(wc -c < "$in")" "$(wc -l < "$in")" <<'PY'
import json, statistics, sys
res = json.load(open(sys.argv[1]))["results"]
size, lines = int(sys.argv[2]), int(sys.argv[3])
print("| command | wall (median) | input MB/s (wall) | lines/s (wall) | CPU user+sys (mean) | cores used | MB/s per CPU-second |")
print("|---|---:|---:|---:|---:|---:|---:|")
for r in res:
    wall = statistics.median(r["times"])
    cpu = r["user"] + r["system"]
    print(f"| `{r['command']}` | {wall*1000:.1f} ms | {size/wall/1e6:.1f} | {lines/wall/1e6:.2f} M | {cpu*1000:.1f} ms | {cpu/r['mean']:.2f} | {size/cpu/1e6:.1f} |")
PY
done
