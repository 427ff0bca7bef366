#!/usr/bin/env bash
# Prints urlnorm's release version, the constant Version of package
# github.com/urlnorm/urlnorm/version (version/version.go), without a
# leading "v". Every script that needs the version reads it here.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
v=$(sed -n 's/^const Version = "\([^"]*\)"$/\1/p' "$root/version/version.go")
if [ -z "$v" ]; then
	echo "scripts/version.sh: no 'const Version = \"…\"' line in version/version.go" >&2
	exit 1
fi
echo "$v"
