package duckdb

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/slt"
	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/udf"
)

// TestSQL runs every sql/*.test file on a fresh in-memory database.
func TestSQL(t *testing.T) {
	slt.RunFiles(t, func(t *testing.T) slt.Engine {
		db, err := Open("")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return slt.DB{Engine: "duckdb", DB: db}
	})
}

// Functions registered once are visible on every connection of the
// database, including ones opened after the registering one was closed.
func TestEveryConnection(t *testing.T) {
	db, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxIdleConns(0) // each query gets a new connection
	for i := range 3 {
		var got string
		if err := db.QueryRow(`SELECT normalize_url('HTTP://A.example:80/x/')`).Scan(&got); err != nil || got != "http://a.example/x" {
			t.Fatalf("query %d: %q, %v", i, got, err)
		}
	}
}

// A file database works the same, and the functions are not stored in it:
// a plain DuckDB handle on the same file does not see them.
func TestFileDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "urls.duckdb")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t AS SELECT normalize_url('HTTPS://B.example/') AS u`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = Open(path + "?access_mode=read_only")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got string
	if err := db.QueryRow(`SELECT canonical_hash(u) = sha256(u) FROM t`).Scan(&got); err != nil || got != "true" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestOpenBadDSN(t *testing.T) {
	if db, err := Open("/nonexistent-dir/x.duckdb"); err == nil {
		db.Close()
		t.Fatal("Open of a file in a missing directory succeeded")
	}
}

// A panic in the adapter itself (here: a nil chunk) is an error, not a
// crash of the process.
func TestAdapterPanic(t *testing.T) {
	s, err := newScalar(udf.Lookup("normalize_url")[0])
	if err != nil {
		t.Fatal(err)
	}
	err = s.chunk(context.Background(), nil)
	if err == nil || !strings.HasPrefix(err.Error(), "normalize_url: internal error: ") || !strings.HasSuffix(err.Error(), "(please report this query)") {
		t.Fatalf("chunk(nil) = %v; want an internal error naming the function", err)
	}
}

func TestTypeInfo(t *testing.T) {
	db, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, typ := range []string{"UBIGINT[]", "STRUCT(a VARCHAR, b BOOLEAN)", "STRUCT(a STRUCT(x DOUBLE)[], b INTEGER)[][]", "MAP(VARCHAR, VARCHAR[])"} {
		st, err := udf.ParseSQLType(typ)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := typeInfo(st); err != nil {
			t.Errorf("typeInfo(%s): %v", typ, err)
		}
	}
	if _, err := typeInfo(&udf.SQLType{Base: "TEXT"}); err == nil {
		t.Error("typeInfo(TEXT) succeeded; DuckDB has no such type name here")
	}
	// canonicalize_url's STRUCT, as DuckDB prints it, is udf.RecordType
	var typ string
	if err := db.QueryRow(`SELECT typeof(canonicalize_url('http://a.example/'))`).Scan(&typ); err != nil {
		t.Fatal(err)
	}
	got, err := udf.ParseSQLType(typ)
	if err != nil || got.String() != udf.RecordType.String() {
		t.Errorf("typeof(canonicalize_url) = %s (%v); want %s", typ, err, udf.RecordType)
	}
}

// Go programs get the function's own error back (issue 16 item 10): the
// message udf wrote, without duckdb-go's wrapper, and the *udf.Error with
// its kind and class.
func TestFuncError(t *testing.T) {
	db, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tc := range []struct {
		q, msg, kind string
		class        error
	}{
		{"SELECT normalize_url('nope')", "normalize_url('nope'): missing_scheme (use try_normalize_url to get NULL instead)", "missing_scheme", normalize.ErrInvalid},
		{"SELECT resolve_url('http://a.example/', repeat('r', 70000))", "", "too_long", normalize.ErrLimit},
		// raised when DuckDB binds the query
		{"SELECT normalize_url(u, 'bogus') FROM (SELECT 'x' AS u)", "normalize_url(url, 'bogus'): unknown_profile: known profiles: ", "unknown_profile", normalize.ErrConfig},
	} {
		var s any
		raw := db.QueryRow(tc.q).Scan(&s)
		err := FuncError(raw)
		var fe *udf.Error
		switch {
		case !errors.As(err, &fe) || fe.Kind != tc.kind || !errors.Is(err, tc.class):
			t.Errorf("%s: FuncError(%v) = %#v; want a *udf.Error of kind %s", tc.q, raw, err, tc.kind)
		case !strings.HasPrefix(err.Error(), tc.msg) || strings.Contains(err.Error(), "Error: "):
			t.Errorf("%s: message %q; want %q", tc.q, err, tc.msg)
		}
	}
	// Not a function's error: unchanged.
	_, raw := db.Exec("SELEC 1")
	if err := FuncError(raw); err != raw || FuncError(nil) != nil {
		t.Errorf("FuncError(%v) = %v", raw, err)
	}
	// A message no longer remembered: udf's text, wrapping DuckDB's error.
	old := errors.New("Invalid Input Error: database/sql/driver: API error: normalize_url('forgotten'): missing_scheme")
	if err := FuncError(old); err.Error() != "normalize_url('forgotten'): missing_scheme" || !errors.Is(err, old) {
		t.Errorf("FuncError(forgotten) = %v", err)
	}
}

// The log of raised errors is bounded.
func TestErrorLogBounded(t *testing.T) {
	f := udf.Overload("normalize_url", 1)
	l := &errorLog{byMsg: map[string]*udf.Error{}}
	var first string
	for i := range errorLogSize + 10 {
		_, _, err := f.Text(nil, []string{fmt.Sprint("bad ", i)}, nil)
		if i == 0 {
			first = err.Error()
		}
		l.note(err)
	}
	if len(l.byMsg) != errorLogSize || len(l.order) != errorLogSize || l.find(first) != nil {
		t.Errorf("%d messages, %d in order, first kept: %v", len(l.byMsg), len(l.order), l.find(first) != nil)
	}
}
