package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mattn/go-sqlite3"

	"github.com/urlnorm/urlnorm/internal/slt"
	"github.com/urlnorm/urlnorm/internal/sqlitecapi"
	"github.com/urlnorm/urlnorm/normalize"
)

// fallbackDriver registers the functions through go-sqlite3's RegisterFunc
// only: the path of a go-sqlite3 version whose connection has no sqlite3*
// that connHandle recognizes.
const fallbackDriver = "sqlite3_urlnorm_fallback_test"

func init() {
	sql.Register(fallbackDriver, &sqlite3.SQLiteDriver{ConnectHook: registerFunc})
}

// openPath opens an in-memory database of one connection through the C
// API (fallback false: Open) or through RegisterFunc.
func openPath(t testing.TB, fallback bool) *sql.DB {
	t.Helper()
	var db *sql.DB
	var err error
	if fallback {
		db, err = sql.Open(fallbackDriver, ":memory:")
	} else {
		db, err = Open(":memory:")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	return db
}

// paths names the two registrations for subtests.
var paths = []struct {
	name     string
	fallback bool
}{{"capi", false}, {"fallback", true}}

// SQLite's flags of a function, in pragma_function_list.
const (
	flagDeterministic = 0x800
	flagDirectOnly    = 0x80000
	flagInnocuous     = 0x200000
)

// functionFlags returns the flags of normalize_url and of
// urlnorm_load_profile as registered on db.
func functionFlags(t *testing.T, db *sql.DB) (norm, load int) {
	t.Helper()
	for name, p := range map[string]*int{"normalize_url": &norm, "urlnorm_load_profile": &load} {
		if err := db.QueryRow(`SELECT flags FROM pragma_function_list WHERE name = ? LIMIT 1`, name).Scan(p); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return norm, load
}

// With the go-sqlite3 version go.mod pins, Register takes the C API path:
// connHandle finds the sqlite3*, and the functions carry the flags only
// that path can set (RegisterFunc cannot set SQLITE_INNOCUOUS or
// SQLITE_DIRECTONLY). A go-sqlite3 upgrade that loses the path fails here.
func TestFastPath(t *testing.T) {
	db := openPath(t, false)
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	err = conn.Raw(func(dc any) error {
		if connHandle(dc.(*sqlite3.SQLiteConn)) == nil {
			return errors.New("connHandle found no sqlite3* in go-sqlite3's SQLiteConn")
		}
		return nil
	})
	conn.Close() // the database's one connection
	if err != nil {
		t.Fatal(err)
	}
	norm, load := functionFlags(t, db)
	if want := flagDeterministic | flagInnocuous; norm&(want|flagDirectOnly) != want {
		t.Errorf("normalize_url flags %#x; want deterministic and innocuous (%#x)", norm, want)
	}
	if load&(flagDeterministic|flagInnocuous|flagDirectOnly) != flagDirectOnly {
		t.Errorf("urlnorm_load_profile flags %#x; want direct-only (%#x) alone", load, flagDirectOnly)
	}
	// The fallback really is the other path.
	norm, load = functionFlags(t, openPath(t, true))
	if norm&(flagDeterministic|flagInnocuous) != flagDeterministic || load&(flagDeterministic|flagDirectOnly) != 0 {
		t.Errorf("fallback flags %#x, %#x; want deterministic only, then none", norm, load)
	}
}

// connHandle reads only a field it recognizes: a struct without "db", or
// with a "db" of another type (even one named like cgo's but of another
// package), gives nil, so Register falls back to RegisterFunc.
func TestConnHandleUnknown(t *testing.T) {
	type _Ctype_struct_sqlite3 struct{}
	x := 7
	for _, v := range []any{
		&struct{ DB *int }{},     // no field db
		&struct{ db uintptr }{1}, // not a pointer
		&struct{ db *int }{&x},   // a pointer to another type
		&struct{ db *_Ctype_struct_sqlite3 }{&_Ctype_struct_sqlite3{}}, // cgo's name, another package
	} {
		if p := handleOf(reflect.ValueOf(v)); p != nil {
			t.Errorf("handleOf(%T) = %p; want nil", v, p)
		}
	}
	var c sqlite3.SQLiteConn // the pinned type, not open: a nil handle
	if p := connHandle(&c); p != nil {
		t.Errorf("connHandle of a closed connection = %p; want nil", p)
	}
}

// Every sql/*.test fixture passes through the fallback too.
func TestSQLFallback(t *testing.T) {
	slt.RunFiles(t, func(t *testing.T) slt.Engine {
		return slt.DB{Engine: "sqlite", DB: openPath(t, true)}
	})
}

// The C API path and the fallback give the same values and the same error
// messages, byte for byte, for every statement of the fixtures (run in
// order on one database each, so a file's tables and profiles exist).
func TestPathsAgree(t *testing.T) {
	files, err := slt.Files()
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	n := 0
	for _, file := range files {
		recs, err := slt.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		capi, fallback := slt.DB{Engine: "sqlite", DB: openPath(t, false)}, slt.DB{Engine: "sqlite", DB: openPath(t, true)}
		for _, r := range recs {
			got, want := runRecord(capi, r.SQL), runRecord(fallback, r.SQL)
			if got != want {
				t.Errorf("%s: %s\nC API:    %s\nfallback: %s", r.Line, r.SQL, got, want)
			}
			n++
		}
	}
	t.Logf("%d statements agree", n)
}

// runRecord renders a statement's rows, or its error.
func runRecord(db slt.DB, q string) string {
	rows, err := db.Query(q)
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprint(rows)
}

// Values as SQLite hands them to a function, through both paths: NULL,
// numbers (raising), BLOBs (their bytes), and the result types.
func TestValues(t *testing.T) {
	for _, c := range []struct {
		sql, want string
	}{
		// NULL in, NULL out; an unknown profile still raises.
		{`SELECT normalize_url(NULL), normalize_url(NULL, 'rfc3986'), typeof(url_host(NULL))`, `[[NULL NULL null]]`},
		{`SELECT normalize_url(NULL, 'nope')`, `error: normalize_url(url, 'nope'): unknown_profile: known profiles: `},
		// Arguments are text: a number raises, naming its type and value.
		{`SELECT normalize_url(42)`, `error: normalize_url: argument url must be TEXT, got INTEGER (42)`},
		{`SELECT normalize_url(4.5)`, `error: normalize_url: argument url must be TEXT, got REAL (4.5)`},
		{`SELECT normalize_url('http://a.example/', 7)`, `error: normalize_url: argument profile must be TEXT, got INTEGER (7)`},
		// A BLOB is read as its bytes; an empty one is the empty string.
		{`SELECT normalize_url(CAST('HTTP://A.example:80/x/' AS BLOB)), typeof(normalize_url(CAST('http://a.example/' AS BLOB)))`, `[[http://a.example/x text]]`},
		{`SELECT try_normalize_url(x''), is_valid_url(x'')`, `[[NULL 0]]`},
		// Text with a NUL byte is read whole (the NUL is not a terminator).
		{`SELECT normalize_url('http://a.example/' || char(0) || 'x')`, `[[http://a.example/%00x]]`},
		// Results: text, JSON text for a composite, integers for BOOLEAN and INTEGER.
		{`SELECT typeof(is_valid_url('http://a.example/')), is_valid_url('http://a.example/'), is_valid_url('nope')`, `[[integer 1 0]]`},
		{`SELECT typeof(url_port('http://a.example:8080/')), url_port('http://a.example:8080/')`, `[[integer 8080]]`},
		{`SELECT url_path_segments('http://a.example/a/b')`, `[[["a","b"]]]`},
		{`SELECT canonicalize_url('http://a.example/x/') ->> '$.url'`, `[[http://a.example/x]]`},
		{`SELECT url_query('http://a.example/?')`, `[[(empty)]]`},
	} {
		for _, p := range paths {
			if got := runRecord(slt.DB{Engine: "sqlite", DB: openPath(t, p.fallback)}, c.sql); !strings.HasPrefix(got, c.want) {
				t.Errorf("%s: %s = %s; want %s", p.name, c.sql, got, c.want)
			}
		}
	}
}

// A text result reaches SQLite from the C side's buffer when it fits
// (sqlitecapi.RowBuf bytes) and from Go memory when it does not: results
// of every length around the boundary, empty ones, NULLs and integers
// between them, are the same through both paths and Go's.
func TestResultBuffer(t *testing.T) {
	n := normalize.MustLookup("default")
	var urls []any
	for l := sqlitecapi.RowBuf - 3; l <= sqlitecapi.RowBuf+3; l++ {
		urls = append(urls, "http://a.example/"+strings.Repeat("p", l-len("http://a.example/")))
	}
	urls = append(urls, "http://a.example/"+strings.Repeat("é", 3*sqlitecapi.RowBuf), nil, "http://a.example/x", "nope")
	for _, p := range paths {
		db := openPath(t, p.fallback)
		for i, u := range urls {
			var got sql.NullString
			var port sql.NullInt64
			if err := db.QueryRow(`SELECT try_normalize_url(?), url_port(?)`, u, u).Scan(&got, &port); err != nil && u != "nope" {
				t.Fatalf("%s: row %d: %v", p.name, i, err)
			}
			want, err := "", error(nil)
			if s, ok := u.(string); ok {
				want, err = n.Normalize(s)
			}
			if got.Valid != (u != nil && err == nil) || got.String != want {
				t.Errorf("%s: row %d: %d bytes (valid %v), want %d", p.name, i, len(got.String), got.Valid, len(want))
			}
		}
		var empty sql.NullString
		if err := db.QueryRow(`SELECT url_query('http://a.example/?')`).Scan(&empty); err != nil || !empty.Valid || empty.String != "" {
			t.Errorf("%s: the empty query: %v, %v", p.name, empty, err)
		}
	}
}

// A result over the connection's SQLITE_LIMIT_LENGTH raises SQLITE_TOOBIG
// in both paths; the C API path's message names the function, as the
// extension's does. The connection goes on working.
func TestLengthLimit(t *testing.T) {
	// A 77-byte URL whose canonical form, percent-encoded, has 197 bytes.
	url := "http://a.example/" + strings.Repeat("é", 30)
	for _, p := range paths {
		db := openPath(t, p.fallback)
		conn, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if err := conn.Raw(func(dc any) error {
			dc.(*sqlite3.SQLiteConn).SetLimit(sqlite3.SQLITE_LIMIT_LENGTH, 100)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var got string
		err = conn.QueryRowContext(context.Background(), `SELECT normalize_url(?)`, url).Scan(&got)
		var se sqlite3.Error
		if !errors.As(err, &se) || se.Code != sqlite3.ErrTooBig {
			t.Errorf("%s: %d-byte result over a limit of 100: %q, %v; want SQLITE_TOOBIG", p.name, len(url), got, err)
		}
		want := "string or blob too big"
		if !p.fallback {
			want = "normalize_url: result too big: 197 bytes, over SQLite's length limit of 100 (SQLITE_LIMIT_LENGTH)"
		}
		if err == nil || err.Error() != want {
			t.Errorf("%s: error %v; want %q", p.name, err, want)
		}
		if err := conn.QueryRowContext(context.Background(), `SELECT normalize_url('HTTP://A.example/x')`).Scan(&got); err != nil || got != "http://a.example/x" {
			t.Errorf("%s: after the error: %q, %v", p.name, got, err)
		}
		conn.Close()
	}
}

// Goroutines query one file database on their own connections, through
// each path at once (run with -race).
func TestConcurrentPaths(t *testing.T) {
	file := filepath.Join(t.TempDir(), "urls.db")
	capi, err := Open("file:" + file)
	if err != nil {
		t.Fatal(err)
	}
	defer capi.Close()
	fallback, err := sql.Open(fallbackDriver, "file:"+file)
	if err != nil {
		t.Fatal(err)
	}
	defer fallback.Close()
	if _, err := capi.Exec(`CREATE TABLE t AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM n WHERE i < 999)
		SELECT 'HTTP://H' || (i % 37) || '.Example:80/a/../p' || i || '?z=1&a=' || i AS u FROM n`); err != nil {
		t.Fatal(err)
	}
	const q = `SELECT group_concat(normalize_url(u), ' ') || count(try_normalize_url(u || ' x')) FROM t`
	var want string
	if err := capi.QueryRow(q).Scan(&want); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for g := range 8 {
		db := capi
		if g%2 == 1 {
			db = fallback
		}
		go func() {
			var got string
			err := db.QueryRow(q).Scan(&got)
			if err == nil && got != want {
				err = fmt.Errorf("goroutine %d: %d bytes differ from the first run's %d", g, len(got), len(want))
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
