"""urlnorm: URL canonicalization for Python, SQLite and DuckDB.

Plain functions, no database needed (each takes one value, or a list or any
iterable of values, which is much faster than a loop; see docs/python.md):

    >>> import urlnorm
    >>> urlnorm.normalize_url("HTTP://Example.COM:80/a/../b/?z=1&a=2#x")
    'http://example.com/b?a=2&z=1'
    >>> urlnorm.normalize_url(["https://A.example/", None])
    ['https://a.example', None]

They follow the SQL functions exactly: None gives None, input that cannot
be canonicalized raises urlnorm.Error (its kind attribute says why) and the
try_ twins return None for it instead, and an unknown profile always raises.

The URL's parts, as the SQL functions of the same names: url_host,
url_registrable_domain, url_port, parse_url (a dict) and the others; with
a profile, the parts of the URL's canonical form under it:

    >>> urlnorm.url_registrable_domain("https://a.b.example.co.uk/x")
    'example.co.uk'

The SQL functions in a database: urlnorm.sqlite.load(con) for a sqlite3
connection, urlnorm.duckdb.load(con) or urlnorm.duckdb.connect() for DuckDB.
"""
import json as _json

from ._lib import DUCKDB_EXTENSION, SQLITE_EXTENSION, Error, LoadError, call as _call, version
from ._version import __version__
from . import duckdb, sqlite

# Shown as urlnorm.Error in tracebacks, where users catch it.
Error.__module__ = LoadError.__module__ = __name__

__all__ = [
    "Error",
    "LoadError",
    "DUCKDB_EXTENSION",
    "SQLITE_EXTENSION",
    "canonical_hash",
    "canonical_key",
    "duckdb",
    "normalize_url",
    "sqlite",
    "try_canonical_hash",
    "try_canonical_key",
    "try_normalize_url",
    "try_url_link_type",
    "try_url_query_param",
    "url_link_type",
    "url_query_param",
    "version",
]  # and the part functions of _PARTS with their try_ twins, added below


def normalize_url(url, profile="default"):
    """The canonical form of url under profile (SQL normalize_url(url, profile)).

    url is a str (bytes are read as UTF-8), None, or a list or iterable of
    them; the result is a str or None, or a list. Raises urlnorm.Error on a
    URL the profile cannot canonicalize.
    """
    return _call("normalize_url", url, (profile,))


def try_normalize_url(url, profile="default"):
    """Like normalize_url, but None where it raises on bad input (an unknown profile still raises)."""
    return _call("try_normalize_url", url, (profile,))


def canonical_hash(url, profile="default", algorithm=None):
    """Lowercase hex digest of url's canonical form, with the profile's hash
    (default: sha256), or with algorithm: "sha256" or "xxhash64"."""
    return _call("canonical_hash", url, (profile,) if algorithm is None else (profile, algorithm))


def try_canonical_hash(url, profile="default", algorithm=None):
    """Like canonical_hash, but None where it raises on bad input."""
    return _call("try_canonical_hash", url, (profile,) if algorithm is None else (profile, algorithm))


def canonical_key(url, profile="default"):
    """A join key of url's canonical form: its xxhash64 (seed 0) as a signed
    64-bit int, the number SQL canonical_key(url, profile) gives."""
    return _convert(_call("canonical_key", url, (profile,)), int)


def try_canonical_key(url, profile="default"):
    """Like canonical_key, but None where it raises on bad input."""
    return _convert(_call("try_canonical_key", url, (profile,)), int)


def url_link_type(url):
    """'homepage', 'section' or 'informative' (SQL url_link_type(url))."""
    return _call("url_link_type", url)


def try_url_link_type(url):
    """Like url_link_type, but None where it raises on bad input."""
    return _call("try_url_link_type", url)


def url_query_param(url, name, profile=None):
    """The first value of query parameter name, form-decoded; None when absent."""
    return _call("url_query_param", url, (name,) if profile is None else (name, profile))


def try_url_query_param(url, name, profile=None):
    """Like url_query_param, but None where it raises on bad input."""
    return _call("try_url_query_param", url, (name,) if profile is None else (name, profile))


def _convert(result, convert):
    """A result of the C ABI (text, or a list of them) as the SQL function's
    type: convert applied to each value that is not None."""
    if isinstance(result, list):
        return [None if r is None else convert(r) for r in result]
    return None if result is None else convert(result)


def _bool(text):
    return text == "1"  # the C ABI writes a BOOLEAN as 1 or 0


# The URL-part functions, as SQL's: each takes url (a value or a list or
# iterable, as above) and an optional profile; without one the parts are
# those of the URL as the URL Standard parses it, with one those of its
# canonical form under the profile. A part the URL does not have is None.
_PARTS = {
    "parse_url": (_json.loads, "every part as a dict: scheme, username, password, host, host_type, port, path, query, "
                  "fragment, registrable_domain, public_suffix, subdomain"),
    "url_scheme": (str, "the scheme, lowercase"),
    "url_host": (str, "the host as serialized (punycode, IP addresses canonical); None without a host"),
    "url_port": (int, "the explicit port, an int; None when absent or the scheme's default"),
    "url_path": (str, "the path as serialized"),
    "url_query": (str, "the query without '?'; None without one"),
    "url_fragment": (str, "the fragment without '#'; None without one"),
    "url_registrable_domain": (str, "the public suffix and one more label (ICANN and private sections); None for an IP or a public suffix"),
    "url_public_suffix": (str, "the host's public suffix (ICANN and private sections)"),
    "url_subdomain": (str, "the labels left of the registrable domain (ICANN and private sections)"),
    "url_registrable_domain_icann": (str, "url_registrable_domain with the ICANN section of the list only"),
    "url_public_suffix_icann": (str, "url_public_suffix with the ICANN section of the list only"),
    "url_subdomain_icann": (str, "url_subdomain with the ICANN section of the list only"),
    "url_extension": (str, "the file extension of the last path segment, without the dot"),
    "url_path_segments": (_json.loads, "the path's segments, a list; None for an opaque path"),
    "url_query_params": (_json.loads, "a dict of each query parameter name to the list of its values, form-decoded; None without a query"),
    "is_valid_url": (_bool, "whether the URL Standard parser accepts url (with a profile: whether the profile can canonicalize it); never raises on data"),
}


def _part(name, convert, doc):
    def part(url, profile=None):
        return _convert(_call(name, url, () if profile is None else (profile,)), convert)

    part.__name__ = part.__qualname__ = name
    part.__doc__ = doc[0].upper() + doc[1:] + f" (SQL {name.removeprefix('try_')}(url [, profile]))."
    return part


for _name, (_conv, _doc) in _PARTS.items():
    globals()[_name] = _part(_name, _conv, _doc)
    __all__.append(_name)
    if _name != "is_valid_url":  # it never raises on data: no try_ twin
        globals()["try_" + _name] = _part("try_" + _name, _conv, "like " + _name + ", but None where it raises on bad input")
        __all__.append("try_" + _name)
del _name, _conv, _doc
