package ext_test

import (
	"path/filepath"
	"testing"

	"github.com/urlnorm/urlnorm/internal/slt"
)

// TestHostsSQLFiles runs the sqllogictest files that the embedded adapters
// run (sql/*.test) in every host, each file on a fresh database with the
// extension loaded, and expects the same results, except for the records
// in bindTime.
func TestHostsSQLFiles(t *testing.T) {
	files, err := slt.Files()
	if err != nil || len(files) == 0 {
		t.Fatalf("no sql/*.test files: %v", err)
	}
	dir := extensions(t, "")
	used := map[string]bool{}
	for _, open := range []func(*testing.T, string) (host, error){openShell, openPython, openDuckDBGo, openNode} {
		for _, file := range files {
			recs, err := slt.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			h, err := open(t, dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := h.(*shell); ok && sessionFiles[filepath.Base(file)] {
				h.Close()
				continue // TestShellLoadProfile runs it as one session
			}
			if isDuckDB(h) {
				for _, r := range recs {
					if want, ok := bindTime[r.SQL]; ok && r.WantError {
						used[r.SQL] = true
						r.WantError, r.ErrorText = want.err != "", want.err
					}
				}
			}
			t.Run(h.Label()+"/"+filepath.Base(file), func(t *testing.T) {
				for _, f := range slt.Run(recs, h) {
					t.Error(f)
				}
			})
			if err := h.Close(); err != nil {
				t.Errorf("%s: %v", h.Label(), err)
			}
		}
	}
	for q := range bindTime {
		if !used[q] {
			t.Errorf("bindTime entry %q matches no record of sql/*.test: update it", q)
		}
	}
}

// sessionFiles need one process for the whole file: profiles loaded with
// urlnorm_load_profile live in the process, and the sqlite3-shell host
// starts a shell per statement. TestShellLoadProfile runs them as a
// session at the prompt instead.
var sessionFiles = map[string]bool{"load_profile.test": true}

// bindTime lists the records where the extension differs from the
// embedded DuckDB adapter, which checks a constant profile name when
// DuckDB binds the query. DuckDB's stable C extension API (v1.2.0) has no
// bind callback for scalar functions, so the extension checks it on each
// row instead: the message quotes the row, and TRY() catches it like any
// row error. See docs/extensions.md.
var bindTime = map[string]struct{ err string }{
	"SELECT TRY(normalize_url(u, 'bogus')) FROM t":       {err: ""}, // succeeds: NULLs
	"SELECT normalize_url('http://a.example/', 'bogus')": {err: "normalize_url('http://a.example/', 'bogus'): unknown_profile: known profiles: "},
}
