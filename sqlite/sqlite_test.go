package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/slt"
	"github.com/urlnorm/urlnorm/udf"
)

// TestSQL runs every sql/*.test file on a fresh in-memory database (one
// connection: each connection to ":memory:" is its own database).
func TestSQL(t *testing.T) {
	slt.RunFiles(t, func(t *testing.T) slt.Engine {
		db, err := Open(":memory:")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		db.SetMaxOpenConns(1)
		return slt.DB{Engine: "sqlite", DB: db}
	})
}

// Every pooled connection gets the functions (ConnectHook), including ones
// the pool opens later.
func TestEveryConnection(t *testing.T) {
	db, err := Open("file:" + filepath.Join(t.TempDir(), "urls.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	var conns []*sql.Conn
	for range 3 { // three connections open at once
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	for i, c := range conns {
		var got string
		if err := c.QueryRowContext(ctx, `SELECT normalize_url('HTTP://A.example:80/x/')`).Scan(&got); err != nil || got != "http://a.example/x" {
			t.Fatalf("connection %d: %q, %v", i, got, err)
		}
	}
}

// Registered deterministic: SQLite accepts the functions in an expression
// index and uses it.
func TestDeterministic(t *testing.T) {
	db, err := Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		`CREATE TABLE t(u TEXT)`,
		`CREATE INDEX t_norm ON t(normalize_url(u))`,
		`INSERT INTO t VALUES ('HTTP://A.example:80/x/'), ('http://b.example/')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	rows, err := db.Query(`EXPLAIN QUERY PLAN SELECT u FROM t WHERE normalize_url(u) = 'http://a.example/x'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan += detail
	}
	if !strings.Contains(plan, "USING INDEX t_norm") {
		t.Errorf("query plan %q does not use the expression index", plan)
	}
}

// A panic in the adapter itself is an error, not a crash of the process.
func TestAdapterPanic(t *testing.T) {
	fn := &function{f: udf.Lookup("normalize_url")[0]} // nil buffer pointer
	_, err := fn.call("http://a.example/")
	if err == nil || !strings.HasPrefix(err.Error(), "normalize_url: internal error: ") || !strings.HasSuffix(err.Error(), "(please report this query)") {
		t.Fatalf("call = %v; want an internal error naming the function", err)
	}
}

func TestOpenBadDSN(t *testing.T) {
	if db, err := Open("file:/nonexistent-dir/x.db?mode=ro"); err == nil {
		db.Close()
		t.Fatal("Open of a missing read-only file succeeded")
	}
}
