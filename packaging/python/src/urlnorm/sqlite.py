"""urlnorm's SQL functions in Python's sqlite3 module.

    import sqlite3, urlnorm
    con = sqlite3.connect("my.db")
    urlnorm.sqlite.load(con)
    con.execute("SELECT normalize_url('HTTP://Example.COM:80/a/../b/')").fetchone()
"""
from ._lib import SQLITE_EXTENSION, LoadError, _load

#: What to do when Python's sqlite3 module cannot load extensions.
NO_EXTENSIONS = (
    "this Python's sqlite3 module cannot load extensions: it was built without "
    "--enable-loadable-sqlite-extensions, as pyenv's default build and the python.org macOS "
    "installer are. Use a Python whose sqlite3 can (Debian's and Ubuntu's python3, conda's), or "
    "rebuild it with PYTHON_CONFIGURE_OPTS=--enable-loadable-sqlite-extensions. urlnorm's plain "
    "functions (urlnorm.normalize_url, ...) work without it"
)


def load(con):
    """Registers urlnorm's SQL functions (normalize_url, canonical_hash,
    url_link_type, canonicalize_url, resolve_url, their try_ twins ...) in
    con, a sqlite3.Connection, by loading the bundled SQLite extension
    (SQLITE_EXTENSION).

    Extension loading is switched on for the load and off again after it.
    Raises urlnorm.LoadError when the sqlite3 module cannot load extensions
    (NO_EXTENSIONS says why) or the library cannot be loaded.
    """
    enable = getattr(con, "enable_load_extension", None)
    if enable is None:
        raise LoadError(f"urlnorm.sqlite.load: {NO_EXTENSIONS}")
    # Load the library into the process first: SQLite would load the same
    # file (one Go runtime either way), but when that fails it reports
    # only its retry with ".so" appended, not why (e.g. static TLS).
    _load()
    enable(True)
    try:
        con.load_extension(SQLITE_EXTENSION)
    finally:
        enable(False)
    return con
