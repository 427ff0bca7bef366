package ext_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/udf"
)

// TestHostsErrors checks, in every host, that bad input and unknown
// profiles raise udf's SQL errors (or give NULL in try_ twins), and that
// the host is still answering afterwards.
func TestHostsErrors(t *testing.T) {
	var checks []literalCall
	for _, f := range udf.Funcs {
		// An unknown profile raises in the plain function and its try_
		// twin alike, and even when the other arguments are NULL.
		for i, a := range f.Args {
			if !a.Profile {
				continue
			}
			good, nulls := make([]*string, len(f.Args)), make([]*string, len(f.Args))
			for j := range f.Args {
				good[j] = str("https://example.com/")
			}
			good[i], nulls[i] = str("no-such-profile"), str("no-such-profile")
			checks = append(checks, literalCall{f, good}, literalCall{f, nulls})
		}
		if f.Name == "url_profile_version" || f.Name == "try_url_profile_version" { // the name is data
			checks = append(checks, literalCall{f, []*string{str("no-such-profile")}})
			continue
		}
		// Bad input: raises, or NULL from try_.
		bad := make([]*string, len(f.Args))
		for i, a := range f.Args {
			bad[i] = str("https://example.com/")
			if a.Name == "url" || a.Name == "base" {
				bad[i] = str("no scheme here")
			}
		}
		checks = append(checks, literalCall{f, bad})
	}
	for _, h := range hosts(t, "") {
		t.Run(h.Label(), func(t *testing.T) {
			raised := 0
			for _, c := range checks {
				if c.check(t, h) {
					raised++
				}
			}
			if raised < len(udf.Names())/2 {
				t.Errorf("only %d of %d checks raised: the check is too weak", raised, len(checks))
			}
			alive(t, h)
			// The test-only function is not in a normal build.
			if _, err := h.Query("SELECT urlnorm_test_panic('glue')"); err == nil || errors.Is(err, errCrash) {
				t.Errorf("urlnorm_test_panic in a normal build: %v; want an unknown-function error", err)
			}
		})
	}
}

// literalCall is f applied to SQL literals.
type literalCall struct {
	f    *udf.Func
	args []*string
}

// check runs the call and compares it with udf; it reports whether the
// call raised.
func (c literalCall) check(t *testing.T, h host) bool {
	t.Helper()
	lits := make([]string, len(c.args))
	for i, a := range c.args {
		lits[i] = literal(a)
	}
	q := "SELECT " + sqlExpr(h, c.f, lits)
	want := call(c.f, c.args)
	rows, err := h.Query(q)
	switch {
	case errors.Is(err, errCrash):
		t.Fatalf("%s: %v", q, err)
	case want.err != "":
		if err == nil || !strings.Contains(err.Error(), want.err) {
			t.Errorf("%s: %v, %v; want an error containing %q", q, rows, err, want.err)
		}
		return true
	case err != nil:
		t.Errorf("%s: %v", q, err)
	case len(rows) != 1 || !same(c.f, rows[0][0], want):
		t.Errorf("%s = %v, want %+v", q, rows, want)
	}
	return false
}

// alive checks that the host still runs queries (with the extension).
func alive(t *testing.T, h host) {
	t.Helper()
	rows, err := h.Query("SELECT normalize_url('HTTP://Example.COM:80/a/../b/')")
	if err != nil || len(rows) != 1 || rows[0][0] != "http://example.com/b" {
		t.Fatalf("%s after the errors: %v %v", h.Label(), rows, err)
	}
}

// TestHostsPanic loads the urlnorm_testpanic build, whose
// urlnorm_test_panic(mode) panics below the SQL function, and checks
// that each host reports an SQL error and keeps running: a panic in the
// extension's glue ('glue'), and a nil pointer fault inside the function
// that the Go runtime turns into a panic udf recovers ('nil'), on one row
// and over a table big enough for DuckDB to run it on several threads.
// Both read alike (udf.PanicError).
func TestHostsPanic(t *testing.T) {
	queries := map[string]string{
		"SELECT urlnorm_test_panic('glue')": "urlnorm_test_panic: internal error: forced panic in the extension glue (please report this query)",
		"SELECT urlnorm_test_panic('nil')":  "urlnorm_test_panic('nil'): internal error: runtime error: invalid memory address or nil pointer dereference (please report this query)",
		"SELECT count(urlnorm_test_panic(CASE WHEN x = 9999 THEN 'glue' ELSE 'nil' END)) FROM series": "internal error",
	}
	for _, h := range hosts(t, "urlnorm_testpanic") {
		t.Run(h.Label(), func(t *testing.T) {
			if err := h.Exec(seriesTable(h, 20000)); err != nil {
				t.Fatal(err)
			}
			for q, want := range queries {
				_, err := h.Query(q)
				if err == nil || errors.Is(err, errCrash) || !strings.Contains(err.Error(), want) {
					t.Fatalf("%s: %v; want an SQL error containing %q", q, err, want)
				}
				alive(t, h)
			}
		})
	}
}

// TestShellSurvivesPanic runs the panics and a query after them in one
// sqlite3 shell process, as a user at the prompt would.
func TestShellSurvivesPanic(t *testing.T) {
	h, err := openShell(t, extensions(t, "urlnorm_testpanic"))
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, err := h.(*shell).script("SELECT urlnorm_test_panic('glue');\nSELECT urlnorm_test_panic('nil');\nSELECT normalize_url('http://A.example/') AS after;\n")
	if errors.Is(err, errCrash) || !strings.Contains(out, `"after":"http://a.example"`) {
		t.Fatalf("shell: %v\nstdout: %s\nstderr: %s", err, out, stderr)
	}
	if n := strings.Count(stderr, "internal error"); n != 2 {
		t.Errorf("stderr has %d internal errors, want 2:\n%s", n, stderr)
	}
}

// seriesTable creates series(x) with n rows.
func seriesTable(h host, n int) string {
	if isDuckDB(h) {
		return fmt.Sprintf("CREATE TABLE series AS SELECT range AS x FROM range(%d)", n)
	}
	return fmt.Sprintf("CREATE TABLE series AS WITH RECURSIVE s(x) AS (SELECT 0 UNION ALL SELECT x+1 FROM s WHERE x < %d) SELECT x FROM s", n-1)
}
