package main

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/urlnorm/urlnorm/duckdb"
	"github.com/urlnorm/urlnorm/internal/golden"
)

// TestNormalizeMatchesDuckDB: for every golden row of every profile
// (testdata/golden, the one source of truth), the row `urlnorm normalize`
// writes is what normalize_url returns in DuckDB — the canonical URL, or,
// where normalize_url raises, the error kind that DuckDB's error names —
// and both are the golden file's. The inputs go to the CLI as a Parquet
// file written by that same DuckDB, so both sides see the same bytes.
// DuckDB cannot hold invalid UTF-8 as text; those rows are counted and
// left to the library's and the CLI's own tests.
func TestNormalizeMatchesDuckDB(t *testing.T) {
	db, err := duckdb.Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	profiles, err := golden.Profiles()
	if err != nil || len(profiles) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	compared, skipped := 0, 0
	for _, p := range profiles {
		rows, err := golden.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := db.Exec(q, args...); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		exec("CREATE OR REPLACE TABLE g (id INTEGER, input VARCHAR)")
		var held []golden.Row
		for _, r := range rows {
			if !utf8.ValidString(r.Input) {
				skipped++
				continue
			}
			exec("INSERT INTO g VALUES (?, ?)", len(held), r.Input)
			held = append(held, r)
		}
		pq := filepath.Join(t.TempDir(), p+".parquet")
		exec(fmt.Sprintf("COPY (SELECT input FROM g ORDER BY id) TO '%s' (FORMAT parquet)", pq))

		recs := parseRows(t, "tsv", mustRun(t, 0, "", "normalize", "--profile", p, "--format", "tsv", "-q", pq).stdout)[1:]
		if len(recs) != len(held) {
			t.Fatalf("%s: %d rows out for %d golden inputs", p, len(recs), len(held))
		}
		// DuckDB's values in one query (its vector path), NULL where it raises
		vals := make([]sql.NullString, len(held))
		duck, err := db.Query("SELECT id, try_normalize_url(input, ?) FROM g ORDER BY id", p)
		if err != nil {
			t.Fatal(err)
		}
		for duck.Next() {
			var id int
			var v sql.NullString
			if err := duck.Scan(&id, &v); err != nil {
				t.Fatal(err)
			}
			vals[id] = v
		}
		if err := duck.Close(); err != nil {
			t.Fatal(err)
		}
		for id, r := range held {
			cliURL, cliKind := recs[id][1], recs[id][2]
			compared++
			// the CLI row against the golden file
			if cliURL != r.Want || cliKind != r.WantErr {
				t.Errorf("%s [%s] urlnorm normalize --profile %s %q = %q %q; golden %q %q", r, r.Comment, p, r.Input, cliURL, cliKind, r.Want, r.WantErr)
			}
			// the CLI row against DuckDB
			if vals[id].Valid {
				if cliKind != "" || cliURL != vals[id].String {
					t.Errorf("%s normalize_url(%q, '%s') = %q in DuckDB; urlnorm normalize wrote %q %q", r, r.Input, p, vals[id].String, cliURL, cliKind)
				}
				continue
			}
			var v sql.NullString
			err := db.QueryRow("SELECT normalize_url(?, ?)", r.Input, p).Scan(&v)
			if err == nil || cliKind == "" || !strings.Contains(err.Error(), "): "+cliKind) {
				t.Errorf("%s normalize_url(%q, '%s') in DuckDB: %v; urlnorm normalize wrote error kind %q", r, r.Input, p, err, cliKind)
			}
		}
	}
	if compared < 300 {
		t.Errorf("only %d golden rows compared", compared)
	}
	t.Logf("%d profiles: %d golden rows compared with DuckDB, %d with invalid UTF-8 left out (DuckDB cannot hold them)", len(profiles), compared, skipped)
}
