#!/usr/bin/env bash
# Installs a pinned Go into DIR, for machines whose Go is too old to
# build urlnorm and too old to switch toolchains itself (DuckDB's
# community-extension CI images have Go 1.20):
#
#   scripts/install-go.sh VERSION DIR      e.g. 1.26.8 build/_go
#
# Go publishes each release as the module golang.org/toolchain; any Go
# from 1.16 on fetches it with "go mod download" through the module proxy
# it is configured with, which checks it against Go's checksum database.
# Idempotent.
set -euo pipefail
version=$1 dir=$2
if [ -x "$dir/bin/go" ] && [ "$("$dir/bin/go" env GOVERSION)" = "go$version" ]; then
	exit 0
fi
command -v go >/dev/null || { echo "install-go.sh: a Go (any version from 1.16) is needed to fetch Go $version" >&2; exit 1; }
mod=golang.org/toolchain@v0.0.1-go$version.$(go env GOOS)-$(go env GOARCH)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$(cd "$tmp" && GO111MODULE=on GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "$mod" |
	sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
[ -d "$src/bin" ] || { echo "install-go.sh: go mod download $mod gave no Go tree ($src)" >&2; exit 1; }
rm -rf "$dir"
mkdir -p "$dir"
cp -R "$src"/. "$dir"/
chmod -R u+w "$dir"
# Module zips carry no file modes; Go's own toolchain switch sets these.
chmod +x "$dir"/bin/* "$dir"/pkg/tool/*/*
"$dir/bin/go" version
