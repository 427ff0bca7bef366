#!/usr/bin/env bash
# Fetches what the loadable extensions need at build and test time, into
# build/ext/ (git-ignored), idempotently. Nothing fetched is committed.
#
#   ext/fetch.sh headers   DuckDB's duckdb.h and duckdb_extension.h (MIT),
#                          from the npm package duckdb@1.4.4, checked
#                          against pinned sha256 sums. sqlite3ext.h comes
#                          from Debian's libsqlite3-dev (public domain).
#   ext/fetch.sh node      @duckdb/node-api (MIT), the Node host the tests
#                          load the DuckDB extension into.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/build/ext

duckdb_npm=duckdb@1.4.4
declare -A sums=(
	[duckdb.h]=cbe6a827284375c5a646b8f27dbd3a00808ce8738b5bbb49c190cb1e08540281
	[duckdb_extension.h]=514a5b639cd800e90f1556e8e039cff7f0b4a256e461754dd55caf79dc16db00
)
node_api=@duckdb/node-api@1.5.6-r.1

have_headers() {
	for h in "${!sums[@]}"; do
		[ -f "$out/include/$h" ] || return 1
		echo "${sums[$h]}  $out/include/$h" | sha256sum -c --status || return 1
	done
}

headers() {
	if [ ! -f /usr/include/sqlite3ext.h ]; then
		echo "ext/fetch.sh: /usr/include/sqlite3ext.h missing: apt-get install libsqlite3-dev (scripts/deps.sh does)" >&2
		exit 1
	fi
	have_headers && return
	command -v npm >/dev/null || { echo "ext/fetch.sh: npm is needed to fetch the DuckDB headers" >&2; exit 1; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && npm pack --silent "$duckdb_npm" >/dev/null 2>npm.log) || { cat "$tmp/npm.log" >&2; exit 1; }
	tar -xzf "$tmp"/duckdb-*.tgz -C "$tmp" package/LICENSE \
		package/src/duckdb/src/include/duckdb.h package/src/duckdb/src/include/duckdb_extension.h
	mkdir -p "$out/include"
	cp "$tmp"/package/src/duckdb/src/include/duckdb*.h "$out/include/"
	cp "$tmp/package/LICENSE" "$out/include/LICENSE.duckdb"
	have_headers || { echo "ext/fetch.sh: $duckdb_npm headers do not match the pinned sha256 sums" >&2; exit 1; }
}

node() {
	local pkg=$out/node/node_modules/@duckdb/node-api/package.json
	if [ -f "$pkg" ] && grep -q "\"version\": \"${node_api##*@}\"" "$pkg"; then
		return
	fi
	command -v npm >/dev/null || { echo "ext/fetch.sh: npm is needed for the Node host" >&2; exit 1; }
	mkdir -p "$out/node"
	npm install --silent --prefix "$out/node" --no-save --no-audit --no-fund "$node_api" >/dev/null
}

case "${1:-}" in
headers) headers ;;
node) node ;;
*) echo "usage: ext/fetch.sh headers|node" >&2; exit 2 ;;
esac
