"""Writes urlnorm's platform wheel with the standard library only (no
network, no build backend): the package sources of packaging/python/src/urlnorm,
the two bundled extensions of one architecture (build.sh has checked them
with packaging/checklib.sh), and the .dist-info that
PEP 427 and the core metadata spec ask for. The zip is reproducible: fixed
timestamps and modes, sorted entries, RECORD last.

usage: wheel.py --root ROOT --version V --arch x86_64|aarch64 --libs DIR
                --tag manylinux_2_34 --out DIR
"""
import argparse
import base64
import glob
import hashlib
import os
import re
import sys
import zipfile

NAME = "urlnorm"
ARCHES = ("x86_64", "aarch64")
LIBS = ("urlnorm.so", "urlnorm.duckdb_extension")
EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip can hold


def metadata(root, version):
    desc_path = os.path.join(root, "docs", "python.md")
    with open(desc_path, encoding="utf-8") as f:
        description = f.read()
    fields = [
        ("Metadata-Version", "2.1"),
        ("Name", NAME),
        ("Version", version),
        ("Summary", "URL canonicalization: plain functions, and SQL functions for SQLite and DuckDB"),
        ("License", "MIT"),
        ("Requires-Python", ">=3.8"),
        ("Classifier", "License :: OSI Approved :: MIT License"),
        ("Classifier", "Operating System :: POSIX :: Linux"),
        ("Classifier", "Programming Language :: Python :: 3"),
        ("Classifier", "Topic :: Database"),
        ("Classifier", "Topic :: Internet :: WWW/HTTP"),
        ("Description-Content-Type", "text/markdown"),
    ]
    head = "".join(f"{k}: {v}\n" for k, v in fields)
    return (head + "\n" + description).encode("utf-8")


def wheel_file(tag):
    return (
        "Wheel-Version: 1.0\n"
        "Generator: urlnorm packaging/python/wheel.py\n"
        "Root-Is-Purelib: false\n"
        f"Tag: {tag}\n"
    ).encode()


def record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode()


def main():
    ap = argparse.ArgumentParser()
    for flag in ("--root", "--version", "--arch", "--libs", "--tag", "--out"):
        ap.add_argument(flag, required=True)
    a = ap.parse_args()
    if a.arch not in ARCHES:
        sys.exit(f"wheel.py: unknown architecture {a.arch}")
    # PEP 440 public version, as the wheel file name requires.
    if not re.fullmatch(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?", a.version):
        sys.exit(f"wheel.py: {a.version!r} is not a PEP 440 version")

    src = os.path.join(a.root, "packaging", "python", "src", NAME)
    files = {}  # path in the wheel -> (bytes, executable)
    for path in sorted(glob.glob(os.path.join(src, "*.py"))):
        with open(path, "rb") as f:
            files[f"{NAME}/{os.path.basename(path)}"] = (f.read(), False)
    files[f"{NAME}/_version.py"] = (f'__version__ = "{a.version}"\n'.encode(), False)
    for lib in LIBS:
        with open(os.path.join(a.libs, lib), "rb") as f:
            files[f"{NAME}/_ext/{lib}"] = (f.read(), True)

    info = f"{NAME}-{a.version}.dist-info"
    tag = f"py3-none-{a.tag}_{a.arch}"
    files[f"{info}/METADATA"] = (metadata(a.root, a.version), False)
    files[f"{info}/WHEEL"] = (wheel_file(tag), False)
    files[f"{info}/top_level.txt"] = (f"{NAME}\n".encode(), False)
    for pattern in ("LICENSE*", "NOTICE*", "THIRD_PARTY*"):
        for path in sorted(glob.glob(os.path.join(a.root, pattern))):
            with open(path, "rb") as f:
                files[f"{info}/licenses/{os.path.basename(path)}"] = (f.read(), False)

    record = "".join(f"{p},{record_hash(d)},{len(d)}\n" for p, (d, _) in files.items())
    record += f"{info}/RECORD,,\n"
    files[f"{info}/RECORD"] = (record.encode(), False)

    os.makedirs(a.out, exist_ok=True)
    out = os.path.join(a.out, f"{NAME}-{a.version}-{tag}.whl")
    # dist-info last (RECORD at the very end), as PEP 427 recommends.
    order = sorted(files, key=lambda p: (p.startswith(info), p.endswith("/RECORD"), p))
    with zipfile.ZipFile(out + ".tmp", "w") as z:
        for p in order:
            data, executable = files[p]
            zi = zipfile.ZipInfo(p, EPOCH)
            zi.external_attr = (0o100755 if executable else 0o100644) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data, compresslevel=9)
    os.replace(out + ".tmp", out)
    print(out)


main()
