#!/usr/bin/env bash
# Builds both loadable extensions from this checkout:
#
#   ext/build.sh [OUTDIR [EXTRA_TAGS]]
#
# writes OUTDIR/urlnorm.duckdb_extension and OUTDIR/urlnorm.so (OUTDIR
# defaults to dist/). EXTRA_TAGS adds Go build tags (the tests build a
# second pair with urlnorm_testpanic). Used by "make extensions", "make
# dist", the community-extension targets ("make release") and the host
# tests in ext/.
#
# Environment:
#   GOARCH=amd64|arm64  target CPU (default: the Go toolchain's); arm64 on
#                       an amd64 machine cross-compiles with CC (default
#                       aarch64-linux-gnu-gcc, Debian's gcc-aarch64-linux-gnu)
#   ONLY=duckdb|sqlite  build one of the two
#   DEBUG=1             keep symbols and DWARF (make debug)
#   DUCKDB_PLATFORM     the footer's platform (default linux_<GOARCH>)
#   URLNORM_SIMD=0      build amd64 without Go's SIMD experiment
#                       (scripts/goexperiment.sh)
#
# The outputs are reproducible: the same checkout, Go and C compiler give
# the same bytes in any directory (-trimpath, no build ID; the
# footer's version is the release version, not the time or the path).
#
# The DuckDB extension's Go code is compiled with ext/urlnorm.pgo, a CPU
# profile of the rows it runs (scripts/pgo.sh writes it): profile-guided
# inlining and hot loops aligned, so that a row's speed no longer depends
# on where the linker places the chunk loop (benchmarks/README.md,
# "Profile-guided builds"). The SQLite extension is built without it: with
# it, url_host's row was 5 % slower there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
outdir=$(mkdir -p "${1:-$root/dist}" && cd "${1:-$root/dist}" && pwd)
tags=urlnorm_ext${2:+,$2}
go=${GO:-go}
goarch=${GOARCH:-$($go env GOARCH)}
hostarch=$(GOARCH='' $go env GOARCH)

case "$($go env GOOS)_$goarch" in
linux_amd64 | linux_arm64) ;;
*) echo "ext/build.sh: only linux amd64 and arm64 are built (got $($go env GOOS) $goarch)" >&2; exit 1 ;;
esac
cc=${CC:-}
if [ "$goarch" != "$hostarch" ] && [ -z "$cc" ]; then
	case "$goarch" in
	arm64) cc=aarch64-linux-gnu-gcc ;;
	amd64) cc=x86_64-linux-gnu-gcc ;;
	esac
	command -v "$cc" >/dev/null || { echo "ext/build.sh: cross compiler $cc missing (scripts/deps.sh dist installs it)" >&2; exit 1; }
fi

# The metadata a DuckDB footer carries (docs/extensions.md): the platform,
# the lowest C API the library needs (the vendored headers' default), and
# the release version.
platform=${DUCKDB_PLATFORM:-linux_$goarch}
capi=v1.2.0
version=v$("$root/scripts/version.sh")

# DuckDB's C headers are vendored in ext/duckdb/include (MIT, DuckDB's
# LICENSE beside them); check they are the pinned ones.
(cd "$root/ext/duckdb/include" && sha256sum -c --quiet SHA256SUMS) ||
	{ echo "ext/build.sh: ext/duckdb/include does not match its SHA256SUMS" >&2; exit 1; }
if [ "${ONLY:-}" != duckdb ] && [ ! -f /usr/include/sqlite3ext.h ]; then
	echo "ext/build.sh: /usr/include/sqlite3ext.h missing: apt-get install libsqlite3-dev (scripts/deps.sh does)" >&2
	exit 1
fi

cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ldflags="-buildid="
[ -n "${DEBUG:-}" ] || ldflags="$ldflags -s -w"
flags=(-buildmode=c-shared -tags "$tags" -trimpath -ldflags "$ldflags")
experiment=$("$root/scripts/goexperiment.sh" "$goarch")
build() { # build OUT PACKAGE [FLAG...]
	env CGO_ENABLED=1 GOARCH="$goarch" GOEXPERIMENT="$experiment" ${cc:+CC="$cc"} CGO_CFLAGS="-O2" \
		$go build "${flags[@]}" "${@:3}" -o "$1" "$2"
}
if [ "${ONLY:-}" != duckdb ]; then
	build "$tmp/urlnorm.so" ./ext/sqlite
	mv "$tmp/urlnorm.so" "$outdir/"
fi
if [ "${ONLY:-}" != sqlite ]; then
	build "$tmp/liburlnorm.so" ./ext/duckdb -pgo "$root/ext/urlnorm.pgo"
	GOARCH=$hostarch CC='' $go run ./ext/appendmeta -in "$tmp/liburlnorm.so" -out "$tmp/urlnorm.duckdb_extension" \
		-platform "$platform" -api "$capi" -version "$version"
	mv "$tmp/urlnorm.duckdb_extension" "$outdir/"
fi
