"""Python sqlite3 host for ext's tests: loads the urlnorm SQLite extension
the way a Python user does, then answers one JSON request per stdin line
({"sql": ...}) with {"rows": [[cell, ...], ...]} or {"error": ...}.

Run it with Debian's /usr/bin/python3: a Python built without
--enable-loadable-sqlite-extensions (pyenv's default) has no
enable_load_extension.

usage: sqlite_host.py DB EXTENSION
"""
import json
import sqlite3
import sys


def cell(v):
    if v is None:
        return None
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return str(v)


def main():
    db, ext = sys.argv[1], sys.argv[2]
    con = sqlite3.connect(db, isolation_level=None)  # autocommit, like the shell
    try:
        con.enable_load_extension(True)
        con.load_extension(ext)
        con.enable_load_extension(False)
    except (AttributeError, sqlite3.Error) as e:
        print(json.dumps({"error": f"{type(e).__name__}: {e}"}), flush=True)
        return
    print(json.dumps({"ready": sqlite3.sqlite_version}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        try:
            cur = con.execute(req["sql"])
            resp = {"rows": [[cell(v) for v in row] for row in cur.fetchall()]}
        except sqlite3.Error as e:
            resp = {"error": str(e)}  # SQLite's message, as the user sees it
        print(json.dumps(resp), flush=True)


main()
