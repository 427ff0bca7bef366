// Package duckdb registers urlnorm's SQL functions (package udf) in an
// embedded DuckDB database (github.com/duckdb/duckdb-go/v2, DuckDB 1.5.5).
//
//	db, err := duckdb.Open("")            // in-memory; or a file name, "f.db?threads=4"
//	row := db.QueryRow(`SELECT normalize_url('HTTP://Example.COM:80/a/')`)
//
// Every overload in udf.Funcs becomes a DuckDB scalar function: VARCHAR
// arguments, the result type udf declares (canonicalize_url a STRUCT of
// udf.RecordType). The adapter only converts values: udf applies the row
// contract (NULL, try_, errors, panics). The functions are deterministic
// (DuckDB's default CONSISTENT stability, not VOLATILE), so TRY() works on
// them and constant calls are folded; they run on all of DuckDB's
// threads. The one exception is urlnorm_load_profile, volatile. A
// constant profile argument is checked once per query, so a misspelt
// profile fails even over an empty table.
//
// The functions are registered through DuckDB's C API, as the loadable
// extension registers them (package internal/duckcapi, one piece of code
// for both): DuckDB calls Go once per chunk of up to 2048 rows, and the
// results are written straight into DuckDB's vectors, with no value boxed
// and no cgo call per row. That needs the connection's duckdb_connection,
// which duckdb-go (v2.10505.0, the version go.mod pins) keeps in an
// unexported field; Register reads it with reflect, by name and checked
// type. With a duckdb-go whose Conn has no such field (a version Go's
// module selection may pick in your module), Register falls back to
// duckdb-go's ScalarFunc API (driver.go): the same results and errors,
// but about 2.7 times slower for normalize_url and 9 times for
// parse_url's STRUCT (benchmarks/README.md).
//
// A function's error reaches a Go program as DuckDB's *duckdb.Error;
// FuncError recovers the function's own *udf.Error and its message.
package duckdb

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"unsafe"

	ddb "github.com/duckdb/duckdb-go/v2"
	"github.com/duckdb/duckdb-go/v2/mapping"

	"github.com/urlnorm/urlnorm/internal/duckcapi"
	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/udf"
)

// The C API path notes the errors it raises to DuckDB, as the fallback
// does, for FuncError.
func init() {
	duckcapi.OnError = func(err error) { raised.note(err) }
}

// Option configures Open and Register: WithProfiles, WithProfileFile.
type Option = udf.Option

// WithProfiles makes compiled profiles usable by name in the functions
// (process-wide, as every profile; the same profile again is a no-op).
func WithProfiles(ns ...*normalize.Normalizer) Option { return udf.WithProfiles(ns...) }

// WithProfileFile loads a profile or configuration file (a path, or JSON
// or YAML text) under name, as urlnorm_load_profile does.
func WithProfileFile(name, pathOrText string) Option { return udf.WithProfileFile(name, pathOrText) }

// Open opens a DuckDB database with every urlnorm function registered.
// dsn is duckdb-go's: "" for an in-memory database, or a file path, with
// optional settings such as "?threads=4".
func Open(dsn string, opts ...Option) (*sql.DB, error) {
	return open(dsn, true, opts...)
}

// open is Open, registering through the C API if capi (see register).
func open(dsn string, capi bool, opts ...Option) (*sql.DB, error) {
	if err := udf.ApplyOptions(opts); err != nil {
		return nil, err
	}
	c, err := ddb.NewConnector(dsn, nil)
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(c)
	conn, err := db.Conn(context.Background())
	if err == nil {
		_, err = register(conn, capi)
		conn.Close()
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Register registers every urlnorm function on the database behind conn;
// DuckDB makes them visible on all of that database's connections.
func Register(conn *sql.Conn, opts ...Option) error {
	if err := udf.ApplyOptions(opts); err != nil {
		return err
	}
	_, err := register(conn, true)
	return err
}

// register registers the functions through DuckDB's C API (package
// duckcapi: a chunk at a time, results written into DuckDB's vectors)
// when capi is set and the connection's handle can be read (connHandle),
// else through duckdb-go's ScalarFunc (registerDriver). It reports
// whether it took the C API.
func register(conn *sql.Conn, capi bool) (fast bool, err error) {
	if capi {
		err = conn.Raw(func(driverConn any) error {
			con, ok := connHandle(driverConn)
			if !ok {
				return nil
			}
			fast = true
			return duckcapi.Register(con)
		})
		if err != nil {
			return fast, fmt.Errorf("urlnorm: registering in DuckDB: %w", err)
		}
		if fast {
			return true, nil
		}
	}
	return false, registerDriver(conn)
}

// connHandle returns the duckdb_connection of a duckdb-go connection:
// duckdb-go v2.10505.0 keeps it in the unexported field Conn.conn, of
// type mapping.Connection (a struct holding the C pointer). It is read
// with reflect, by name and checked type, never at a fixed offset; any
// other shape (another duckdb-go version, another driver) returns false,
// and Register then goes through duckdb-go's ScalarFunc API.
func connHandle(driverConn any) (unsafe.Pointer, bool) {
	if c, ok := driverConn.(*ddb.Conn); !ok || c == nil {
		return nil, false
	}
	return connField(reflect.ValueOf(driverConn).Elem())
}

// connField reads the C pointer in field conn of the struct v if the
// field is a mapping.Connection.
func connField(v reflect.Value) (unsafe.Pointer, bool) {
	f := v.FieldByName("conn")
	if !f.IsValid() || f.Type() != reflect.TypeFor[mapping.Connection]() {
		return nil, false
	}
	c := (*mapping.Connection)(unsafe.Pointer(f.UnsafeAddr()))
	return c.Ptr, c.Ptr != nil
}
