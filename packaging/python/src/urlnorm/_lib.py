"""The bundled libraries, and the ctypes binding to urlnorm.so's C ABI.

urlnorm.so is the SQLite extension; it also exports a small C ABI
(ext/sqlite/capi.go) that evaluates the SQL functions over a batch of
values, which the plain functions call. Using that one library for both
keeps one Go runtime per process.
"""
import ctypes
import os
import threading
from array import array
from itertools import accumulate, chain, islice

_HERE = os.path.dirname(os.path.abspath(__file__))
#: The SQLite extension bundled in this package (also the library of the
#: plain functions).
SQLITE_EXTENSION = os.path.join(_HERE, "_ext", "urlnorm.so")
#: The DuckDB extension bundled in this package (unsigned).
DUCKDB_EXTENSION = os.path.join(_HERE, "_ext", "urlnorm.duckdb_extension")

_ABI = 1  # the C ABI version this binding speaks (urlnorm_abi)
_BATCH = 1 << 16  # values per call into Go: bounds the memory of one call

TLS_HINT = (
    "the process has no static TLS space left for a Go library; start Python with "
    "GLIBC_TUNABLES=glibc.rtld.optional_static_tls=4096 in the environment "
    "(see urlnorm's docs/python.md)"
)


class Error(ValueError):
    """The error a urlnorm function raises on input it cannot canonicalize.

    The message is the SQL function's, word for word. Attributes:
    kind, the error kind code ("invalid_host", "missing_scheme",
    "unknown_profile", ...); function, the SQL function name; index, the
    position of the value that raised in the list or iterable given (None
    for a single value, or when no value is at fault, e.g. an unknown
    profile).
    """

    def __init__(self, message, kind, function, index=None):
        super().__init__(message)
        self.kind = kind
        self.function = function
        self.index = index


class LoadError(RuntimeError):
    """A bundled library cannot be loaded into this process or connection."""


def load_hint(message):
    """The advice to add to a loader's error message, or ''."""
    if "static TLS" in message:
        return TLS_HINT
    return ""


class _Column(ctypes.Structure):
    # urlnorm_column (ext/sqlite/capi.go)
    _fields_ = [
        ("data", ctypes.c_char_p),
        ("ends", ctypes.c_void_p),
        ("nulls", ctypes.c_char_p),
        ("constant", ctypes.c_int32),
    ]


class _Result(ctypes.Structure):
    # urlnorm_result (ext/sqlite/capi.go)
    _fields_ = [
        ("rows", ctypes.c_int64),
        ("data", ctypes.POINTER(ctypes.c_char)),
        ("ends", ctypes.POINTER(ctypes.c_int64)),
        ("nulls", ctypes.POINTER(ctypes.c_uint8)),
        ("error", ctypes.c_char_p),
        ("kind", ctypes.c_char_p),
        ("error_row", ctypes.c_int64),
    ]


_lock = threading.Lock()
_lib = None


def _load():
    global _lib
    with _lock:
        if _lib is not None:
            return _lib
        try:
            lib = ctypes.CDLL(SQLITE_EXTENSION)
        except OSError as e:
            hint = load_hint(str(e))
            raise LoadError(f"urlnorm: cannot load {SQLITE_EXTENSION}: {e}" + (f" ({hint})" if hint else "")) from e
        lib.urlnorm_abi.restype = ctypes.c_int32
        lib.urlnorm_version.restype = ctypes.c_char_p
        lib.urlnorm_func.argtypes = [ctypes.c_char_p, ctypes.c_int32]
        lib.urlnorm_func.restype = ctypes.c_int32
        lib.urlnorm_call.argtypes = [ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(_Column), ctypes.c_int64]
        lib.urlnorm_call.restype = ctypes.POINTER(_Result)
        lib.urlnorm_free.argtypes = [ctypes.POINTER(_Result)]
        lib.urlnorm_free.restype = None
        if lib.urlnorm_abi() != _ABI:
            raise LoadError(f"urlnorm: {SQLITE_EXTENSION} speaks C ABI {lib.urlnorm_abi()}, this package {_ABI}")
        _lib = lib
        return lib


def version():
    """The urlnorm release version, as the bundled library reports it."""
    return _load().urlnorm_version().decode()


_handles = {}


def _handle(lib, name, nargs):
    h = _handles.get((name, nargs))
    if h is None:
        h = lib.urlnorm_func(name.encode(), nargs)
        if h < 0:
            raise LoadError(f"urlnorm: the bundled library has no {name} with {nargs} arguments")
        _handles[(name, nargs)] = h
    return h


def _encode(name, values, base):
    """values (a list) as one column: bytes, end offsets, NULL flags."""
    try:
        joined = "".join(values)  # the common case: every value is a str
    except TypeError:
        return _encode_mixed(name, values, base)
    if joined.isascii():
        return joined.encode("ascii"), array("q", accumulate(map(len, values))), None
    enc = [v.encode("utf-8", "surrogatepass") for v in values]
    return b"".join(enc), array("q", accumulate(map(len, enc))), None


