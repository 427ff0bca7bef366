package duckdb

import (
	"context"
	"database/sql"
	"fmt"

	ddb "github.com/duckdb/duckdb-go/v2"

	"github.com/urlnorm/urlnorm/internal/bridge"
	"github.com/urlnorm/urlnorm/internal/duckcapi"
	"github.com/urlnorm/urlnorm/udf"
)

// The fallback: the functions through duckdb-go's ScalarFunc API, for a
// duckdb-go whose connection handle Register cannot read (see the package
// doc).

// registerDriver registers every function through duckdb-go's ScalarFunc
// API: one cgo call per value read and per result set, each result boxed.
func registerDriver(conn *sql.Conn) error {
	for _, set := range duckcapi.Sets() {
		var fs []ddb.ScalarFunc
		for _, i := range set.Funcs {
			s, err := newScalar(bridge.Funcs[i])
			if err != nil {
				return err
			}
			fs = append(fs, s)
		}
		if err := ddb.RegisterScalarUDFSet(conn, set.Name, fs...); err != nil {
			return fmt.Errorf("urlnorm: registering %s in DuckDB: %w", set.Name, err)
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
	ret, err := typeInfo(f.Returns)
	if err != nil {
		return nil, fmt.Errorf("urlnorm: %s: %w", f.Name, err)
	}
	// DuckDB skips rows with a NULL argument unless told otherwise; udf
	// decides them when it may raise there (an unknown profile).
	// A volatile function (urlnorm_load_profile) is never folded or
	// cached: it runs when its statement does.
	s := &scalar{f: f, cfg: ddb.ScalarFuncConfig{ResultTypeInfo: ret, SpecialNullHandling: f.RaisesOnNull(), Volatile: f.Volatile}}
	for range f.Args {
		s.cfg.InputTypeInfos = append(s.cfg.InputTypeInfos, varchar)
	}
	return s, nil
}

func (s *scalar) Config() ddb.ScalarFuncConfig { return s.cfg }

// Executor runs the function a chunk (up to 2048 rows) at a time.
//
// Measured when this was the only path (before the C API's, see
// benchmarks/README.md for that) (BenchmarkSQL/BenchmarkGo, 1M generated URLs, DuckDB threads=1,
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
// value read and per result set. canonicalize_url costs ~5.0 µs/row (24
// allocs) and parse_url ~2.6 µs/row (24 allocs; BenchmarkSQL, CPU time):
// their STRUCTs go through the driver's setters, which take about half of
// that (a profile of parse_url: setStruct 38 %, most of it one cgo call
// and one []byte copy per string member). The top-level STRUCT's map is
// reused from row to row (rowValue); each member is still boxed.
func (s *scalar) Executor() ddb.ScalarFuncExecutor {
	return ddb.ScalarFuncExecutor{ChunkContextExecutor: s.chunk, ScalarBinder: s.bind}
}

// bind checks the constant arguments once per query (udf.Func.CheckArg:
// an unknown profile), so that the query fails before any row is read.
func (s *scalar) bind(ctx context.Context, args []ddb.ScalarUDFArg) (context.Context, error) {
	for i, a := range args {
		if v, ok := a.Value.(string); ok && a.Foldable && i < len(s.f.Args) {
			if err := s.f.CheckArg(i, v); err != nil {
				return ctx, raised.note(err)
			}
		}
	}
	return ctx, nil
}

// chunk runs the function over one chunk of rows (up to 2048). The
// argument slices and the result buffer live for the chunk: DuckDB copies
// each result when it is set, so rows reuse them.
func (s *scalar) chunk(_ context.Context, st *ddb.ChunkIteratorState) (err error) {
	defer func() {
		// A panic in the adapter or the driver's value conversion: a panic
		// in a DuckDB callback would kill the process.
		if r := recover(); r != nil {
			err = udf.PanicError(s.f.Name, r)
		}
		raised.note(err) // for FuncError
	}()
	args := make([]string, st.ColumnCount())
	nulls := make([]bool, len(args))
	var buf []byte
	var conv rowValue
	for row, err := range st.Rows() {
		if err != nil {
			return err
		}
		for i := range args {
			switch v := (*row.GetValuePtr(i)).(type) {
			case string:
				args[i], nulls[i] = v, false
			case nil:
				args[i], nulls[i] = "", true
			default: // DuckDB casts to VARCHAR when it binds: not reached
				return s.f.ArgTypeError(i, fmt.Sprintf("%T", v), v)
			}
		}
		var res any
		if s.f.Returns.Base == "VARCHAR" {
			var null bool
			buf, null, err = s.f.Text(buf[:0], args, nulls)
			if !null {
				res = buf
			}
		} else {
			var v any
			if v, err = s.f.Value(args, nulls); err == nil {
				res, err = conv.value(s.f.Returns, v)
			}
		}
		if err != nil {
			return err
		}
		if err := row.SetResult(res); err != nil {
			return err
		}
	}
	return nil
}
