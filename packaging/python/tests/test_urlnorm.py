"""Install test of the urlnorm wheel (run by packaging/python/test.sh).

Runs in a fresh venv the wheel was pip-installed into, from a directory
outside the repository, so what it imports is the installed package.
Environment: URLNORM_ROOT (the repository: golden rows, profiles),
URLNORM_VERSION (the release version), URLNORM_LOAD_SQL_OUT (a file to
write the DuckDB LOAD statement to, which test.sh then runs in a real
DuckDB).
"""
import concurrent.futures
import hashlib
import json
import os
import sqlite3
import sys
import types
import unittest

import urlnorm

ROOT = os.environ["URLNORM_ROOT"]
FUNCS = ("normalize_url", "canonical_hash", "canonical_key", "url_link_type")


def go_unquote(s):
    """The bytes of a Go double-quoted string literal (golden files quote
    inputs with control bytes or invalid UTF-8 so)."""
    assert s[0] == s[-1] == '"', s
    out, i, body = bytearray(), 0, s[1:-1]
    simple = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, '"': 34, "'": 39}
    while i < len(body):
        c = body[i]
        if c != "\\":
            out += c.encode()
            i += 1
            continue
        e = body[i + 1]
        if e in simple:
            out.append(simple[e])
            i += 2
        elif e == "x":
            out.append(int(body[i + 2 : i + 4], 16))
            i += 4
        elif e in "01234567":
            out.append(int(body[i + 1 : i + 4], 8))
            i += 4
        elif e in "uU":
            n = 4 if e == "u" else 8
            out += chr(int(body[i + 2 : i + 2 + n], 16)).encode()
            i += 2 + n
        else:
            raise ValueError(f"unknown escape \\{e} in {s}")
    return bytes(out)


def field(s):
    if not s.startswith('"'):
        return s
    b = go_unquote(s)
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b  # invalid UTF-8: passed as bytes (SQLite: a BLOB)