def _encode_mixed(name, values, base):
    enc = []
    nulls = bytearray(len(values))
    for i, v in enumerate(values):
        if isinstance(v, str):
            enc.append(v.encode("utf-8", "surrogatepass"))
        elif v is None:
            enc.append(b"")
            nulls[i] = 1
        elif isinstance(v, (bytes, bytearray, memoryview)):
            enc.append(bytes(v))
        else:
            where = "" if base is None else f" (at index {base + i})"
            raise TypeError(f"{name}: argument url must be str, bytes or None, got {type(v).__name__} ({v!r}){where}")
    return b"".join(enc), array("q", accumulate(map(len, enc))), bytes(nulls)


def _run(lib, fn, name, col, n, consts, base):
    """Evaluates fn over n values, the column col (data, ends, nulls), with
    the constant trailing arguments consts (_Column); base is the index of
    the first value in what the user passed (None for a single value)."""
    data, ends, nulls = col  # kept alive during the call by these locals
    cols = _COLUMNS[1 + len(consts)](_Column(data, ends.buffer_info()[0], nulls, 0), *consts)
    res = lib.urlnorm_call(fn, 1 + len(consts), cols, n)
    if not res:
        raise MemoryError(f"{name}: urlnorm_call could not allocate its result")
    try:
        r = res.contents
        if r.error is not None:
            row = r.error_row
            index = None if row < 0 or base is None else base + row
            raise Error(r.error.decode("utf-8", "surrogateescape"), r.kind.decode(), name, index)
        if n == 1:  # indexing the pointers is cheaper than string_at
            return [None if r.nulls[0] else r.data[: r.ends[0]].decode("utf-8", "surrogateescape")]
        rows = r.rows
        out_ends = array("q")
        out_ends.frombytes(ctypes.string_at(r.ends, 8 * rows))
        out = ctypes.string_at(r.data, out_ends[-1] if rows else 0)
        if out.isascii():
            text = out.decode("ascii")  # code points are bytes: slice by byte offsets
            results = [text[a:b] for a, b in zip(chain((0,), out_ends), out_ends)]
        else:
            results = [out[a:b].decode("utf-8", "surrogateescape") for a, b in zip(chain((0,), out_ends), out_ends)]
        out_nulls = ctypes.string_at(r.nulls, rows)
        if b"\x01" in out_nulls:
            for i, flag in enumerate(out_nulls):
                if flag:
                    results[i] = None
        return results
    finally:
        lib.urlnorm_free(res)


_COLUMNS = {1: _Column * 1, 2: _Column * 2, 3: _Column * 3}
_consts = {}  # profile -> (_Column, bytes, end offsets): the column and the memory it points to


def _const(name, arg):
    c = _consts.get(arg)
    if c is None:
        if not isinstance(arg, str):
            raise TypeError(f"{name}: a profile, name or algorithm must be a str, got {type(arg).__name__} ({arg!r})")
        enc = arg.encode("utf-8", "surrogatepass")
        ends = array("q", [len(enc)])
        c = (_Column(enc, ends.buffer_info()[0], None, 1), enc, ends)
        if len(_consts) < 64:  # profile names are few; do not grow without bound
            _consts[arg] = c
    return c[0]


def _scalar(name, value):
    """A single value as a column."""
    if isinstance(value, str):
        enc = value.encode("utf-8", "surrogatepass")
        return enc, array("q", [len(enc)]), None
    return _encode(name, [value], None)


def call(name, value, consts=()):
    """Calls SQL function name with value (a str, bytes or None; or an
    iterable of them) as its first argument and consts (str) as the others.
    A single value gives a single result, an iterable a list."""
    lib = _load()
    fn = _handle(lib, name, 1 + len(consts))
    const_cols = [_const(name, arg) for arg in consts]
    if value is None or isinstance(value, (str, bytes, bytearray, memoryview)):
        return _run(lib, fn, name, _scalar(name, value), 1, const_cols, None)[0]
    if isinstance(value, (list, tuple)):
        if len(value) <= _BATCH:
            return _run(lib, fn, name, _encode(name, value, 0), len(value), const_cols, 0)
        chunks = (value[i : i + _BATCH] for i in range(0, len(value), _BATCH))
    else:
        it = iter(value)
        chunks = iter(lambda: list(islice(it, _BATCH)), [])
    results, base = [], 0
    for chunk in chunks:
        results.extend(_run(lib, fn, name, _encode(name, chunk, base), len(chunk), const_cols, base))
        base += len(chunk)
    if base == 0:  # an empty input still checks the profile
        _run(lib, fn, name, _encode(name, [], 0), 0, const_cols, 0)
    return results
