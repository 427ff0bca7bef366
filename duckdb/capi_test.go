package duckdb

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	ddb "github.com/duckdb/duckdb-go/v2"
	"github.com/duckdb/duckdb-go/v2/mapping"

	"github.com/urlnorm/urlnorm/internal/slt"
	"github.com/urlnorm/urlnorm/udf"
)

// openPath opens an in-memory database registered through the C API
// (capi) or through duckdb-go's ScalarFunc API.
func openPath(t testing.TB, dsn string, capi bool) *sql.DB {
	t.Helper()
	db, err := open(dsn, capi)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// With the pinned duckdb-go (go.mod), Register takes the C API: an
// upgrade whose Conn no longer has the field connHandle reads fails here,
// not silently in the benchmarks.
func TestFastPath(t *testing.T) {
	db := openPath(t, "", false)
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fast, err := register(conn, true)
	if err != nil || !fast {
		t.Fatalf("register = %v, %v; want the C API path", fast, err)
	}
	// Open takes it too: a function's error is DuckDB's own, without
	// duckdb-go's "database/sql/driver: API error: " between.
	var s string
	err = openPath(t, "", true).QueryRow(`SELECT normalize_url('nope')`).Scan(&s)
	if err == nil || !strings.HasPrefix(err.Error(), "Invalid Input Error: normalize_url('nope'): missing_scheme") {
		t.Fatalf("error %v; want the C API's", err)
	}
}

// connHandle accepts only duckdb-go's Conn with a field conn of type
// mapping.Connection; anything else gets the fallback.
func TestConnHandleOtherShapes(t *testing.T) {
	type Conn struct{ conn uintptr } // same names, another type
	for _, c := range []any{nil, 42, (*ddb.Conn)(nil), &Conn{conn: 1}, &struct{ conn string }{}} {
		if p, ok := connHandle(c); ok || p != nil {
			t.Errorf("connHandle(%T) = %v, %v; want the fallback", c, p, ok)
		}
	}
	// The field's type decides: a Conn of a duckdb-go version whose field
	// conn has another type (or no field conn) is refused.
	x := 1
	for _, v := range []any{&Conn{conn: 1}, &struct{ conn *mapping.Connection }{}, &struct{ Conn mapping.Connection }{mapping.Connection{Ptr: unsafe.Pointer(&x)}}} {
		if p, ok := connField(reflect.ValueOf(v).Elem()); ok || p != nil {
			t.Errorf("connField(%T) = %v, %v; want the fallback", v, p, ok)
		}
	}
	if p, ok := connField(reflect.ValueOf(&struct{ conn mapping.Connection }{mapping.Connection{Ptr: unsafe.Pointer(&x)}}).Elem()); !ok || p != unsafe.Pointer(&x) {
		t.Errorf("connField(mapping.Connection) = %v, %v; want its pointer", p, ok)
	}
}

// TestSQLFallback runs every sql/*.test file through the fallback.
func TestSQLFallback(t *testing.T) {
	slt.RunFiles(t, func(t *testing.T) slt.Engine {
		return slt.DB{Engine: "duckdb", DB: openPath(t, "", false)}
	})
}

// The C API and the fallback give identical results and identical errors
// (after FuncError) on every statement and query of the fixtures.
func TestPathsAgreeOnFixtures(t *testing.T) {
	files, err := slt.Files()
	if err != nil {
		t.Fatal(err)
	}
	var tw twin
	for _, file := range files {
		recs, err := slt.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		tw.db = [2]slt.DB{{Engine: "duckdb", DB: openPath(t, "", true)}, {Engine: "duckdb", DB: openPath(t, "", false)}}
		tw.unordered = map[string]bool{}
		for _, r := range recs {
			if r.Query && r.Sort != "nosort" {
				tw.unordered[r.SQL] = true
			}
		}
		for _, f := range slt.Run(recs, &tw) {
			t.Error(f)
		}
		tw.db[0].DB.Close()
		tw.db[1].DB.Close()
	}
	if tw.n < 100 || tw.errors < 10 {
		t.Fatalf("%d records, %d of them errors: the fixtures should have more of both", tw.n, tw.errors)
	}
	t.Logf("%d records, %d errors, identical on both paths", tw.n, tw.errors)
}

// twin is an slt.Engine that runs each statement on the C API's database
// and the fallback's and fails the record when they differ.
type twin struct {
	db        [2]slt.DB
	n, errors int
	// unordered are the queries whose fixture sorts the result (rowsort,
	// valuesort): DuckDB's threads may return their rows in another order
	// on each run, so both paths' rows are compared sorted.
	unordered map[string]bool
}

func (tw *twin) Name() string { return "duckdb" }

func (tw *twin) Exec(q string) error {
	_, err := tw.Query(q)
	return err
}

func (tw *twin) Query(q string) ([][]string, error) {
	var rows [2][][]string
	var errs [2]error
	for i, db := range tw.db {
		rows[i], errs[i] = db.Query(q)
	}
	tw.n++
	if errs[0] != nil {
		tw.errors++
	}
	msg := func(err error) string {
		if err == nil {
			return "no error"
		}
		return FuncError(err).Error()
	}
	if got, want := msg(errs[0]), msg(errs[1]); got != want {
		return nil, fmt.Errorf("errors differ: C API %q, fallback %q", got, want)
	}
	if tw.unordered[q] {
		for _, r := range rows {
			slices.SortFunc(r, func(a, b []string) int { return slices.Compare(a, b) })
		}
	}
	if got, want := fmt.Sprint(rows[0]), fmt.Sprint(rows[1]); got != want {
		return nil, fmt.Errorf("results differ: C API %s, fallback %s", got, want)
	}
	return rows[0], errs[0]
}

// shapesSQL is a table t(id, url) of n rows (more than one chunk of
// 2048): a NULL every 7th row, short results (≤ 12 bytes, stored inline
// by DuckDB) and long ones, valid and invalid URLs, LIST, STRUCT and MAP
// results with empty and NULL members.
func shapesSQL(n int) string {
	return fmt.Sprintf(`CREATE TABLE t AS SELECT i AS id, CASE
  WHEN i %% 7 = 0 THEN NULL
  WHEN i %% 7 = 1 THEN 'http://a.b'
  WHEN i %% 7 = 2 THEN 'HTTP://Host' || i || '.Example.COM:80/a/./b/../p' || repeat('x', i %% 40) || '?z=' || i || '&a=1&a=2#f'
  WHEN i %% 7 = 3 THEN 'not a url ' || i
  WHEN i %% 7 = 4 THEN 'https://[::1]:8443/' || i
  WHEN i %% 7 = 5 THEN 'mailto:x' || i || '@example.com'
  ELSE 'https://sub.example.co.uk/a/b/c' || i || '.html?q=' || i || '&q=&r'
END AS url FROM range(%d) r(i)`, n)
}

// Every result type over several chunks, NULLs, inline and heap strings:
// the C API writes what the fallback writes, row for row, and the VARCHAR
// results are udf's.
func TestPathsAgreeOnShapes(t *testing.T) {
	const n = 5000
	exprs := []string{
		"try_normalize_url(url)",
		"try_canonical_hash(url)",
		"try_url_host(url)",
		"try_url_port(url)",
		"is_valid_url(url)",
		"try_url_path_segments(url)",
		"try_url_query_params(url)",
		"try_parse_url(url)",
		"try_canonicalize_url(url)",
	}
	var res [2][]string
	for i, capi := range []bool{true, false} {
		db := openPath(t, "?threads=2", capi)
		exec(t, db, shapesSQL(n))
		rows, err := slt.DB{Engine: "duckdb", DB: db}.Query("SELECT id, url, " + strings.Join(exprs, ", ") + " FROM t ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			res[i] = append(res[i], strings.Join(r, " | "))
		}
	}
	if len(res[0]) != n || len(res[1]) != n {
		t.Fatalf("%d and %d rows; want %d", len(res[0]), len(res[1]), n)
	}
	norm := udf.Overload("try_normalize_url", 1)
	short, long, nulls := 0, 0, 0
	for i := range res[0] {
		if res[0][i] != res[1][i] {
			t.Fatalf("row %d:\nC API:    %s\nfallback: %s", i, res[0][i], res[1][i])
		}
		f := strings.Split(res[0][i], " | ")
		if f[1] == "NULL" {
			nulls++
			continue
		}
		want, null, err := norm.Text(nil, []string{f[1]}, nil)
		if err != nil || (null && f[2] != "NULL") || (!null && f[2] != string(want)) {
			t.Fatalf("row %d: normalize_url(%q) = %s; udf gives %q (null %v, %v)", i, f[1], f[2], want, null, err)
		}
		if !null && len(want) <= 12 {
			short++
		} else if !null {
			long++
		}
	}
	if nulls == 0 || short == 0 || long == 0 {
		t.Fatalf("%d NULL, %d short, %d long results: want some of each", nulls, short, long)
	}
}

// A constant unknown profile fails when DuckDB binds the query, on both
// paths, even over an empty table.
func TestBindCheck(t *testing.T) {
	for _, capi := range []bool{true, false} {
		db := openPath(t, "", capi)
		exec(t, db, "CREATE TABLE e(u VARCHAR)")
		for _, q := range []string{
			"SELECT normalize_url(u, 'bogus') FROM e",
			"SELECT try_normalize_url(u, 'bog' || 'us') FROM e",
		} {
			_, err := db.Exec(q)
			var fe *udf.Error
			if err == nil || !strings.HasPrefix(err.Error(), "Binder Error: ") || !asUDF(FuncError(err), &fe) || fe.Kind != "unknown_profile" {
				t.Errorf("capi=%v: %s: %v; want a Binder Error of kind unknown_profile", capi, q, err)
			}
		}
		// A profile argument that is not constant is checked on the rows.
		if _, err := db.Exec("SELECT normalize_url(u, u) FROM e"); err != nil {
			t.Errorf("capi=%v: a column profile over an empty table: %v", capi, err)
		}
		// A constant that fails to fold fails the query with DuckDB's own
		// error, as duckdb-go's binder reports it.
		_, err := db.Exec("SELECT normalize_url(u, CAST(CAST('x' AS INTEGER) AS VARCHAR)) FROM e")
		if err == nil || !strings.Contains(err.Error(), `Could not convert string 'x' to INT32`) {
			t.Errorf("capi=%v: a constant that fails to fold: %v", capi, err)
		}
	}
}

func asUDF(err error, fe **udf.Error) bool {
	e, ok := err.(*udf.Error)
	*fe = e
	return ok
}
