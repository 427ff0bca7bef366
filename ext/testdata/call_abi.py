"""Calls urlnorm_call, the C ABI of urlnorm.so that the Python package uses
(ext/sqlite/capi.go), the way packaging/python/src/urlnorm/_lib.py does,
for ext/call_test.go: reads {"lib": PATH, "calls": [{"name", "rows",
"consts"}]} as JSON on stdin (rows: the first argument's column, None for
NULL; consts: the other arguments, each a constant column) and writes, per
call, {"rows": [str|None]} or {"error", "kind", "error_row"} as JSON on
stdout."""
import ctypes
import json
import sys


class Column(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("ends", ctypes.POINTER(ctypes.c_int64)),
                ("nulls", ctypes.c_char_p), ("constant", ctypes.c_int32)]


class Result(ctypes.Structure):
    _fields_ = [("rows", ctypes.c_int64), ("data", ctypes.POINTER(ctypes.c_char)),
                ("ends", ctypes.POINTER(ctypes.c_int64)), ("nulls", ctypes.POINTER(ctypes.c_uint8)),
                ("error", ctypes.c_char_p), ("kind", ctypes.c_char_p), ("error_row", ctypes.c_int64)]


def column(values, constant=False):
    enc = [b"" if v is None else v.encode("utf-8", "surrogatepass") for v in values]
    ends, total = [], 0
    for e in enc:
        total += len(e)
        ends.append(total)
    nulls = bytes(1 if v is None else 0 for v in values)
    c = Column(b"".join(enc), (ctypes.c_int64 * len(ends))(*ends), nulls, 1 if constant else 0)
    return c


def call(lib, spec):
    rows = spec["rows"]
    cols = [column(rows)] + [column([c], True) for c in spec.get("consts") or []]
    fn = lib.urlnorm_func(spec["name"].encode(), len(cols))
    if fn < 0:
        return {"error": "no such function", "kind": "", "error_row": -1}
    res = lib.urlnorm_call(fn, len(cols), (Column * len(cols))(*cols), len(rows))
    try:
        r = res.contents
        if r.error is not None:
            return {"error": r.error.decode("utf-8", "surrogateescape"), "kind": r.kind.decode(), "error_row": r.error_row}
        out, start = [], 0
        for i in range(r.rows):
            end = r.ends[i]
            out.append(None if r.nulls[i] else r.data[start:end].decode("utf-8", "surrogateescape"))
            start = end
        return {"rows": out}
    finally:
        lib.urlnorm_free(res)


def main():
    req = json.load(sys.stdin)
    lib = ctypes.CDLL(req["lib"])
    lib.urlnorm_func.argtypes = [ctypes.c_char_p, ctypes.c_int32]
    lib.urlnorm_func.restype = ctypes.c_int32
    lib.urlnorm_call.argtypes = [ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(Column), ctypes.c_int64]
    lib.urlnorm_call.restype = ctypes.POINTER(Result)
    lib.urlnorm_free.argtypes = [ctypes.POINTER(Result)]
    json.dump([call(lib, spec) for spec in req["calls"]], sys.stdout)


main()
