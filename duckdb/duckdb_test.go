package duckdb

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/slt"
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
	if err == nil || !strings.HasPrefix(err.Error(), "normalize_url: internal error: ") {
		t.Fatalf("chunk(nil) = %v; want an internal error naming the function", err)
	}
}

func TestTypeInfo(t *testing.T) {
	db, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, typ := range []string{"UBIGINT[]", "STRUCT(a VARCHAR, b BOOLEAN)", "STRUCT(a STRUCT(x DOUBLE)[], b INTEGER)[][]"} {
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
