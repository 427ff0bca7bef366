#!/usr/bin/env bash
# Install test of urlnorm's Python wheel, as a user gets it:
#
#   packaging/python/test.sh ROOT
#
# takes ROOT/dist/urlnorm-<version>-py3-none-manylinux_2_34_<this machine>.whl
# (packaging/python/build.sh), pip-installs it with --no-index into a fresh
# venv of Debian's /usr/bin/python3 and, from a directory outside the
# repository:
#   1. tests/test_urlnorm.py: the golden rows of every profile through the
#      plain functions and the sqlite3 path, semantics, urlnorm.duckdb
#      against a stand-in of the duckdb package;
#   2. the examples of docs/python.md (doctest);
#   3. the statement urlnorm.duckdb.load() runs, in a real DuckDB
#      (@duckdb/node-api, since Python's duckdb package is not installable);
#   4. static TLS (tests/tls.py): after importing numpy and pandas, and with
#      the spare static TLS used up, with and without the GLIBC_TUNABLES
#      workaround of docs/python.md;
#   5. the wheel build is reproducible (same inputs, same bytes).
# Needs: python3-venv, python3-pip, python3-numpy, python3-pandas, gcc,
# node (scripts/deps.sh installs them).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: packaging/python/test.sh ROOT" >&2; exit 2; }
root=$(cd "$1" && pwd)
here=$root/packaging/python
py=/usr/bin/python3
version=$(sed -n 's/^const Version = "\(.*\)"$/\1/p' "$root/version/version.go")
case $(uname -m) in
x86_64) arch=amd64 machine=x86_64 ;;
aarch64) arch=arm64 machine=aarch64 ;;
*) echo "packaging/python/test.sh: no wheel for $(uname -m)" >&2; exit 1 ;;
esac
whl=$root/dist/urlnorm-$version-py3-none-manylinux_2_34_$machine.whl
[ -f "$whl" ] || { echo "packaging/python/test.sh: $whl missing (packaging/python/build.sh builds it)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
step() { echo "== packaging/python/test.sh: $*"; }

# install VENV [VENV_FLAGS]: a fresh venv with the wheel installed by
# Debian's pip (the venv itself has none), offline.
install() {
	"$py" -m venv --without-pip "${@:2}" "$1"
	"$py" -m pip --python "$1/bin/python" install --no-index --no-cache-dir \
		--disable-pip-version-check --quiet "$whl"
}

step "fresh venv, pip install --no-index $(basename "$whl")"
install "$tmp/venv"
cd "$tmp"
step "tests/test_urlnorm.py"
URLNORM_ROOT=$root URLNORM_VERSION=$version URLNORM_LOAD_SQL_OUT=$tmp/load.sql \
	"$tmp/venv/bin/python" "$here/tests/test_urlnorm.py"
step "docs/python.md examples (doctest)"
"$tmp/venv/bin/python" -m doctest -o ELLIPSIS "$root/docs/python.md"
echo "ok"

step "urlnorm.duckdb.load()'s statement in DuckDB (@duckdb/node-api)"
"$root/ext/fetch.sh" node
node "$here/tests/duckdb_load.mjs" "$root/build/ext/node/node_modules" "$tmp/load.sql"

step "static TLS after numpy and pandas (venv with system site packages)"
install "$tmp/venv-sys" --system-site-packages
"$tmp/venv-sys/bin/python" "$here/tests/tls.py" heavy
mkdir "$tmp/hogs"
for size in 1024 256 64 16 8; do
	echo "__thread char hog[$size] __attribute__((tls_model(\"initial-exec\"))); char *hog_get(void) { return hog; }" |
		"${CC:-gcc}" -x c -shared -fPIC -O2 -o "$tmp/hogs/hog$size.so" -
done
env -u GLIBC_TUNABLES "$tmp/venv-sys/bin/python" "$here/tests/tls.py" exhaust "$tmp/hogs"
GLIBC_TUNABLES=glibc.rtld.optional_static_tls=4096 "$tmp/venv-sys/bin/python" "$here/tests/tls.py" replay "$tmp/hogs"

step "the C ABI of each wheel's urlnorm.so (tests/capi_smoke.c)"
# unwheel WHEEL DIR: extracts the wheel's urlnorm.so into DIR.
unwheel() {
	mkdir -p "$2"
	"$py" -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("urlnorm/_ext/urlnorm.so"))' \
		"$1" "$2/urlnorm.so"
}
unwheel "$whl" "$tmp/capi-$machine"
"${CC:-gcc}" -O1 -o "$tmp/capi-$machine/smoke" "$here/tests/capi_smoke.c" -ldl
"$tmp/capi-$machine/smoke" "$tmp/capi-$machine/urlnorm.so" "$version"
arm=$root/dist/urlnorm-$version-py3-none-manylinux_2_34_aarch64.whl
if [ "$machine" = x86_64 ] && [ -f "$arm" ]; then
	# No aarch64 Python here: the library's C ABI under qemu-user instead.
	for tool in aarch64-linux-gnu-gcc qemu-aarch64-static; do
		command -v $tool >/dev/null || { echo "packaging/python/test.sh: $tool missing (scripts/deps.sh installs it)" >&2; exit 1; }
	done
	unwheel "$arm" "$tmp/capi-aarch64"
	aarch64-linux-gnu-gcc -O1 -o "$tmp/capi-aarch64/smoke" "$here/tests/capi_smoke.c" -ldl
	qemu-aarch64-static -L /usr/aarch64-linux-gnu "$tmp/capi-aarch64/smoke" "$tmp/capi-aarch64/urlnorm.so" "$version"
elif [ "$machine" = x86_64 ]; then
	echo "packaging/python/test.sh: $(basename "$arm") not in dist/: its library is not checked"
fi

step "the wheel build is reproducible"
"$py" "$here/wheel.py" --root "$root" --version "$version" --arch "$machine" \
	--libs "$root/build/dist/linux-$arch" --tag manylinux_2_34 --out "$tmp/rebuild" >/dev/null
cmp "$whl" "$tmp/rebuild/$(basename "$whl")"
echo "ok: identical"
step "all passed"
