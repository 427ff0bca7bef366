#!/usr/bin/env bash
# Installs what the test suite needs beyond Go and gcc, idempotently.
# Each requirement names the tests that use it.
set -euo pipefail

need_apt=()
# (requirements are added here by the packages that need them)

if ((${#need_apt[@]})); then
	if [ "$(id -u)" = 0 ]; then
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
	else
		sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
	fi
fi
