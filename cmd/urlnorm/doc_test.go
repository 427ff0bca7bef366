package main

import (
	"database/sql"
	"flag"
	"path/filepath"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the command outputs in docs/cli.md")

// TestDocExamples runs every "$ command" of the console blocks of
// docs/cli.md, in order, in one scratch directory, and checks that the
// lines after it are what it prints. With -update-docs it rewrites them.
func TestDocExamples(t *testing.T) {
	dir := t.TempDir()
	pagesParquet(t, filepath.Join(dir, "pages.parquet"))
	d := consoleDoc{name: "docs/cli.md", dir: dir, update: *updateDocs,
		hint: "go test ./cmd/urlnorm -run TestDocExamples -update-docs"}
	d.checkFile(t, filepath.Join("..", "..", "docs", "cli.md"), 30)
}

// pagesParquet writes the Parquet file the documentation reads.
func pagesParquet(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.Exec(`COPY (SELECT * FROM (VALUES
		('HTTPS://Example.COM/Docs/../Guide/', 200),
		(NULL, 404),
		('https://example.com/blog/2024/01/post?utm_campaign=x', 200)) t(url, status))
		TO '` + path + `' (FORMAT parquet)`)
	if err != nil {
		t.Fatal(err)
	}
}
