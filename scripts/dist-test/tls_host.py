"""Loads both urlnorm extensions into a Python process that has already
imported heavy native packages (numpy, pandas), the situation in which a
Go extension once failed with "cannot allocate memory in static TLS
block" (docs/install.md). Prints one line per engine: the engine, then
normalize_url of a fixed URL.

- SQLite: Python's sqlite3 module loads urlnorm.so.
- DuckDB: Python's duckdb package is not installable here, so DuckDB's own
  libduckdb.so (from npm's @duckdb/node-bindings-linux-x64) is opened
  through ctypes, as the duckdb package opens its library, and LOADs
  urlnorm.duckdb_extension.

usage: tls_host.py SQLITE_EXTENSION LIBDUCKDB DUCKDB_EXTENSION
"""
import ctypes
import sqlite3
import sys

import numpy  # noqa: F401  (the point: their libraries are loaded first)
import pandas  # noqa: F401

URL = "HTTP://Example.COM:80/a/../b/?z=1&a=2#x"


def sqlite(ext):
    con = sqlite3.connect(":memory:")
    con.enable_load_extension(True)
    con.load_extension(ext)
    return con.execute("SELECT normalize_url(?)", (URL,)).fetchone()[0]


def duckdb(lib, ext):
    d = ctypes.CDLL(lib)
    p = ctypes.c_void_p
    for name, args in {
        "duckdb_create_config": [ctypes.POINTER(p)],
        "duckdb_set_config": [p, ctypes.c_char_p, ctypes.c_char_p],
        "duckdb_open_ext": [ctypes.c_char_p, ctypes.POINTER(p), p, ctypes.POINTER(ctypes.c_char_p)],
        "duckdb_connect": [p, ctypes.POINTER(p)],
        "duckdb_query": [p, ctypes.c_char_p, p],
        "duckdb_result_error": [p],
        "duckdb_value_varchar": [p, ctypes.c_uint64, ctypes.c_uint64],
    }.items():
        getattr(d, name).argtypes = args
        getattr(d, name).restype = ctypes.c_int
    d.duckdb_result_error.restype = ctypes.c_char_p
    d.duckdb_value_varchar.restype = ctypes.c_char_p  # leaked: one value
    config, db, con, err = p(), p(), p(), ctypes.c_char_p()
    result = ctypes.create_string_buffer(64)  # struct duckdb_result is 48 bytes
    assert d.duckdb_create_config(ctypes.byref(config)) == 0
    assert d.duckdb_set_config(config, b"allow_unsigned_extensions", b"true") == 0
    if d.duckdb_open_ext(None, ctypes.byref(db), config, ctypes.byref(err)) != 0:
        raise RuntimeError(err.value)
    assert d.duckdb_connect(db, ctypes.byref(con)) == 0
    for sql in (f"LOAD '{ext}'", f"SELECT normalize_url('{URL}')"):
        if d.duckdb_query(con, sql.encode(), result) != 0:
            raise RuntimeError(d.duckdb_result_error(result).decode())
    return d.duckdb_value_varchar(result, 0, 0).decode()


def main():
    sqlite_ext, lib, duckdb_ext = sys.argv[1:4]
    for engine, run in (("sqlite", lambda: sqlite(sqlite_ext)), ("duckdb", lambda: duckdb(lib, duckdb_ext))):
        try:
            print(f"{engine}\t{run()}", flush=True)
        except Exception as e:  # report, and go on to the other engine
            print(f"{engine}\terror: {type(e).__name__}: {e}", flush=True)


main()
