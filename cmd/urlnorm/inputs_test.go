package main

// Regression tests for issue 16's input holes, run through the built
// binary (or run() in-process where the test must act during the run).

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dupColumnParquet writes a Parquet file whose columns 1 and 3 are both
// named "link". DuckDB renames a repeated name when it writes, so the
// file is written with three distinct names of one length and the third
// is renamed in place (Parquet has no footer checksum).
func dupColumnParquet(t *testing.T) string {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p := filepath.Join(t.TempDir(), "dup.parquet")
	_, err = db.Exec(`COPY (SELECT 'https://first.example/' AS link, 7 AS id, 'https://third.example/' AS lin2) TO '` + p + `' (FORMAT parquet)`)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(data, []byte("lin2")) == 0 {
		t.Fatal("column name not found in the Parquet footer")
	}
	if err := os.WriteFile(p, bytes.ReplaceAll(data, []byte("lin2"), []byte("link")), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDuplicateColumn (issue 16 item 8): --column NAME with two columns
// of exactly that name is a usage error listing both, in every table
// format, before any output; the number still picks one.
func TestDuplicateColumn(t *testing.T) {
	csvFile := tempFile(t, "dup.csv", "link,id,link\nhttps://first.example/,7,https://third.example/\n")
	tsvFile := tempFile(t, "dup.tsv", "link\tid\tlink\nhttps://first.example/\t7\thttps://third.example/\n")
	pq := dupColumnParquet(t)
	for _, f := range []string{csvFile, tsvFile, pq} {
		r := mustRun(t, exitUsage, "", "normalize", "--column", "link", f)
		if want := `--column "link" names columns 1 ("link") and 3 ("link")`; r.stdout != "" || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: stdout %q, stderr %q; want %q", filepath.Base(f), r.stdout, r.stderr, want)
		}
		if r := mustRun(t, 0, "", "normalize", "--column", "3", f); r.stdout != "https://third.example\n" {
			t.Errorf("%s --column 3: %q", filepath.Base(f), r.stdout)
		}
	}
}
