"""urlnorm's SQL functions in DuckDB's Python package (duckdb).

    import urlnorm
    con = urlnorm.duckdb.connect()          # allow_unsigned_extensions set, urlnorm loaded
    con.sql("SELECT normalize_url('HTTP://Example.COM:80/a/../b/')").fetchall()

The bundled extension is unsigned, so DuckDB loads it only into a database
opened with allow_unsigned_extensions (it cannot be set later). Needs
DuckDB >= 1.3 on Linux. Not tested with the duckdb package itself, which
cannot be installed where urlnorm is built; tested: the statement load()
runs, which loads the same file in DuckDB's Node client.
"""
from ._lib import DUCKDB_EXTENSION, LoadError, load_hint

#: What to do when DuckDB refuses the unsigned extension.
UNSIGNED = (
    "DuckDB refuses unsigned extensions unless the database is opened with them allowed: "
    "use urlnorm.duckdb.connect(...), or "
    "duckdb.connect(database, config={'allow_unsigned_extensions': 'true'}) and then "
    "urlnorm.duckdb.load(con); the setting cannot be changed on an open database"
)


def load_statement():
    """The SQL statement that loads the bundled DuckDB extension."""
    return "LOAD '" + DUCKDB_EXTENSION.replace("'", "''") + "'"


def load(con):
    """Loads the bundled DuckDB extension (DUCKDB_EXTENSION) into con, a
    duckdb.DuckDBPyConnection whose database was opened with
    config={'allow_unsigned_extensions': 'true'} (see connect), and returns con.

    Raises urlnorm.LoadError when DuckDB refuses it for its missing
    signature.
    """
    try:
        con.execute(load_statement())
    except Exception as e:
        msg = str(e)
        if "unsigned" in msg or "signature" in msg:
            raise LoadError(f"urlnorm.duckdb.load: {UNSIGNED} ({msg})") from e
        hint = load_hint(msg)
        if hint:
            raise LoadError(f"urlnorm.duckdb.load: {msg} ({hint})") from e
        raise
    return con


def connect(database=":memory:", read_only=False, config=None, **kwargs):
    """duckdb.connect(database, read_only, config, ...) with
    allow_unsigned_extensions set in config, and urlnorm loaded."""
    import duckdb  # the top-level duckdb package, not this module

    config = dict(config or {})
    config["allow_unsigned_extensions"] = "true"
    return load(duckdb.connect(database, read_only=read_only, config=config, **kwargs))
