#!/usr/bin/env bash
# Installs what the test suite needs beyond Go and gcc, idempotently.
# Each requirement names the tests that use it.
set -euo pipefail

need_apt=()
# (requirements are added here by the packages that need them)

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
