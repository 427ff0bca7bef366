"""Throughput of the installed urlnorm Python package (benchmarks/README.md,
"Python package"): URLs per second of try_normalize_url over a list of N
URLs in one call, in a per-URL loop, and through sqlite3 with the loaded
extension, next to Python's own str.lower over the same list.

usage: python bench.py [-n 100000] [-repeat 5] FILE...

FILEs are URL lists, one per line (the shared lists in
/work/shared/data/urls); lines are taken in order, cycling, until N.
Run it with the Python of a venv the wheel is installed in, from outside
the repository. Prints a Markdown table; each figure is the median of
-repeat runs.
"""
import argparse
import itertools
import platform
import sqlite3
import statistics
import time

import urlnorm


def read_urls(files, n):
    lines = []
    for path in files:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            lines.extend(line.rstrip("\r\n").lstrip("\ufeff") for line in f if line.strip())
    return list(itertools.islice(itertools.cycle(lines), n))


def median_seconds(fn, repeat):
    """Median wall and CPU seconds (CPU: every thread of the process, Go's
    included)."""
    wall, cpu = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return statistics.median(wall), statistics.median(cpu)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=100_000)
    ap.add_argument("-repeat", type=int, default=5)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    urls = read_urls(a.files, a.n)

    con = sqlite3.connect(":memory:")
    urlnorm.sqlite.load(con)
    con.execute("CREATE TABLE t(url TEXT)")
    con.executemany("INSERT INTO t VALUES (?)", ((u,) for u in urls))

    batch = urlnorm.try_normalize_url(urls)
    loop = [urlnorm.try_normalize_url(u) for u in urls]
    sql = [r[0] for r in con.execute("SELECT try_normalize_url(url) FROM t ORDER BY rowid")]
    if not (batch == loop == sql):
        raise SystemExit("bench.py: the paths disagree")

    cases = [
        ("`try_normalize_url(urls)`: one call, a list", lambda: urlnorm.try_normalize_url(urls)),
        ("`try_normalize_url(iter(urls))`: one call, an iterator", lambda: urlnorm.try_normalize_url(iter(urls))),
        ("`[try_normalize_url(u) for u in urls]`: a call per URL", lambda: [urlnorm.try_normalize_url(u) for u in urls]),
        ("`canonical_hash` (sha256), one call", lambda: urlnorm.try_canonical_hash(urls)),
        ("sqlite3: `SELECT try_normalize_url(url) FROM t`", lambda: con.execute("SELECT try_normalize_url(url) FROM t").fetchall()),
        ("floor: `[u.lower() for u in urls]`", lambda: [u.lower() for u in urls]),
    ]
    with open("/proc/loadavg") as f:
        load0 = " ".join(f.read().split()[:3])
    print(f"{len(urls):,} URLs ({sum(r is None for r in batch):,} rejected), Python {platform.python_version()}, "
          f"urlnorm {urlnorm.__version__}, median of {a.repeat}")
    print()
    print("| path | URLs/s (wall) | ns/URL wall | ns/URL CPU |")
    print("|---|---:|---:|---:|")
    for name, fn in cases:
        wall, cpu = median_seconds(fn, a.repeat)
        n = len(urls)
        print(f"| {name} | {n / wall:,.0f} | {wall / n * 1e9:,.0f} | {cpu / n * 1e9:,.0f} |")
    with open("/proc/loadavg") as f:
        print(f"\nloadavg {load0} at start, {' '.join(f.read().split()[:3])} at end")


main()
