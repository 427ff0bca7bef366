#!/usr/bin/env bash
# make dist-test: installs what "make dist" wrote into clean environments,
# the way a user does, with no network beyond a loopback HTTP server it
# starts, and runs the README's lines there:
#
#  1. SHA256SUMS verifies; each tarball holds what it should.
#  2. The command-line tarballs: the binary runs (arm64 under qemu-user)
#     the README's dedup query and a pipe through "urlnorm normalize".
#  3. The extension tarballs: the sqlite3 shell loads urlnorm.so (arm64:
#     Debian's arm64 shell under qemu), and Python's sqlite3 after numpy
#     and pandas, with DuckDB's libduckdb.so beside them (static TLS).
#  4. The DuckDB repository, served on 127.0.0.1: in a fresh DuckDB of
#     each release listed with an npm version in scripts/duckdb-releases.txt
#     (Node's @duckdb/node-api for x86-64; DuckDB's arm64 libduckdb.so
#     under qemu), with an empty extension directory, the README's
#     INSTALL ... FROM, LOAD and dedup query.
#  5. packaging/*/test.sh (the Python and npm packages), if present.
#
# Ends with "N passed, N failed"; exits 1 if any failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
version=$(scripts/version.sh)
dist=$root/dist
work=$(mktemp -d)
server=
cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
passed=0 failed=0

# check NAME WANT CMD...: runs CMD, which must exit 0 and print WANT
# (exactly; "" skips the comparison).
check() {
	local name=$1 want=$2 got
	shift 2
	if got=$("$@" 2>"$work/stderr"); then
		if [ -z "$want" ] || [ "$got" = "$want" ]; then
			echo "ok   $name"
			passed=$((passed + 1))
			return 0
		fi
		printf 'FAIL %s\n  want: %s\n  got:  %s\n' "$name" "${want//$'\n'/$'\n        '}" "${got//$'\n'/$'\n        '}"
	else
		printf 'FAIL %s (exit %s)\n  %s\n  %s\n' "$name" "$?" "${got//$'\n'/$'\n  '}" "$(head -c 2000 "$work/stderr")"
	fi
	failed=$((failed + 1))
	return 1
}

# check_fails NAME WANT_STDERR_SUBSTRING CMD...: CMD must fail saying so.
check_fails() {
	local name=$1 want=$2 err
	shift 2
	if "$@" >/dev/null 2>"$work/stderr"; then
		echo "FAIL $name: succeeded, want an error containing: $want"
	elif err=$(cat "$work/stderr") && [[ $err == *"$want"* ]]; then
		echo "ok   $name"
		passed=$((passed + 1))
		return 0
	else
		printf 'FAIL %s\n  want an error containing: %s\n  got: %s\n' "$name" "$want" "$err"
	fi
	failed=$((failed + 1))
	return 1
}

qemu=(qemu-aarch64-static -L /usr/aarch64-linux-gnu)
sysroot=$root/build/arm64-root
# run ARCH CMD...: runs an ARCH binary (arm64 under qemu-user).
run() {
	local arch=$1
	shift
	if [ "$arch" = arm64 ]; then
		"${qemu[@]}" -E "LD_LIBRARY_PATH=$sysroot/usr/lib/aarch64-linux-gnu:$sysroot/lib/aarch64-linux-gnu${LIBDIR:+:$LIBDIR}" "$@"
	else
		LD_LIBRARY_PATH=${LIBDIR:-} "$@"
	fi
}

# The README's lines: its DuckDB block (INSTALL ... FROM, LOAD, the dedup
# query), one statement per line group ending in ";".
readme_duckdb() {
	awk '/^```sql$/ {inblk=1; blk=""; next} inblk && /^```$/ {inblk=0; if (blk ~ /INSTALL urlnorm FROM/) {printf "%s", blk; exit}} inblk {blk = blk $0 "\n"}' README.md
}
dedup_want=$'http://example.com/Path?a=2&z=1\t2\nhttps://test.org/page\t1'

echo "== 1. files"
check "SHA256SUMS" "" sh -c "cd '$dist' && sha256sum --quiet -c SHA256SUMS"
for arch in amd64 arm64; do
	for kind in "" extensions-; do
		name=urlnorm-$kind$version-linux-$arch
		want="$name/
