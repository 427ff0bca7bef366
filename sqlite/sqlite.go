// Package sqlite registers urlnorm's SQL functions (package udf) in
// embedded SQLite (github.com/mattn/go-sqlite3).
//
//	db, err := sqlite.Open("file:urls.db")   // or ":memory:"
//	row := db.QueryRow(`SELECT normalize_url('HTTP://Example.COM:80/a/')`)
//
// Importing the package registers the database/sql driver DriverName,
// which installs every function in udf.Funcs on each new connection (the
// pool opens connections at will, and SQLite functions are per
// connection). The functions but urlnorm_load_profile are registered
// deterministic (SQLITE_DETERMINISTIC), so they may appear in expression indexes and
// generated columns; recompute those after a profile version change.
// Arguments must be TEXT (a BLOB is read as its bytes). The adapter only
// converts values: udf applies the row contract (NULL, try_, errors,
// panics). Results are text, JSON text for composite types
// (canonicalize_url: the keys of udf.RecordType), or integers for BOOLEAN
// (0/1) and INTEGER results.
package sqlite

import (
	"database/sql"
	"fmt"

	"github.com/mattn/go-sqlite3"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/udf"
)

// DriverName is the database/sql driver name of SQLite with the urlnorm
// functions registered.
const DriverName = "sqlite3_urlnorm"

func init() {
	sql.Register(DriverName, &sqlite3.SQLiteDriver{ConnectHook: Register})
}

// Option configures Open: WithProfiles, WithProfileFile.
type Option = udf.Option

// WithProfiles makes compiled profiles usable by name in the functions
// (process-wide, as every profile; the same profile again is a no-op).
func WithProfiles(ns ...*normalize.Normalizer) Option { return udf.WithProfiles(ns...) }

// WithProfileFile loads a profile or configuration file (a path, or JSON
// or YAML text) under name, as urlnorm_load_profile does.
func WithProfileFile(name, pathOrText string) Option { return udf.WithProfileFile(name, pathOrText) }

// Open opens a SQLite database (a go-sqlite3 DSN such as ":memory:" or
// "file:urls.db?mode=ro") with the urlnorm functions on every connection.
// Note that each connection to ":memory:" is a separate empty database:
// call db.SetMaxOpenConns(1) to keep one. The options load profiles
// first; they are process-wide, so every connection sees them.
func Open(dsn string, opts ...Option) (*sql.DB, error) {
	if err := udf.ApplyOptions(opts); err != nil {
		return nil, err
	}
	db, err := sql.Open(DriverName, dsn)
	if err != nil {
		return nil, err
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Register registers every urlnorm function on one connection. It is the
// driver's ConnectHook; use it in your own SQLiteDriver's hook.
func Register(c *sqlite3.SQLiteConn) error {
	// One result buffer per connection: SQLite runs one call at a time on
	// a connection, and each result is copied out before the next call.
	buf := new([]byte)
	for _, f := range udf.Funcs {
		fn := &function{f: f, buf: buf}
		var impl any
		// mattn registers a Go function by its signature: one per arity.
		switch len(f.Args) {
		case 0:
			impl = func() (any, error) { return fn.call() }
		case 1:
			impl = func(a any) (any, error) { return fn.call(a) }
		case 2:
			impl = func(a, b any) (any, error) { return fn.call(a, b) }
		case 3:
			impl = func(a, b, c any) (any, error) { return fn.call(a, b, c) }
		default:
			return fmt.Errorf("urlnorm: %s: %d arguments not supported by the SQLite adapter", f.Name, len(f.Args))
		}
		// Deterministic, but for a volatile function (urlnorm_load_profile).
		if err := c.RegisterFunc(f.Name, impl, !f.Volatile); err != nil {
			return fmt.Errorf("urlnorm: registering %s in SQLite: %w", f.Name, err)
		}
	}
	return nil
}

type function struct {
	f   *udf.Func
	buf *[]byte
}

// call converts mattn's generic values (string for TEXT, []byte for BLOB,
// a nil []byte for NULL, int64 or float64 for numbers) to udf's row, and
// udf's result to SQLite's: text (JSON for a STRUCT, LIST or MAP), or an
// integer for a BOOLEAN or INTEGER.
func (fn *function) call(vals ...any) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, udf.PanicError(fn.f.Name, r)
		}
	}()
	var store [udf.MaxArgs]string
	var nullStore [udf.MaxArgs]bool
	args, nulls := store[:len(vals)], nullStore[:len(vals)]
	for i, v := range vals {
		switch v := v.(type) {
		case string:
			args[i] = v
		case []byte:
			args[i], nulls[i] = string(v), v == nil
		default:
			return nil, fn.f.ArgTypeError(i, sqlType(v), v)
		}
	}
	if fn.f.IntResult() {
		n, null, err := fn.f.Int(args, nulls)
		if err != nil || null {
			return nil, err
		}
		return n, nil
	}
	out, null, err := fn.f.Text((*fn.buf)[:0], args, nulls)
	*fn.buf = out
	if err != nil || null {
		return nil, err
	}
	return string(out), nil
}

func sqlType(v any) string {
	switch v.(type) {
	case int64:
		return "INTEGER"
	case float64:
		return "REAL"
	}
	return fmt.Sprintf("%T", v)
}