def golden():
    """{profile: [(input, want, want_err, where)]} from testdata/golden."""
    d = os.path.join(ROOT, "testdata", "golden")
    rows = {}
    for name in sorted(os.listdir(d)):
        if not name.endswith(".tsv"):
            continue
        profile = name[: -len(".tsv")]
        with open(os.path.join(d, name), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                inp, want, _ = line.split("\t")
                want = field(want)
                err = want[1:] if want.startswith("!") else None
                rows.setdefault(profile, []).append((field(inp), None if err else want, err, f"{name}:{n}"))
    return rows


def profile_hash(profile):
    with open(os.path.join(ROOT, "normalize", "profiles", profile + ".json"), encoding="utf-8") as f:
        return json.load(f)["hash"]


def outcome(fn, *args):
    """fn's result, or ("error", kind, message)."""
    try:
        return fn(*args)
    except urlnorm.Error as e:
        return ("error", e.kind, str(e))


def sql_outcome(con, sql, *args):
    try:
        return con.execute(sql, args).fetchone()[0]
    except sqlite3.OperationalError as e:
        return ("error", None, str(e))


class Installed(unittest.TestCase):
    def test_imported_from_the_venv(self):
        self.assertTrue(urlnorm.__file__.startswith(sys.prefix + os.sep), urlnorm.__file__)
        self.assertNotIn(ROOT, urlnorm.__file__)
        for lib in (urlnorm.SQLITE_EXTENSION, urlnorm.DUCKDB_EXTENSION):
            self.assertTrue(lib.startswith(sys.prefix + os.sep) and os.path.isfile(lib), lib)

    def test_version(self):
        want = os.environ["URLNORM_VERSION"]
        self.assertEqual(urlnorm.__version__, want)
        self.assertEqual(urlnorm.version(), want)  # what the bundled library says


class Golden(unittest.TestCase):
    """The golden rows of every profile: the outputs and error kinds Go's
    tests check, through the plain functions, one at a time and in a batch."""

    rows = golden()

    def test_profiles_present(self):
        self.assertGreaterEqual(set(self.rows), {"default", "clara", "whatwg", "rfc3986", "edge-gateway", "curiousnow-v0"})

    def test_normalize_url(self):
        for profile, rows in self.rows.items():
            for inp, want, err, where in rows:
                with self.subTest(where=where):
                    got = outcome(urlnorm.normalize_url, inp, profile)
                    if err:
                        self.assertEqual(got[:2], ("error", err), got)
                        self.assertIsNone(urlnorm.try_normalize_url(inp, profile))
                    else:
                        self.assertEqual(got, want)
                        self.assertEqual(urlnorm.try_normalize_url(inp, profile), want)

    def test_batch_equals_single(self):
        for profile, rows in self.rows.items():
            inputs = [r[0] for r in rows]
            want = [r[1] for r in rows]
            with self.subTest(profile=profile):
                self.assertEqual(urlnorm.try_normalize_url(inputs, profile), want)
                self.assertEqual(urlnorm.try_normalize_url(iter(inputs), profile), want)
                self.assertEqual(urlnorm.try_normalize_url(tuple(inputs), profile), want)
                first_bad = next((i for i, r in enumerate(rows) if r[2]), None)
                if first_bad is None:
                    self.assertEqual(urlnorm.normalize_url(inputs, profile), want)
                    continue
                with self.assertRaises(urlnorm.Error) as cm:
                    urlnorm.normalize_url(inputs, profile)
                self.assertEqual((cm.exception.index, cm.exception.kind), (first_bad, rows[first_bad][2]))
                self.assertEqual(str(cm.exception), str(outcome(urlnorm.normalize_url, inputs[first_bad], profile)[2]))

    def test_canonical_hash(self):
        for profile, rows in self.rows.items():
            algo = profile_hash(profile)
            for inp, want, err, where in rows:
                with self.subTest(where=where):
                    h = urlnorm.try_canonical_hash(inp, profile)
                    if err:
                        self.assertIsNone(h)
                    elif algo == "sha256":
                        self.assertEqual(h, hashlib.sha256(want.encode()).hexdigest())
                    else:
                        self.assertEqual(algo, "xxhash64")
                        self.assertRegex(h, r"^[0-9a-f]{16}$")
            hashes = urlnorm.try_canonical_hash([r[0] for r in rows], profile)
            self.assertEqual(hashes, [urlnorm.try_canonical_hash(r[0], profile) for r in rows])

    def test_url_link_type(self):
        inputs = [r[0] for rows in self.rows.values() for r in rows]
        types_ = urlnorm.try_url_link_type(inputs)
        self.assertLessEqual(set(types_), {"homepage", "section", "informative", None})
        self.assertEqual(len(set(types_) - {None}), 3, "every link type occurs in the golden inputs")


class SQLite(unittest.TestCase):
    """The sqlite3 path, and the plain functions equal to it: every golden
    input, every function, the same values, NULLs and error messages."""

    @classmethod
    def setUpClass(cls):
        cls.con = sqlite3.connect(":memory:")
        urlnorm.sqlite.load(cls.con)

    def test_readme_lines(self):
        con = sqlite3.connect(":memory:")
        self.assertIs(urlnorm.sqlite.load(con), con)
        con.execute("CREATE TABLE pages(url TEXT)")
        con.executemany("INSERT INTO pages VALUES (?)", [("HTTP://Example.COM:80/a/../b/",), ("http://example.com/b",), ("nope",)])
        got = con.execute("SELECT try_normalize_url(url) AS u, count(*) FROM pages GROUP BY 1 ORDER BY 1").fetchall()
        self.assertEqual(got, [(None, 1), ("http://example.com/b", 2)])

    def test_same_as_plain_functions(self):
        inputs = [r[0] for rows in Golden.rows.values() for r in rows] + [None]
        for profile in Golden.rows:
            for name in FUNCS:
                for fn in (name, "try_" + name):
                    one_arg = name == "url_link_type"
                    sql = f"SELECT {fn}(?)" if one_arg else f"SELECT {fn}(?, ?)"
                    extra = () if one_arg else (profile,)
                    for inp in inputs:
                        with self.subTest(fn=fn, profile=profile, input=inp):
                            got = outcome(getattr(urlnorm, fn), inp, *extra)
                            want = sql_outcome(self.con, sql, inp, *extra)
                            if isinstance(want, tuple):  # SQLite's message is the function's
                                self.assertIsInstance(got, tuple)
                                self.assertEqual((got[0], got[2]), (want[0], want[2]))
                            else:
                                self.assertEqual(got, want)

    def test_unknown_profile(self):
        for arg in ("http://a.example/", None):
            msg = sql_outcome(self.con, "SELECT try_normalize_url(?, 'nope')", arg)
            with self.assertRaises(urlnorm.Error) as cm:
                urlnorm.try_normalize_url(arg, "nope")
            self.assertEqual(cm.exception.kind, "unknown_profile")
            self.assertIn("unknown_profile", msg[2])
        with self.assertRaises(urlnorm.Error) as cm:
            urlnorm.try_normalize_url([], "nope")  # no rows: the profile is still checked
        self.assertIsNone(cm.exception.index)

    def test_one_go_runtime(self):
        urlnorm.normalize_url("http://a.example/")  # ctypes, then sqlite3: one library
        with open("/proc/self/maps") as f:
            inodes = {(ln.split()[3], ln.split()[4]) for ln in f if ln.rstrip().endswith("/urlnorm.so")}
        self.assertEqual(len(inodes), 1, inodes)

    def test_no_extension_loading(self):
        class Pyenv:  # a sqlite3 connection of a Python built without extension loading
            def execute(self, sql):
                raise AssertionError("not reached")

        with self.assertRaises(urlnorm.LoadError) as cm:
            urlnorm.sqlite.load(Pyenv())
        self.assertIn("--enable-loadable-sqlite-extensions", str(cm.exception))


class Parts(unittest.TestCase):
    """The URL-part functions and canonical_key: the SQL function's value
    (sqlite3 path) in the function's Python type, for every golden input,
    with and without a profile."""

    @classmethod
    def setUpClass(cls):
        cls.con = sqlite3.connect(":memory:")
        urlnorm.sqlite.load(cls.con)

    # name: how SQLite's value reads as the Python function's (JSON text for
    # a STRUCT, LIST or MAP; 0/1 for a BOOLEAN)
    PARTS = {
        "parse_url": json.loads, "url_path_segments": json.loads, "url_query_params": json.loads,
        "is_valid_url": bool, "url_port": int,
    }

    def test_same_as_sql(self):
        inputs = sorted({r[0] for rows in Golden.rows.values() for r in rows if isinstance(r[0], str)}) + [None]
        names = [n for n in urlnorm.__all__ if n.startswith(("url_", "parse_url", "is_valid_url")) and n not in ("url_link_type", "url_query_param")]
        self.assertGreaterEqual(len(names), 16, names)
        for name in names:
            fn = "try_" + name
            if not hasattr(urlnorm, fn):
                fn = name  # is_valid_url
            conv = self.PARTS.get(name, str)
            for profile in (None, "default", "clara"):
                extra = () if profile is None else (profile,)
                sql = f"SELECT {fn}(?{', ?' * len(extra)})"
                want = [sql_outcome(self.con, sql, inp, *extra) for inp in inputs]
                want = [None if w is None else conv(w) for w in want]
                with self.subTest(fn=fn, profile=profile):
                    self.assertEqual(getattr(urlnorm, fn)(inputs, *extra), want)
                    self.assertEqual([getattr(urlnorm, fn)(i, *extra) for i in inputs[:40]], want[:40])

    def test_issue_13_examples(self):
        self.assertEqual(urlnorm.url_host("HTTP://WWW.Example.COM:8080/"), "www.example.com")
        self.assertEqual(urlnorm.url_port("HTTP://WWW.Example.COM:8080/"), 8080)
        self.assertIsNone(urlnorm.url_port("https://example.com:443/"))
        self.assertEqual(urlnorm.url_registrable_domain("https://a.b.example.co.uk/x"), "example.co.uk")
        self.assertIsNone(urlnorm.url_registrable_domain("https://192.168.0.1/x"))
        self.assertEqual(urlnorm.url_registrable_domain(["https://alice.github.io/", None]), ["alice.github.io", None])
        self.assertEqual(urlnorm.url_registrable_domain_icann("https://alice.github.io/"), "github.io")
        self.assertEqual(urlnorm.url_path_segments("https://example.com/a/b/"), ["a", "b", ""])
        self.assertEqual(urlnorm.url_query_params("https://example.com/?a=1&b=2&a=3"), {"a": ["1", "3"], "b": ["2"]})
        self.assertEqual(urlnorm.url_query_param("https://example.com/?q=caf%C3%A9+au+lait", "q"), "café au lait")
        self.assertEqual(urlnorm.url_query_param("https://example.com/?utm_source=x&id=7", "id", "curiousnow-v0"), "7")
        self.assertIsNone(urlnorm.url_query_param("https://example.com/?utm_source=x&id=7", "utm_source", "curiousnow-v0"))
        self.assertIs(urlnorm.is_valid_url("https://exa mple.com/"), False)
        self.assertEqual(urlnorm.is_valid_url(["https://example.com/", "nope"]), [True, False])
        p = urlnorm.parse_url("HTTPS://user@www.Example.co.uk:8443/a/b.html?q=1#top")
        self.assertEqual(p, {"scheme": "https", "username": "user", "password": None, "host": "www.example.co.uk",
                             "host_type": "domain", "port": 8443, "path": "/a/b.html", "query": "q=1", "fragment": "top",
                             "registrable_domain": "example.co.uk", "public_suffix": "co.uk", "subdomain": "www"})
        self.assertEqual(urlnorm.url_host("www.example.com/page", "edge-gateway"), "www.example.com")
        with self.assertRaises(urlnorm.Error) as cm:
            urlnorm.url_host("www.example.com/page")
        self.assertEqual((cm.exception.kind, cm.exception.function), ("missing_scheme", "url_host"))
        self.assertIsNone(urlnorm.try_url_host("www.example.com/page"))
        with self.assertRaises(urlnorm.Error) as cm:
            urlnorm.is_valid_url("https://example.com/", "no-such-profile")
        self.assertEqual(cm.exception.kind, "unknown_profile")

    def test_canonical_key(self):
        urls = ["https://example.com/a?b=1", "HTTP://Example.COM:80/Path?z=1&a=2#frag", "nope", None]
        for profile in ("default", "edge-gateway", "clara"):
            keys = urlnorm.try_canonical_key(urls, profile)
            hexes = urlnorm.try_canonical_hash(urls, profile, "xxhash64")
            for k, h in zip(keys, hexes):
                if h is None:
                    self.assertIsNone(k)
                    continue
                u = int(h, 16)
                self.assertEqual(k, u - (1 << 64) if u >= 1 << 63 else u)  # the same 64 bits, signed
            self.assertEqual(keys, [sql_outcome(self.con, "SELECT try_canonical_key(?, ?)", u, profile) for u in urls])
        self.assertIsInstance(urlnorm.canonical_key("https://example.com/"), int)
        self.assertEqual(urlnorm.canonical_hash("https://example.com/page", "default", "sha256"),
                         hashlib.sha256(b"https://example.com/page").hexdigest())
        with self.assertRaises(urlnorm.Error) as cm:
            urlnorm.canonical_hash("https://example.com/", "default", "md5")
        self.assertEqual(cm.exception.kind, "unknown_hash")


class Semantics(unittest.TestCase):
    def test_none(self):
        self.assertIsNone(urlnorm.normalize_url(None))
        self.assertEqual(urlnorm.normalize_url(["http://A.example", None]), ["http://a.example", None])
        self.assertIsNone(urlnorm.url_link_type(None))

    def test_error(self):
        with self.assertRaises(urlnorm.Error) as cm:
            urlnorm.normalize_url("nope")
        e = cm.exception
        self.assertIsInstance(e, ValueError)
        self.assertEqual((e.kind, e.function, e.index), ("missing_scheme", "normalize_url", None))
        self.assertEqual(str(e), "normalize_url('nope', 'default'): missing_scheme (use try_normalize_url to get NULL instead)")

    def test_bytes_and_empty(self):
        self.assertEqual(urlnorm.normalize_url(b"HTTP://A.example/\xc3\xa9"), "http://a.example/%C3%A9")
        self.assertEqual(urlnorm.normalize_url([]), [])
        self.assertEqual(urlnorm.try_normalize_url(""), None)

    def test_types(self):
        with self.assertRaises(TypeError) as cm:
            urlnorm.normalize_url(["http://a.example/", 42])
        self.assertIn("index 1", str(cm.exception))
        with self.assertRaises(TypeError):
            urlnorm.normalize_url("http://a.example/", None)

    def test_large_batch(self):
        # more than one call into Go (65,536 values per call): indexes and
        # order survive the chunking, for a list and for a generator
        n = 150_000
        urls = [f"http://h{i}.example/a/../{i}" for i in range(n)]
        want = [f"http://h{i}.example/{i}" for i in range(n)]
        self.assertEqual(urlnorm.normalize_url(urls), want)
        self.assertEqual(urlnorm.normalize_url(u for u in urls), want)
        urls[140_000] = "http://bad host.example/"
        with self.assertRaises(urlnorm.Error) as cm:
            urlnorm.normalize_url(iter(urls))
        self.assertEqual((cm.exception.index, cm.exception.kind), (140_000, "invalid_host"))
        got = urlnorm.try_normalize_url(urls)
        self.assertIsNone(got[140_000])
        self.assertEqual(got[:140_000] + got[140_001:], want[:140_000] + want[140_001:])

    def test_threads(self):
        urls = [f"HTTP://T{i}.example/x/./y" for i in range(20_000)]
        want = urlnorm.normalize_url(urls)
        with concurrent.futures.ThreadPoolExecutor(4) as ex:
            for got in ex.map(lambda _: urlnorm.normalize_url(urls), range(8)):
                self.assertEqual(got, want)


class DuckDB(unittest.TestCase):
    """urlnorm.duckdb against a stand-in for the duckdb package, which cannot
    be installed here; test.sh runs the statement in a real DuckDB."""

    class Con:
        def __init__(self, fail=None):
            self.sql, self.fail = [], fail

        def execute(self, sql, *args):
            self.sql.append(sql)
            if self.fail:
                raise Exception(self.fail)
            return self

    def test_load(self):
        con = self.Con()
        self.assertIs(urlnorm.duckdb.load(con), con)
        self.assertEqual(con.sql, ["LOAD '" + urlnorm.DUCKDB_EXTENSION + "'"])
        self.assertTrue(urlnorm.DUCKDB_EXTENSION.endswith("/urlnorm.duckdb_extension"))
        out = os.environ.get("URLNORM_LOAD_SQL_OUT")
        if out:
            with open(out, "w") as f:
                f.write(con.sql[0])

    def test_quotes_in_path(self):
        saved = urlnorm.duckdb.DUCKDB_EXTENSION
        try:
            urlnorm.duckdb.DUCKDB_EXTENSION = "/opt/o'brien/urlnorm.duckdb_extension"
            self.assertEqual(urlnorm.duckdb.load_statement(), "LOAD '/opt/o''brien/urlnorm.duckdb_extension'")
        finally:
            urlnorm.duckdb.DUCKDB_EXTENSION = saved

    def test_unsigned_refused(self):
        # DuckDB 1.5's message for an unsigned file without the setting
        msg = ('IO Error: Extension "/x/urlnorm.duckdb_extension" could not be loaded because its signature is '
               "either missing or invalid and unsigned extensions are disabled by configuration "
               "(allow_unsigned_extensions)")
        with self.assertRaises(urlnorm.LoadError) as cm:
            urlnorm.duckdb.load(self.Con(fail=msg))
        self.assertIn("urlnorm.duckdb.connect", str(cm.exception))
        self.assertIn(msg, str(cm.exception))

    def test_connect(self):
        calls = []
        fake = types.ModuleType("duckdb")

        def connect(database, read_only=False, config=None, **kw):
            calls.append((database, read_only, config, kw))
            return self.Con()

        fake.connect = connect
        saved = sys.modules.get("duckdb")
        sys.modules["duckdb"] = fake
        try:
            con = urlnorm.duckdb.connect("my.duckdb", config={"threads": "2"})
        finally:
            if saved is None:
                del sys.modules["duckdb"]
            else:
                sys.modules["duckdb"] = saved
        self.assertEqual(calls, [("my.duckdb", False, {"threads": "2", "allow_unsigned_extensions": "true"}, {})])
        self.assertEqual(con.sql, [urlnorm.duckdb.load_statement()])


if __name__ == "__main__":
    unittest.main()
