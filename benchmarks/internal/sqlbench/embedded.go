package sqlbench

import (
	"context"
	"database/sql"

	urlnormduckdb "github.com/urlnorm/urlnorm/duckdb"
	urlnormsqlite "github.com/urlnorm/urlnorm/sqlite"
)

// embeddedDuckDB opens DuckDB through duckdb-go with the duckdb/ adapter's
// functions registered on the connection (urlnorm's own Register).
func embeddedDuckDB(ctx context.Context, d *Data) (Session, error) {
	return openDuckDB(ctx, "", d, func(_ context.Context, c *sql.Conn) error { return urlnormduckdb.Register(c) })
}

// embeddedSQLite opens the SQLite data file read-only through the sqlite/
// adapter's driver (mattn/go-sqlite3 with the functions on every
// connection).
func embeddedSQLite(ctx context.Context, d *Data) (Session, error) {
	db, err := urlnormsqlite.Open("file:" + d.SQLiteFile() + "?mode=ro")
	if err != nil {
		return nil, err
	}
	s, err := connect(ctx, db, &dbSession{version: "SELECT 'SQLite ' || sqlite_version()"})
	if err != nil {
		return nil, err // not a nil *dbSession in a non-nil Session
	}
	return s, nil
}
