"""Static TLS check of the installed urlnorm package (issue 12 item 8; run by
packaging/python/test.sh in a venv that sees Debian's numpy and pandas).

A Go c-shared library has a static TLS segment (FLAGS STATIC_TLS), which
dlopen can only place in the few hundred bytes of static TLS that glibc
keeps spare; a process that has already loaded libraries using it fails
with "cannot allocate memory in static TLS block".

usage: tls.py heavy            import numpy and pandas, then use urlnorm (the
                               notebook case): must work as is
       tls.py exhaust HOGDIR   import numpy and pandas, use up the spare
                               static TLS with small libraries from HOGDIR
                               (hog<SIZE>.so, built by test.sh), write their
                               list to HOGDIR/loaded; urlnorm must then fail
                               with a LoadError naming the workaround
       tls.py replay HOGDIR    load the same libraries, then use urlnorm: run
                               with GLIBC_TUNABLES=glibc.rtld.optional_static_tls=…
                               (the documented workaround) it must work
"""
import ctypes
import os
import shutil
import sqlite3
import sys

import numpy  # noqa: F401  (heavy native packages first, as in a notebook)
import pandas  # noqa: F401

import urlnorm

URL, WANT = "HTTP://Example.COM:80/a/../b/", "http://example.com/b"


def use_urlnorm():
    got = urlnorm.normalize_url(pandas.Series([URL, None]).tolist())
    assert got == [WANT, None], got
    con = sqlite3.connect(":memory:")
    urlnorm.sqlite.load(con)
    got = con.execute("SELECT normalize_url(?)", (URL,)).fetchone()[0]
    assert got == WANT, got


def exhaust(hogdir):
    loaded = []
    for size in (1024, 256, 64, 16, 8):
        for i in range(200):
            path = os.path.join(hogdir, f"hog{size}-{i}.so")
            shutil.copyfile(os.path.join(hogdir, f"hog{size}.so"), path)  # a copy: dlopen loads each file once
            try:
                ctypes.CDLL(path)
            except OSError as e:
                if "static TLS" not in str(e):
                    raise
                break
            loaded.append(path)
    with open(os.path.join(hogdir, "loaded"), "w") as f:
        f.write("\n".join(loaded))
    print(f"tls.py: {len(loaded)} libraries used up the spare static TLS")
    for attempt in ("plain functions", "sqlite"):
        try:
            use_urlnorm() if attempt == "plain functions" else urlnorm.sqlite.load(sqlite3.connect(":memory:"))
        except urlnorm.LoadError as e:
            assert "GLIBC_TUNABLES=glibc.rtld.optional_static_tls" in str(e), e
            print(f"tls.py: {attempt}: LoadError as expected: {e}")
        else:
            sys.exit(f"tls.py: {attempt}: urlnorm loaded with no static TLS left: the check proves nothing")


def replay(hogdir):
    with open(os.path.join(hogdir, "loaded")) as f:
        for path in f.read().split("\n"):
            ctypes.CDLL(path)
    use_urlnorm()


mode = sys.argv[1]
if mode == "heavy":
    use_urlnorm()
elif mode == "exhaust":
    exhaust(sys.argv[2])
elif mode == "replay":
    replay(sys.argv[2])
else:
    sys.exit(f"tls.py: unknown mode {mode}")
print(f"tls.py {mode}: ok")
