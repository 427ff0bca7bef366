package ext_test

import (
	"errors"
	"testing"
)

// TestHostsResultTypes checks every result type the extensions can
// return, in every host, with the test-only functions of the
// urlnorm_testpanic build (see internal/bridge/testpanic.go): DuckDB
// gets BOOLEAN, INTEGER, LIST, MAP and STRUCT vectors with NULLs at each
// level, SQLite integers and JSON text with the same keys.
func TestHostsResultTypes(t *testing.T) {
	for _, h := range hosts(t, "urlnorm_testpanic") {
		t.Run(h.Label(), func(t *testing.T) {
			duck := isDuckDB(h)
			checks := []struct{ q, duck, lite string }{
				{"SELECT urlnorm_test_len('abc'), urlnorm_test_len('null'), urlnorm_test_len(NULL)", "3|NULL|NULL", "3|NULL|NULL"},
				{"SELECT typeof(urlnorm_test_len('abc')), typeof(urlnorm_test_is('yes'))", "INTEGER|BOOLEAN", "integer|integer"},
				{"SELECT urlnorm_test_is('yes'), urlnorm_test_is('no'), urlnorm_test_is(NULL)", "true|false|NULL", "1|0|NULL"},
				{"SELECT urlnorm_test_shape(''), urlnorm_test_shape(NULL)", "NULL|NULL", "NULL|NULL"},
				{"SELECT typeof(urlnorm_test_shape('a'))", "STRUCT(b BOOLEAN, i INTEGER, l VARCHAR[], m MAP(VARCHAR, VARCHAR[]))", "text"},
				{jsonOf(duck, "urlnorm_test_shape('a,~,c&d')"),
					`{"b":false,"i":7,"l":["a",null,"c&d"],"m":{"n":["3"],"first":["a",null]}}`,
					`{"b":false,"i":7,"l":["a",null,"c&d"],"m":{"n":["3"],"first":["a",null]}}`},
				// over a table: several chunks, several threads
				{sumOf(duck), "20000|168890|10000|40000", "20000|168890|10000|40000"},
			}
			if duck {
				checks = append(checks, struct{ q, duck, lite string }{
					"SELECT (urlnorm_test_shape('x,y')).m['first'][1], (urlnorm_test_shape('x,y')).l[2], (urlnorm_test_shape('x,y')).b", "x|y|true", ""})
			}
			if err := h.Exec(seriesTable(h, 20000)); err != nil {
				t.Fatal(err)
			}
			for _, c := range checks {
				want := c.lite
				if duck {
					want = c.duck
				}
				rows, err := h.Query(c.q)
				if errors.Is(err, errCrash) {
					t.Fatalf("%s: %v", c.q, err)
				}
				if err != nil || len(rows) != 1 || joinRow(rows[0]) != want {
					t.Errorf("%s = %v, %v; want %s", c.q, rows, err, want)
				}
			}
		})
	}
}

func jsonOf(duck bool, e string) string {
	if duck {
		return "SELECT CAST(to_json(" + e + ") AS VARCHAR)"
	}
	return "SELECT " + e
}

// sumOf aggregates the STRUCT over series(x), x < 20000: count; the total
// length of x || ',y,z' (i: 88890 digits + 4 × 20000); rows with an odd
// part count (b false: all of them, 3 parts) minus 10000; list elements
// (3 a row) minus 20000.
func sumOf(duck bool) string {
	if duck {
		return `SELECT count(s), sum(s.i), sum(CASE WHEN s.b THEN 0 ELSE 1 END) - 10000, sum(len(s.l)) - 20000
			FROM (SELECT urlnorm_test_shape(CAST(x AS VARCHAR) || ',y,z') AS s FROM series)`
	}
	return `SELECT count(s), sum(s ->> '$.i'), sum(CASE WHEN s ->> '$.b' THEN 0 ELSE 1 END) - 10000, sum(json_array_length(s, '$.l')) - 20000
		FROM (SELECT urlnorm_test_shape(CAST(x AS TEXT) || ',y,z') AS s FROM series)`
}

func joinRow(r []string) string {
	s := ""
	for i, v := range r {
		if i > 0 {
			s += "|"
		}
		s += v
	}
	return s
}
