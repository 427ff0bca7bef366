//go:build urlnorm_testpanic

package sqlite

import (
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/slt"
)

// The urlnorm_testpanic build registers internal/bridge's test functions
// too (make test runs "go test -tags urlnorm_testpanic ./sqlite/"). A panic
// inside a function (a nil dereference, which udf recovers) or in the glue
// around it (which the adapter recovers) is an SQL error naming the
// function, in both paths, and the connection goes on working.
func TestPanicRows(t *testing.T) {
	for _, p := range paths {
		db := slt.DB{Engine: "sqlite", DB: openPath(t, p.fallback)}
		for _, mode := range []string{"fault", "glue"} {
			got := runRecord(db, `SELECT urlnorm_test_panic('`+mode+`')`)
			if !strings.HasPrefix(got, "error: urlnorm_test_panic") || !strings.Contains(got, ": internal error: ") || !strings.HasSuffix(got, "(please report this query)") {
				t.Errorf("%s: panic %s: %s; want an internal error naming the function", p.name, mode, got)
			}
		}
		if got := runRecord(db, `SELECT normalize_url('HTTP://A.example/x')`); got != "[[http://a.example/x]]" {
			t.Errorf("%s: after the panics: %s", p.name, got)
		}
	}
}

// Every result type of the SQLite glue, and the same bytes through both
// paths: JSON text for a STRUCT of BOOLEAN, INTEGER, LIST and MAP, an
// INTEGER, a BOOLEAN, NULLs.
func TestResultShapes(t *testing.T) {
	for _, q := range []string{
		`SELECT urlnorm_test_shape('a,~,c'), urlnorm_test_shape(''), typeof(urlnorm_test_shape('x'))`,
		`SELECT urlnorm_test_len('abc'), typeof(urlnorm_test_len('abc')), urlnorm_test_len('null')`,
		`SELECT urlnorm_test_is('yes'), urlnorm_test_is('no'), typeof(urlnorm_test_is('yes'))`,
		`SELECT length(urlnorm_test_repeat('ab', '100000'))`,
	} {
		capi := runRecord(slt.DB{Engine: "sqlite", DB: openPath(t, false)}, q)
		fallback := runRecord(slt.DB{Engine: "sqlite", DB: openPath(t, true)}, q)
		if capi != fallback || strings.HasPrefix(capi, "error") {
			t.Errorf("%s:\nC API:    %s\nfallback: %s", q, capi, fallback)
		}
	}
	got := runRecord(slt.DB{Engine: "sqlite", DB: openPath(t, false)}, `SELECT urlnorm_test_shape('a,~,c'), urlnorm_test_len('abc'), urlnorm_test_is('yes')`)
	if want := `[[{"b":false,"i":5,"l":["a",null,"c"],"m":{"n":["3"],"first":["a",null]}} 3 1]]`; got != want {
		t.Errorf("shapes = %s; want %s", got, want)
	}
}
