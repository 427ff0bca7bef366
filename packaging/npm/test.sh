#!/usr/bin/env bash
# Install test of urlnorm's npm packages, as a user gets them:
#
#   packaging/npm/test.sh ROOT
#
# takes ROOT/dist/urlnorm-<version>.tgz and urlnorm-linux-<this cpu>-<version>.tgz
# (packaging/npm/build.sh), and in a fresh, empty folder:
#   1. installs @duckdb/node-api (from the npm cache, or the registry), then
#      our tarballs with --offline --strict-peer-deps: they must not need the
#      network, and the peer range must accept node-api's pre-release version;
#   2. runs the example of docs/node.md and compares its output;
#   3. runs tests/test.mjs there (entry points, version, errors, golden rows
#      through DuckDB);
#   4. type-checks tests/check.mts with tsc --strict (typescript from the npm
#      cache or registry);
#   5. checks the peer range against every published node-api version;
#   6. repeats 1-2 with the oldest node-api we support (DuckDB 1.3);
#   7. checks that npm pack of the staged packages is reproducible.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: packaging/npm/test.sh ROOT" >&2; exit 2; }
root=$(cd "$1" && pwd)
here=$root/packaging/npm
version=$(sed -n 's/^const Version = "\(.*\)"$/\1/p' "$root/version/version.go")
# The node-api the extension tests pin (ext/fetch.sh), and the oldest we support.
node_api=$(sed -n 's/^node_api=//p' "$root/ext/fetch.sh")
node_api_oldest=@duckdb/node-api@1.3.4-alpha.27
typescript=typescript@5.9.3
case $(uname -m) in
x86_64) cpu=x64 ;;
aarch64) cpu=arm64 ;;
*) echo "packaging/npm/test.sh: no package for $(uname -m)" >&2; exit 1 ;;
esac
main=$root/dist/urlnorm-$version.tgz
plat=$root/dist/urlnorm-linux-$cpu-$version.tgz
for f in "$main" "$plat"; do
	[ -f "$f" ] || { echo "packaging/npm/test.sh: $f missing (packaging/npm/build.sh builds it)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
step() { echo "== packaging/npm/test.sh: $*"; }
npm_i() { npm install --no-audit --no-fund --loglevel=error "$@"; }

# app DIR NODE_API: a fresh folder with node-api, then our packages offline.
app() {
	mkdir -p "$1"
	echo '{ "name": "app", "private": true, "type": "module" }' >"$1/package.json"
	(cd "$1" && npm_i --prefer-offline "$2" && npm_i --offline --strict-peer-deps "$main" "$plat")
	[ -f "$1/node_modules/@urlnorm/linux-$cpu/urlnorm.duckdb_extension" ] || { echo "no extension installed" >&2; exit 1; }
}

# example DIR: runs the marked block of docs/node.md in DIR and compares
# its output with the text block that follows it.
example() {
	awk '/<!-- test: run/ {m=1} m==1 && /^```js$/ {m=2; next} m==2 && /^```$/ {m=3} m==2' \
		"$root/docs/node.md" >"$1/example.mjs"
	awk '/<!-- test: run/ {m=1} m==1 && /^```text$/ {m=2; next} m==2 && /^```$/ {exit} m==2' \
		"$root/docs/node.md" >"$tmp/want.txt"
	[ -s "$1/example.mjs" ] && [ -s "$tmp/want.txt" ] || { echo "docs/node.md: no example block" >&2; exit 1; }
	(cd "$1" && node example.mjs) >"$tmp/got.txt"
	diff -u "$tmp/want.txt" "$tmp/got.txt"
	echo "ok: the output of docs/node.md's example"
}

step "fresh folder: $node_api, then $(basename "$main") $(basename "$plat") --offline"
app "$tmp/app" "$node_api"
step "docs/node.md example"
example "$tmp/app"

step "tests/test.mjs"
cp "$here/tests/test.mjs" "$tmp/app/"
(cd "$tmp/app" && URLNORM_ROOT=$root URLNORM_VERSION=$version node --test-reporter=spec --test test.mjs)

step "TypeScript: tsc --strict on tests/check.mts"
cp "$here/tests/check.mts" "$tmp/app/"
(cd "$tmp/app" && npm_i --prefer-offline --no-save "$typescript" &&
	npx --offline tsc --noEmit --strict --target es2022 --module nodenext --moduleResolution nodenext check.mts)
echo "ok"

step "peer range against node-api's published versions"
npm view --prefer-offline --json @duckdb/node-api versions 2>/dev/null >"$tmp/versions.json"
node "$here/tests/peer_range.mjs" "$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/semver" \
	"$tmp/app/node_modules/urlnorm/package.json" "$tmp/versions.json"

step "fresh folder with the oldest supported node-api: $node_api_oldest"
app "$tmp/app-oldest" "$node_api_oldest"
example "$tmp/app-oldest"

step "npm pack is reproducible"
mkdir "$tmp/repack"
for d in "$root"/build/npm/*/; do
	(cd "$tmp/repack" && npm pack --offline --silent "$d" >/dev/null)
done
for f in "$main" "$plat"; do
	cmp "$f" "$tmp/repack/$(basename "$f")"
done
echo "ok: identical"
step "all passed"
