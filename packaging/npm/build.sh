#!/usr/bin/env bash
# Builds urlnorm's npm packages, offline, from the per-architecture
# binaries of "make dist":
#
#   packaging/npm/build.sh ROOT VERSION
#
# reads ROOT/build/dist/linux-{amd64,arm64}/urlnorm.duckdb_extension and
# writes ROOT/dist/urlnorm-VERSION.tgz, urlnorm-linux-x64-VERSION.tgz and
# urlnorm-linux-arm64-VERSION.tgz (npm pack; build.mjs does the work).
# Both architectures are required; URLNORM_ALLOW_MISSING_ARCH=1 skips one
# whose directory is absent (local runs before the arm64 cross build exists).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: packaging/npm/build.sh ROOT VERSION" >&2; exit 2; }
root=$(cd "$1" && pwd)
version=$2
arches=()
for arch in amd64 arm64; do
	if [ ! -d "$root/build/dist/linux-$arch" ] && [ "${URLNORM_ALLOW_MISSING_ARCH:-}" = 1 ]; then
		echo "packaging/npm/build.sh: $root/build/dist/linux-$arch missing: no linux-$arch package (make dist builds it)" >&2
		continue
	fi
	"$root/packaging/checklib.sh" "$arch" "$root/build/dist/linux-$arch/urlnorm.duckdb_extension"
	arches+=("$arch")
done
((${#arches[@]})) || { echo "packaging/npm/build.sh: no architecture to package" >&2; exit 1; }
node "$root/packaging/npm/build.mjs" "$root" "$version" "${arches[@]}"
