#!/usr/bin/env bash
# make dist: everything a user downloads, into dist/ (see docs/install.md):
#
#   urlnorm-<v>-linux-<arch>.tar.gz             the command line
#   urlnorm-extensions-<v>-linux-<arch>.tar.gz  urlnorm.duckdb_extension, urlnorm.so
#   duckdb-repository/v<duckdb>/<platform>/urlnorm.duckdb_extension.gz
#                                               for INSTALL urlnorm FROM '<url>'
#   (the Python wheels and npm packages, from packaging/*/build.sh)
#   SHA256SUMS                                  over every file above
#
# for arch amd64 and arm64 (cross-compiled with Debian's aarch64 gcc).
# The per-architecture binaries are first built into
# build/dist/linux-<arch>/ (urlnorm, urlnorm.so, urlnorm.duckdb_extension),
# where the packaging scripts take them.
#
# Reproducible: the same commit gives the same bytes in any directory, at
# any time (-trimpath, no build ID, archive times from SOURCE_DATE_EPOCH,
# default the commit's time; sorted names, owner 0, gzip -n).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
go=${GO:-go}
version=$(scripts/version.sh)
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
export SOURCE_DATE_EPOCH
# GOFLAGS land in the binaries' build information (-modcacherw alone
# changes every byte offset): build with none.
unset GOFLAGS
arches=(amd64 arm64)
stage=$root/build/dist
dist=$root/dist

say() { printf '%s\n' "dist: $*" >&2; }

if ! scripts/notices.sh | cmp -s - THIRD_PARTY_NOTICES.md; then
	echo "dist: THIRD_PARTY_NOTICES.md is out of date with the build graph: run make notices and commit it" >&2
	exit 1
fi

rm -rf "$stage" "$dist"
mkdir -p "$stage" "$dist"

cross() { # cross ARCH: the C and C++ compilers for ARCH ("" = the host's)
	[ "$1" = "$($go env GOHOSTARCH)" ] && return
	case "$1" in
	arm64) echo "CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++" ;;
	*) echo "dist: no cross compiler for $1" >&2; exit 1 ;;
	esac
}

for arch in "${arches[@]}"; do
	out=$stage/linux-$arch
	mkdir -p "$out"
	say "linux-$arch: urlnorm"
	# shellcheck disable=SC2046
	env CGO_ENABLED=1 GOOS=linux GOARCH="$arch" GOEXPERIMENT="$(scripts/goexperiment.sh "$arch")" $(cross "$arch") \
		$go build -trimpath -ldflags "-s -w -buildid=" -o "$out/urlnorm" ./cmd/urlnorm
	say "linux-$arch: urlnorm.so, urlnorm.duckdb_extension"
	# shellcheck disable=SC2046
	env GOARCH="$arch" $(cross "$arch") ext/build.sh "$out"
done

# tarball NAME FILE...: dist/NAME.tar.gz holding NAME/ with the files.
tarball() {
	local name=$1 dir=$stage/pkg/$1
	shift
	mkdir -p "$dir"
	for f in "$@"; do
		case "$f" in
		*/urlnorm | *.so | *.duckdb_extension) install -m 0755 "$f" "$dir/" ;;
		*) install -m 0644 "$f" "$dir/" ;;
		esac
	done
	tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
		--format=gnu -C "$stage/pkg" -cf - "$name" | gzip -9n >"$dist/$name.tar.gz"
}
docs=(LICENSE THIRD_PARTY_NOTICES.md README.md CHANGELOG.md)
for arch in "${arches[@]}"; do
	out=$stage/linux-$arch
	tarball "urlnorm-$version-linux-$arch" "$out/urlnorm" "${docs[@]}"
	tarball "urlnorm-extensions-$version-linux-$arch" "$out/urlnorm.duckdb_extension" "$out/urlnorm.so" "${docs[@]}" docs/extensions.md
done

# The DuckDB extension repository: one copy per DuckDB release and
# platform (static hosting has no links). DuckDB 1.2 names Linux x86-64
# linux_amd64_gcc4: the same library with that name in its footer.
say "duckdb-repository"
mkdir -p "$stage/linux-amd64-gcc4"
GOARCH='' $go run ./ext/appendmeta -replace -in "$stage/linux-amd64/urlnorm.duckdb_extension" \
	-out "$stage/linux-amd64-gcc4/urlnorm.duckdb_extension" -platform linux_amd64_gcc4 -api v1.2.0 -version "v$version"
for arch in "${arches[@]}"; do gzip -9n -c "$stage/linux-$arch/urlnorm.duckdb_extension" >"$stage/linux-$arch.gz"; done
gzip -9n -c "$stage/linux-amd64-gcc4/urlnorm.duckdb_extension" >"$stage/linux-amd64-gcc4.gz"
grep -v '^#' scripts/duckdb-releases.txt | while read -r duckdb _; do
	[ -n "$duckdb" ] || continue
	for platform in linux_amd64 linux_arm64; do
		src=$stage/${platform/_/-}.gz
		if [[ $duckdb == 1.2.* && $platform == linux_amd64 ]]; then
			platform=linux_amd64_gcc4 src=$stage/linux-amd64-gcc4.gz
		fi
		mkdir -p "$dist/duckdb-repository/v$duckdb/$platform"
		cp "$src" "$dist/duckdb-repository/v$duckdb/$platform/urlnorm.duckdb_extension.gz"
	done
done

# The Python wheels and npm packages (packaging/*/build.sh ROOT VERSION,
# offline, writing into dist/).
for p in python npm; do
	if [ -f "packaging/$p/build.sh" ]; then
		say "packaging/$p"
		bash "packaging/$p/build.sh" "$root" "$version"
	fi
done

(cd "$dist" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum >SHA256SUMS)
say "$(wc -l <"$dist/SHA256SUMS") files in dist/, listed in dist/SHA256SUMS"
