package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/benchmarks/internal/sqlbench"
)

func TestParseSizes(t *testing.T) {
	got, err := parseSizes("1000000, 200")
	if err != nil || len(got) != 2 || got[0] != 1_000_000 || got[1] != 200 {
		t.Fatalf("parseSizes = %v, %v", got, err)
	}
	for _, bad := range []string{"", "0", "1e6", "10,-1"} {
		if _, err := parseSizes(bad); err == nil {
			t.Errorf("parseSizes(%q) accepted", bad)
		}
	}
}

// Without built extensions every selected path is reported missing in
// sql.md and sql.json, and the data files are still written.
func TestRunReportsMissingPaths(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.txt")
	if err := os.WriteFile(base, []byte("https://example.com/a\n\"http://rejected\nhttp://b.example/x?y=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := options{samples: 1, rows: "10", base: base, out: filepath.Join(dir, "out"), ext: filepath.Join(dir, "noext"), paths: "extension"}
	if err := run(context.Background(), o, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(o.out, "sql.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(md), "Not measured:"); n != 2 {
		t.Errorf("%d paths reported missing, want the 2 extension paths:\n%s", n, md)
	}
	var r sqlbench.Run
	b, _ := os.ReadFile(filepath.Join(o.out, "sql.json"))
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.BaseURLs != 2 || r.Base != "base" { // the quoted line is rejected by default
		t.Errorf("base %q with %d URLs, want base with 2", r.Base, r.BaseURLs)
	}
	if _, err := os.Stat(filepath.Join(o.out, "sqldata", "urls.sqlite")); err != nil {
		t.Error(err)
	}
}

// A -paths filter that selects nothing fails before any data is written
// (a run on "DuckDB extension" once measured nothing after 25 minutes),
// naming the paths it could have selected.
func TestRunRefusesNoPaths(t *testing.T) {
	dir := t.TempDir()
	o := options{samples: 1, rows: "10", out: filepath.Join(dir, "out"), ext: filepath.Join(dir, "noext"), paths: "DuckDB extension"}
	err := run(context.Background(), o, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), `"DuckDB loadable extension in duckdb-go"`) {
		t.Fatalf("run = %v, want an error naming the paths", err)
	}
	if _, err := os.Stat(filepath.Join(o.out, "sqldata")); !os.IsNotExist(err) {
		t.Errorf("data written for a run that selects no path: %v", err)
	}
}
