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
// deterministic (SQLITE_DETERMINISTIC), so they may appear in expression
// indexes and generated columns (recompute those after a profile version
// change), and innocuous (SQLITE_INNOCUOUS: usable in a schema with
// PRAGMA trusted_schema=OFF); urlnorm_load_profile, which reads files, is
// direct-only (SQLITE_DIRECTONLY: never from a trigger or a view).
// Arguments must be TEXT (a BLOB is read as its bytes). The adapter only
// converts values: udf applies the row contract (NULL, try_, errors,
// panics). Results are text, JSON text for composite types
// (canonicalize_url: the keys of udf.RecordType), or integers for BOOLEAN
// (0/1) and INTEGER results; a text result over the connection's
// SQLITE_LIMIT_LENGTH raises SQLITE_TOOBIG with a message naming the
// function.
//
// # SQLite's C API
//
// The functions are registered through SQLite's C API by package
// sqlitecapi, the code of the SQLite loadable extension: one C callback
// per row hands Go the row's borrowed bytes and sets the result with one
// call, about half the cost of go-sqlite3's RegisterFunc (reflection, a
// boxed value per argument, a copy per result). That needs the
// connection's sqlite3*, which go-sqlite3 keeps in an unexported field
// (SQLiteConn.db); Register reads it with reflect after checking its type.
// A go-sqlite3 version without that field, or with another type in it,
// gets RegisterFunc instead (the same functions and results, slower, and
// without the INNOCUOUS and DIRECTONLY flags, which RegisterFunc cannot
// set), so a newer go-sqlite3 chosen by your module never breaks the
// adapter; this package's tests fail if the version it pins loses the
// fast path.
package sqlite

import (
	"database/sql"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/mattn/go-sqlite3"

	"github.com/urlnorm/urlnorm/internal/bridge"
	"github.com/urlnorm/urlnorm/internal/sqlitecapi"
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
	if db := connHandle(c); db != nil {
		return sqlitecapi.Register(db)
	}
	return registerFunc(c)
}

// connHandle returns c's sqlite3*, from go-sqlite3's unexported field
// "db" (a *C.sqlite3), or nil when there is none: the connection is
// closed, or this go-sqlite3 version is one this package has not seen.
func connHandle(c *sqlite3.SQLiteConn) unsafe.Pointer {
	return handleOf(reflect.ValueOf(c))
}

// handleOf reads the field db of the struct p points to if it is a
// pointer to go-sqlite3's C struct sqlite3 (cgo names the type
// _Ctype_struct_sqlite3 in package sqlite3), else returns nil. It reads
// the field by name and checks its type, never by a fixed offset.
func handleOf(p reflect.Value) unsafe.Pointer {
	if p.Kind() != reflect.Pointer || p.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := p.Elem().FieldByName("db")
	if !f.IsValid() || f.Kind() != reflect.Pointer {
		return nil
	}
	if t := f.Type().Elem(); t.Name() != "_Ctype_struct_sqlite3" || t.PkgPath() != reflect.TypeFor[sqlite3.SQLiteConn]().PkgPath() {
		return nil
	}
	return *(*unsafe.Pointer)(unsafe.Pointer(f.UnsafeAddr()))
}

// registerFunc registers the functions through go-sqlite3's RegisterFunc:
// the fallback when connHandle finds no sqlite3*.
func registerFunc(c *sqlite3.SQLiteConn) error {
	// One result buffer per connection: SQLite runs one call at a time on
	// a connection, and each result is copied out before the next call.
	buf := new([]byte)
	for _, f := range bridge.Funcs {
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
	bridge.BeforeRow(fn.f, args)
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
