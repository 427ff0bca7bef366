#!/usr/bin/env bash
# Builds urlnorm's Python wheels, offline, from the per-architecture
# binaries of "make dist":
#
#   packaging/python/build.sh ROOT VERSION
#
# reads ROOT/build/dist/linux-{amd64,arm64}/{urlnorm.so,urlnorm.duckdb_extension}
# and writes ROOT/dist/urlnorm-VERSION-py3-none-manylinux_2_34_{x86_64,aarch64}.whl.
# Both architectures are required; URLNORM_ALLOW_MISSING_ARCH=1 skips one
# whose directory is absent (local runs before the arm64 cross build exists).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: packaging/python/build.sh ROOT VERSION" >&2; exit 2; }
root=$(cd "$1" && pwd)
version=$2
here=$root/packaging/python
py=/usr/bin/python3
[ -x "$py" ] || py=python3

# The wheel's platform tag: the libraries are linked on Debian bookworm
# (glibc 2.36) but need no glibc symbol newer than 2.34 (checklib.sh).
tag=manylinux_2_34

built=0
for arch in amd64 arm64; do
	libs=$root/build/dist/linux-$arch
	case $arch in amd64) machine=x86_64 ;; arm64) machine=aarch64 ;; esac
	if [ ! -d "$libs" ] && [ "${URLNORM_ALLOW_MISSING_ARCH:-}" = 1 ]; then
		echo "packaging/python/build.sh: $libs missing: no $machine wheel (make dist builds it)" >&2
		continue
	fi
	"$root/packaging/checklib.sh" "$arch" "$libs/urlnorm.so" "$libs/urlnorm.duckdb_extension"
	"$py" "$here/wheel.py" --root "$root" --version "$version" --arch "$machine" \
		--libs "$libs" --tag "$tag" --out "$root/dist"
	built=$((built + 1))
done
((built > 0)) || { echo "packaging/python/build.sh: no wheel built" >&2; exit 1; }
