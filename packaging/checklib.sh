#!/usr/bin/env bash
# Checks the binaries a package is about to carry, so that a mix-up in the
# build cannot ship: the CPU architecture of each ELF file, the highest
# glibc symbol version it needs (the wheels are tagged manylinux_2_34, and
# docs/python.md and docs/node.md say glibc >= 2.34), and, for a DuckDB
# extension, the platform in its metadata footer.
#
#   packaging/checklib.sh amd64|arm64 FILE...
#
# Used by packaging/python/build.sh and packaging/npm/build.sh.
set -euo pipefail
arch=$1
shift
glibc_max=2.34
case $arch in
amd64) machine='Advanced Micro Devices X86-64' platform=linux_amd64 ;;
arm64) machine='AArch64' platform=linux_arm64 ;;
*) echo "packaging/checklib.sh: unknown architecture $arch" >&2; exit 2 ;;
esac
for f in "$@"; do
	[ -f "$f" ] || { echo "packaging/checklib.sh: $f missing (make dist builds it)" >&2; exit 1; }
	got=$(readelf -h "$f" 2>/dev/null | sed -n 's/^ *Machine: *//p' || true)
	[ "$got" = "$machine" ] || { echo "packaging/checklib.sh: $f is for '$got', not $arch" >&2; exit 1; }
	need=$(readelf -VW "$f" | grep -o 'Name: GLIBC_[0-9.]*' | sed 's/.*GLIBC_//' | sort -V | tail -1 || true)
	if [ -n "$need" ] && [ "$(printf '%s\n%s\n' "$need" "$glibc_max" | sort -V | tail -1)" != "$glibc_max" ]; then
		echo "packaging/checklib.sh: $f needs GLIBC_$need, more than glibc $glibc_max" >&2
		exit 1
	fi
	case $f in
	*.duckdb_extension)
		# Field 2 of the 534-byte footer (ext/appendmeta): 320 bytes from the end.
		got=$(tail -c 320 "$f" | head -c 32 | tr -d '\0')
		[ "$got" = "$platform" ] || { echo "packaging/checklib.sh: $f: DuckDB footer platform '$got', want $platform" >&2; exit 1; }
		;;
	esac
done
