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

The SQL functions in a database: urlnorm.sqlite.load(con) for a sqlite3
connection, urlnorm.duckdb.load(con) or urlnorm.duckdb.connect() for DuckDB.
"""
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
    "duckdb",
    "normalize_url",
    "sqlite",
    "try_canonical_hash",
    "try_normalize_url",
    "try_url_link_type",
    "url_link_type",
    "version",
]


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


def canonical_hash(url, profile="default"):
    """Lowercase hex digest of url's canonical form, with the profile's hash (default: sha256)."""
    return _call("canonical_hash", url, (profile,))


def try_canonical_hash(url, profile="default"):
    """Like canonical_hash, but None where it raises on bad input."""
    return _call("try_canonical_hash", url, (profile,))


def url_link_type(url):
    """'homepage', 'section' or 'informative' (SQL url_link_type(url))."""
    return _call("url_link_type", url)


def try_url_link_type(url):
    """Like url_link_type, but None where it raises on bad input."""
    return _call("try_url_link_type", url)