$name/CHANGELOG.md
$name/LICENSE
$name/README.md
$name/THIRD_PARTY_NOTICES.md"
		if [ -z "$kind" ]; then
			want+=$'\n'"$name/urlnorm"
		else
			want="$name/
$name/CHANGELOG.md
$name/LICENSE
$name/README.md
$name/THIRD_PARTY_NOTICES.md
$name/extensions.md
$name/urlnorm.duckdb_extension
$name/urlnorm.so"
		fi
		check "$name.tar.gz: contents" "$want" sh -c "tar -tzf '$dist/$name.tar.gz' | LC_ALL=C sort"
		tar -xzf "$dist/$name.tar.gz" -C "$work"
	done
done

echo "== 2. command line"
dedup_sql="CREATE TABLE urls AS SELECT 'HTTP://Example.COM:80/Path?z=1&a=2#frag' AS url UNION ALL SELECT 'http://example.com/Path?a=2&z=1' UNION ALL SELECT 'https://TEST.org/page'; SELECT normalize_url(url) AS normalized, count(*) AS cnt FROM urls GROUP BY normalized ORDER BY cnt DESC"
for arch in amd64 arm64; do
	cli=$work/urlnorm-$version-linux-$arch/urlnorm
	check "linux-$arch urlnorm sql: the README's dedup query" $'normalized\tcnt\n'"$dedup_want" \
		run $arch "$cli" sql --format tsv "$dedup_sql"
	check "linux-$arch urlnorm sql --engine sqlite" $'u\nhttp://a.example/x' \
		run $arch "$cli" sql --engine sqlite --format csv "SELECT normalize_url('HTTP://A.example:80/x/') AS u"
	echo 'HTTP://Example.COM:80/a/../b/?z=1&a=2#x' >"$work/in.txt"
	check "linux-$arch urlnorm normalize FILE" "http://example.com/b?a=2&z=1" run $arch "$cli" normalize "$work/in.txt"
done

echo "== 3. extensions: SQLite hosts, static TLS"
for arch in amd64 arm64; do
	ext=$work/urlnorm-extensions-$version-linux-$arch
	shell=sqlite3
	[ $arch = arm64 ] && shell=$sysroot/usr/bin/sqlite3
	check "linux-$arch sqlite3 shell: .load urlnorm" $'3.40.1|http://example.com/b?a=2&z=1' \
		run $arch "$shell" :memory: ".load $ext/urlnorm" "SELECT sqlite_version(), normalize_url('HTTP://Example.COM:80/a/../b/?z=1&a=2#x')"
done
ext=$work/urlnorm-extensions-$version-linux-amd64
libduckdb=$root/build/ext/node/node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so
check "python3 with numpy and pandas loaded: both extensions load (static TLS)" \
	$'sqlite\thttp://example.com/b?a=2&z=1\nduckdb\thttp://example.com/b?a=2&z=1' \
	/usr/bin/python3 scripts/dist-test/tls_host.py "$ext/urlnorm" "$libduckdb" "$ext/urlnorm.duckdb_extension"

echo "== 4. DuckDB: INSTALL urlnorm FROM a repository on 127.0.0.1"
# A static file server over dist/duckdb-repository, on a free port.
: >"$work/http.log"
python3 -u -m http.server --bind 127.0.0.1 --directory "$dist/duckdb-repository" 0 >"$work/http.log" 2>&1 &
server=$!
port=
for _ in $(seq 100); do
	port=$(sed -n 's/.* port \([0-9]*\) .*/\1/p' "$work/http.log" | head -1)
	[ -n "$port" ] && break
	sleep 0.1
