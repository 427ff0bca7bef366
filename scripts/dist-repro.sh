#!/usr/bin/env bash
# make dist-repro: checks that "make dist" is reproducible. Builds the
# committed HEAD again in a fresh clone at another path, with an empty Go
# build cache, and compares every file with dist/ (which must have been
# built from the same commit with a clean tree, as CI does).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "dist-repro: the work tree has uncommitted changes; dist/ is not HEAD's: commit, make dist, then make dist-repro" >&2
	exit 1
fi
[ -f dist/SHA256SUMS ] || { echo "dist-repro: no dist/SHA256SUMS: run make dist first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
git clone -q --no-hardlinks "$root" "$tmp/elsewhere/urlnorm"
echo "dist-repro: building $(git rev-parse --short HEAD) again in $tmp/elsewhere/urlnorm with an empty GOCACHE" >&2
(cd "$tmp/elsewhere/urlnorm" && GOCACHE=$tmp/gocache ./scripts/dist.sh)
if diff -u dist/SHA256SUMS "$tmp/elsewhere/urlnorm/dist/SHA256SUMS"; then
	echo "dist-repro: $(wc -l <dist/SHA256SUMS) files, identical bytes: 1 passed, 0 failed"
else
	echo "dist-repro: the files above differ between the two builds: 0 passed, 1 failed"
	exit 1
fi
