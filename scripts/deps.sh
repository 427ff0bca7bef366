#!/usr/bin/env bash
# Installs what the test suite needs beyond Go and gcc, idempotently.
# Each requirement names the tests that use it.
#
#   scripts/deps.sh        what "make test" needs
#   scripts/deps.sh dist   also what "make dist" and "make dist-test" need
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dist=
[ "${1:-}" = dist ] && dist=1

need_apt=()
# (requirements are added here by the packages that need them)

# ext/ (loadable extensions, host tests): the sqlite3 shell, sqlite3ext.h to
# build the SQLite extension, Debian's python3 (its sqlite3 module can load
# extensions), npm (@duckdb/node-api).
command -v sqlite3 >/dev/null || need_apt+=(sqlite3)
[ -f /usr/include/sqlite3ext.h ] || need_apt+=(libsqlite3-dev)
[ -x /usr/bin/python3 ] || need_apt+=(python3)
command -v npm >/dev/null || need_apt+=(npm)

# packaging/python/test.sh (the wheel's install test): venv and pip for
# Debian's python3, numpy and pandas (static TLS check), readelf (binutils,
# glibc versions in packaging/python/build.sh).
/usr/bin/python3 -c 'import ensurepip' 2>/dev/null || need_apt+=(python3-venv)
/usr/bin/python3 -m pip --version >/dev/null 2>&1 || need_apt+=(python3-pip)
/usr/bin/python3 -c 'import numpy' 2>/dev/null || need_apt+=(python3-numpy)
/usr/bin/python3 -c 'import pandas' 2>/dev/null || need_apt+=(python3-pandas)
command -v readelf >/dev/null || need_apt+=(binutils)
# ... and the C ABI of the aarch64 wheel's library, cross-compiled and run
# under qemu-user.
command -v aarch64-linux-gnu-gcc >/dev/null || need_apt+=(gcc-aarch64-linux-gnu)
command -v qemu-aarch64-static >/dev/null || need_apt+=(qemu-user-static)

# duckdb/, internal/parity, cmd/urlnorm: DuckDB's prebuilt static library is
# C++ and links with -lstdc++, which a gcc-only machine lacks (g++ brings it).
if ! echo 'int main(void){return 0;}' | "${CC:-gcc}" -x c - -lstdc++ -o /dev/null 2>/dev/null; then
	need_apt+=(g++)
fi

if [ -n "$dist" ]; then
	# make dist: the arm64 command line and extensions are cross-compiled.
	command -v aarch64-linux-gnu-gcc >/dev/null || need_apt+=(gcc-aarch64-linux-gnu)
	command -v aarch64-linux-gnu-g++ >/dev/null || need_apt+=(g++-aarch64-linux-gnu)
	# make dist-test: arm64 binaries run under qemu-user; the static TLS
	# test loads the extensions after numpy and pandas (python3-venv: the
	# Python package's install test).
	command -v qemu-aarch64-static >/dev/null || need_apt+=(qemu-user-static)
	/usr/bin/python3 -c 'import numpy, pandas' 2>/dev/null || need_apt+=(python3-numpy python3-pandas)
	/usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null || need_apt+=(python3-venv)
fi

apt() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}
if ((${#need_apt[@]})); then
	apt apt-get update -qq
	apt env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# ext/: the Node host, into build/ext/ (git-ignored).
"$root/ext/fetch.sh" node

if [ -n "$dist" ]; then
	# make dist-test: Debian's arm64 sqlite3 shell, unpacked (not
	# installed: it would replace the amd64 one) into build/arm64-root,
	# where qemu-aarch64 runs it.
	sysroot=$root/build/arm64-root
	debs=(sqlite3 libsqlite3-0 libreadline8 libtinfo6 zlib1g)
	if [ ! -x "$sysroot/usr/bin/sqlite3" ]; then
		if ! dpkg --print-foreign-architectures | grep -qx arm64; then
			apt dpkg --add-architecture arm64
			apt apt-get update -qq
		fi
		tmp=$(mktemp -d)
		trap 'rm -rf "$tmp"' EXIT
		(cd "$tmp" && apt-get download -qq "${debs[@]/%/:arm64}" 2>/dev/null) ||
			{ apt apt-get update -qq && (cd "$tmp" && apt-get download -qq "${debs[@]/%/:arm64}"); }
		mkdir -p "$sysroot"
		for d in "$tmp"/*.deb; do dpkg-deb -x "$d" "$sysroot"; done
	fi
fi
