#!/usr/bin/env bash
# Builds both loadable extensions from this checkout:
#
#   ext/build.sh [OUTDIR [EXTRA_TAGS]]
#
# writes OUTDIR/urlnorm.duckdb_extension and OUTDIR/urlnorm.so (OUTDIR
# defaults to dist/). EXTRA_TAGS adds Go build tags (the tests build a
# second pair with urlnorm_testpanic). Used by "make extensions" and the
# host tests in ext/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
outdir=$(mkdir -p "${1:-$root/dist}" && cd "${1:-$root/dist}" && pwd)
tags=urlnorm_ext${2:+,$2}
go=${GO:-go}
# The metadata a DuckDB footer carries (docs/extensions.md).
platform=linux_amd64
capi=v1.2.0
version=$(git -C "$root" describe --tags --always --dirty 2>/dev/null || echo dev)

case "$($go env GOOS)_$($go env GOARCH)" in
linux_amd64) ;;
*) echo "ext/build.sh: only linux_amd64 is supported for now (DuckDB platform in the footer)" >&2; exit 1 ;;
esac

"$root/ext/fetch.sh" headers
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=(-buildmode=c-shared -tags "$tags" -trimpath -ldflags "-s -w")
CGO_ENABLED=1 $go build "${flags[@]}" -o "$tmp/urlnorm.so" ./ext/sqlite
CGO_ENABLED=1 $go build "${flags[@]}" -o "$tmp/liburlnorm_duckdb.so" ./ext/duckdb
$go run ./ext/appendmeta -in "$tmp/liburlnorm_duckdb.so" -out "$tmp/urlnorm.duckdb_extension" \
	-platform "$platform" -api "$capi" -version "${version:0:32}"
mv "$tmp/urlnorm.so" "$tmp/urlnorm.duckdb_extension" "$outdir/"
