// Package duckdb registers urlnorm's SQL functions (package udf) in an
// embedded DuckDB database (github.com/duckdb/duckdb-go/v2, DuckDB 1.5.5).
//
//	db, err := duckdb.Open("")            // in-memory; or a file name, "f.db?threads=4"
//	row := db.QueryRow(`SELECT normalize_url('HTTP://Example.COM:80/a/')`)
//
// Every overload in udf.Funcs becomes a DuckDB scalar function: VARCHAR
// arguments, VARCHAR results, canonicalize_url a STRUCT with udf.Fields. The
// functions are deterministic (DuckDB's default CONSISTENT stability, not
// VOLATILE), so TRY() works on them and constant calls are folded; they run
// on all of DuckDB's threads. NULL in gives NULL out (DuckDB's default NULL
// handling: the function is not called). A constant profile argument is
// checked once per query, so a misspelt profile fails even over an empty
// table.
package duckdb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"

	ddb "github.com/duckdb/duckdb-go/v2"

	"github.com/urlnorm/urlnorm/udf"
)

// Open opens a DuckDB database with every urlnorm function registered.
// dsn is duckdb-go's: "" for an in-memory database, or a file path, with
// optional settings such as "?threads=4".
func Open(dsn string) (*sql.DB, error) {
	c, err := ddb.NewConnector(dsn, nil)
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(c)
	conn, err := db.Conn(context.Background())
	if err == nil {
		err = Register(conn)
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
func Register(conn *sql.Conn) error {
	for _, name := range udf.Names() {
		var set []ddb.ScalarFunc
		for _, f := range udf.Lookup(name) {
			s, err := newScalar(f)
			if err != nil {
				return err
			}
			set = append(set, s)
		}
		if err := ddb.RegisterScalarUDFSet(conn, name, set...); err != nil {
			return fmt.Errorf("urlnorm: registering %s in DuckDB: %w", name, err)
		}
	}
	return nil
}

// scalar is one udf overload as a DuckDB scalar function.
type scalar struct {
	f   *udf.Func
	cfg ddb.ScalarFuncConfig
}

func newScalar(f *udf.Func) (*scalar, error) {
	varchar, err := ddb.NewTypeInfo(ddb.TYPE_VARCHAR)
	if err != nil {
		return nil, err
	}
	s := &scalar{f: f, cfg: ddb.ScalarFuncConfig{ResultTypeInfo: varchar, SpecialNullHandling: true}}
	for range f.Args {
		s.cfg.InputTypeInfos = append(s.cfg.InputTypeInfos, varchar)
	}
	if f.Returns == udf.Canonical {
		if s.cfg.ResultTypeInfo, err = typeInfo(udf.RecordType); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *scalar) Config() ddb.ScalarFuncConfig { return s.cfg }

// Executor runs the function a chunk (up to 2048 rows) at a time.
//
// Measured (BenchmarkSQL/BenchmarkGo, 1M generated URLs, DuckDB threads=1,
// CPU time per row on the shared 2-core machine, best of 3):
//
//	SELECT count(DISTINCT url)                 ~100 ns/row
//	Go loop of AppendNormalized, same rows     ~405 ns/row
//	normalize_url, ChunkContextExecutor         843 ns/row, 3.0 allocs/row
//	normalize_url, RowExecutor                  893 ns/row, 5.0 allocs/row
//
// The chunk executor reuses its argument slices and result buffer for the
// whole chunk; the row executor is called from several DuckDB threads at
// once, so it would need fresh ones per row. The remaining 3 allocations
// per row are the driver's (the input string, its interface box, the
// result's box), as is most of the ~340 ns/row left: one cgo call per
// value read and per result set. canonicalize_url costs ~5 µs/row (27
// allocs): its STRUCT goes through the driver's reflective setters, which
// take about half of that (a profile: setStruct 38%, of which resizing the
// two LIST children 17%).
func (s *scalar) Executor() ddb.ScalarFuncExecutor {
	return ddb.ScalarFuncExecutor{ChunkContextExecutor: s.chunk, ScalarBinder: s.bind}
}

// bind checks a constant profile argument once per query.
func (s *scalar) bind(ctx context.Context, args []ddb.ScalarUDFArg) (context.Context, error) {
	if len(args) == 2 && args[1].Foldable {
		if name, ok := args[1].Value.(string); ok {
			return ctx, s.f.CheckProfile(name)
		}
	}
	return ctx, nil
}

// chunk runs the function over one chunk of rows (up to 2048). The
// argument slices and the result buffer live for the chunk: DuckDB copies
// each result when it is set, so rows reuse them.
func (s *scalar) chunk(_ context.Context, st *ddb.ChunkIteratorState) (err error) {
	defer s.recover(&err)
	vals := make([]driver.Value, st.ColumnCount())
	args := make([]string, len(vals))
	var buf []byte
	for row, err := range st.Rows() {
		if err != nil {
			return err
		}
		for i := range vals {
			vals[i] = *row.GetValuePtr(i)
		}
		res, err := s.eval(vals, args, buf[:0])
		if err != nil {
			return err
		}
		if b, ok := res.([]byte); ok {
			buf = b
		}
		if err := row.SetResult(res); err != nil {
			return err
		}
	}
	return nil
}

// eval computes one row. A NULL argument gives NULL, but an unknown profile
// raises even then (udf.CheckProfile): the functions are registered with
// SpecialNullHandling for that reason.
func (s *scalar) eval(vals []driver.Value, args []string, dst []byte) (any, error) {
	null := false
	for i, v := range vals {
		switch v := v.(type) {
		case string:
			args[i] = v
		case nil:
			null = true
		default:
			return nil, fmt.Errorf("%s: argument %s is %T, want VARCHAR", s.f.Name, s.f.Args[i], v)
		}
	}
	if null {
		if len(vals) == 2 && vals[1] != nil {
			return nil, s.f.CheckProfile(args[1])
		}
		return nil, nil
	}
	return s.call(dst, args)
}

// call runs the function on non-NULL arguments; the result is nil (NULL),
// a []byte appended to dst, or canonicalize_url's record.
func (s *scalar) call(dst []byte, args []string) (any, error) {
	if s.f.Returns == udf.Canonical {
		res, null, err := s.f.CallCanonical(args)
		if err != nil || null {
			return nil, err
		}
		return udf.Record(res), nil
	}
	out, null, err := s.f.CallText(dst, args)
	if err != nil || null {
		return nil, err
	}
	return out, nil
}

// recover turns a panic in the adapter or the driver's value conversion
// into an SQL error: a panic in a DuckDB callback would kill the process.
func (s *scalar) recover(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: internal error: %v (please report this input)", s.f.Name, r)
	}
}