done
[ -n "$port" ] || { echo "FAIL the HTTP server did not start: $(cat "$work/http.log")"; exit 1; }
repo=http://127.0.0.1:$port
mapfile -t readme < <(readme_duckdb | grep -v '^--' | sed "s|'https://[^']*duckdb-repository'|'$repo'|" | awk 'BEGIN{RS=";\n"} NF {gsub(/\n/, " "); print}')
if ((${#readme[@]} < 4)); then
	echo "FAIL README.md: no sql block with INSTALL urlnorm FROM, LOAD and the dedup query (got ${#readme[@]} statements)"
	failed=$((failed + 1))
fi
# duckdb_test LABEL HOST...: a fresh DuckDB (HOST runs statements) with an
# empty extension directory installs, loads and runs the README's lines.
duckdb_test() {
	local label=$1 dir
	shift
	dir=$(mktemp -d "$work/extdir.XXXX")
	check "$label: README's INSTALL FROM, LOAD, dedup query" "$dedup_want" \
		"$@" "SET extension_directory = '$dir'" "${readme[@]}"
	check "$label: installed from the repository, version v$version" "urlnorm	true	v$version	REPOSITORY	$repo" \
		"$@" "SET extension_directory = '$dir'" "LOAD urlnorm" \
		"SELECT extension_name, loaded, extension_version, install_mode, installed_from FROM duckdb_extensions() WHERE extension_name = 'urlnorm'"
	dir=$(mktemp -d "$work/extdir.XXXX")
	check "$label: SET custom_extension_repository, INSTALL urlnorm" "http://example.com/b?a=2&z=1" \
		"$@" "SET extension_directory = '$dir'" "SET custom_extension_repository = '$repo'" "INSTALL urlnorm" "LOAD urlnorm" \
		"SELECT normalize_url('HTTP://Example.COM:80/a/../b/?z=1&a=2#x')"
	dir=$(mktemp -d "$work/extdir.XXXX")
	check "$label: INSTALL FROM a local directory" "http://example.com/b?a=2&z=1" \
		"$@" "SET extension_directory = '$dir'" "INSTALL urlnorm FROM '$dist/duckdb-repository'" "LOAD urlnorm" \
		"SELECT normalize_url('HTTP://Example.COM:80/a/../b/?z=1&a=2#x')"
}
while read -r duckdb node arm; do
	[ -n "$duckdb" ] || continue
	if [ "$node" != - ]; then
		nm=$root/build/duckdb-node/$duckdb
		"$root/ext/fetch.sh" node "$node" "$nm" || { echo "FAIL npm install @duckdb/node-api@$node"; exit 1; }
		check "node-api $node is DuckDB v$duckdb" "v$duckdb" node scripts/dist-test/duckdb_host.mjs "$nm/node_modules" "SELECT version()"
		duckdb_test "DuckDB $duckdb linux-amd64 (node-api $node)" node scripts/dist-test/duckdb_host.mjs "$nm/node_modules"
	fi
	if [ "$arm" != - ]; then
		lib=$root/build/duckdb-arm64/$duckdb
		"$root/ext/fetch.sh" bindings "$arm" "$lib" || { echo "FAIL npm pack @duckdb/node-bindings-linux-arm64@$arm"; exit 1; }
		aarch64-linux-gnu-gcc -O2 -Wall -I ext/duckdb/include -o "$lib/duckdb_host" scripts/dist-test/duckdb_host.c -L"$lib" -lduckdb
		LIBDIR=$lib check "libduckdb arm64 $arm is DuckDB v$duckdb" "v$duckdb" run arm64 "$lib/duckdb_host" "SELECT version()"
		LIBDIR=$lib duckdb_test "DuckDB $duckdb linux-arm64 (libduckdb $arm, qemu)" run arm64 "$lib/duckdb_host"
	fi
done < <(grep -v '^#' scripts/duckdb-releases.txt)
# Signatures: without allow_unsigned_extensions DuckDB will not even
# install the unsigned file (docs/install.md says so).
nm=$root/build/ext/node/node_modules
dir=$(mktemp -d "$work/extdir.XXXX")
DUCKDB_UNSIGNED=0 check_fails "DuckDB without allow_unsigned_extensions refuses to INSTALL" \
	"Attempting to install an extension file that doesn't have a valid signature" \
	node scripts/dist-test/duckdb_host.mjs "$nm" "SET extension_directory = '$dir'" "INSTALL urlnorm FROM '$repo'"
check "the server saw the INSTALL requests" "" grep -q "GET /v1.5.6/linux_amd64/urlnorm.duckdb_extension.gz HTTP/1.1\" 200" "$work/http.log"

echo "== 5. packages"
for t in packaging/*/test.sh; do
	[ -f "$t" ] || continue
	check "$t" "" bash "$t" "$root"
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
