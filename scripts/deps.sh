#!/usr/bin/env bash
# Installs what the test suite needs beyond Go and gcc, idempotently.
# Each requirement names the tests that use it.
set -euo pipefail

need_apt=()
# (requirements are added here by the packages that need them)

# ext/ (loadable extensions, host tests): the sqlite3 shell, sqlite3ext.h to
# build the SQLite extension, Debian's python3 (its sqlite3 module can load
# extensions), npm (DuckDB headers, @duckdb/node-api).
command -v sqlite3 >/dev/null || need_apt+=(sqlite3)
[ -f /usr/include/sqlite3ext.h ] || need_apt+=(libsqlite3-dev)
[ -x /usr/bin/python3 ] || need_apt+=(python3)
command -v npm >/dev/null || need_apt+=(npm)

# duckdb/, internal/parity, cmd/urlnorm: DuckDB's prebuilt static library is
# C++ and links with -lstdc++, which a gcc-only machine lacks (g++ brings it).
if ! echo 'int main(void){return 0;}' | "${CC:-gcc}" -x c - -lstdc++ -o /dev/null 2>/dev/null; then
	need_apt+=(g++)
fi

if ((${#need_apt[@]})); then
	if [ "$(id -u)" = 0 ]; then
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
	else
		sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
	fi
fi

# ext/: the Node host, into build/ext/ (git-ignored).
"$(dirname "$0")/../ext/fetch.sh" node
