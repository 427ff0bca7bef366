#!/usr/bin/env bash
# Installs the DuckDB hosts the tests load the extension into, from npm,
# idempotently, into build/ (git-ignored). Nothing fetched is committed.
#
#   ext/fetch.sh node [VERSION [DIR]]
#       @duckdb/node-api@VERSION (MIT) into DIR/node_modules. Default:
#       the version the host tests of ext/ use, into build/ext/node.
#   ext/fetch.sh bindings VERSION DIR
#       libduckdb.so of @duckdb/node-bindings-linux-arm64@VERSION, for
#       the arm64 install test under qemu (npm will not install a package
#       for another CPU, so its tarball is unpacked), into DIR.
#
# The DuckDB C headers the extension compiles against are vendored in
# ext/duckdb/include, not fetched.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# The node-api the host tests use (packaging/npm/test.sh reads this line).
node_api=@duckdb/node-api@1.5.6-r.1

need_npm() {
	command -v npm >/dev/null || { echo "ext/fetch.sh: npm is needed (scripts/deps.sh installs it)" >&2; exit 1; }
}

node() {
	local version=${1:-${node_api##*@}} dir=${2:-$root/build/ext/node}
	local pkg=$dir/node_modules/@duckdb/node-api/package.json
	if [ -f "$pkg" ] && grep -q "\"version\": \"$version\"" "$pkg"; then
		return
	fi
	need_npm
	mkdir -p "$dir"
	npm install --silent --prefix "$dir" --no-save --no-audit --no-fund "@duckdb/node-api@$version" >/dev/null
}

bindings() {
	local version=$1 dir=$2
	[ -f "$dir/libduckdb.so" ] && [ "$(cat "$dir/VERSION" 2>/dev/null)" = "$version" ] && return
	need_npm
	local tmp
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	(cd "$tmp" && npm pack --silent "@duckdb/node-bindings-linux-arm64@$version" >/dev/null 2>npm.log) ||
		{ cat "$tmp/npm.log" >&2; exit 1; }
	tar -xzf "$tmp"/duckdb-node-bindings-linux-arm64-*.tgz -C "$tmp"
	mkdir -p "$dir"
	cp "$tmp/package/libduckdb.so" "$dir/"
	echo "$version" >"$dir/VERSION"
}

case "${1:-}" in
node) shift; node "$@" ;;
bindings) [ $# = 3 ] || { echo "usage: ext/fetch.sh bindings VERSION DIR" >&2; exit 2; }; bindings "$2" "$3" ;;
*) echo "usage: ext/fetch.sh node [VERSION [DIR]] | bindings VERSION DIR" >&2; exit 2 ;;
esac
