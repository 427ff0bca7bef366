//go:build urlnorm_testpanic

package duckdb

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/bridge"
	"github.com/urlnorm/urlnorm/internal/slt"
	"github.com/urlnorm/urlnorm/udf"
)

// The urlnorm_testpanic build registers internal/bridge's test functions
// too ("make test" runs this package so once): a panic in a row is that
// query's internal error on both paths, and the database goes on.
func TestPanicRow(t *testing.T) {
	for _, capi := range []bool{true, false} {
		db := openPath(t, "?threads=2", capi)
		exec(t, db, "CREATE TABLE s AS SELECT i FROM range(5000) r(i)")
		for q, want := range map[string]string{
			"SELECT urlnorm_test_panic('nil')": "urlnorm_test_panic('nil'): internal error: runtime error: invalid memory address or nil pointer dereference (please report this query)",
			// a panic in a later chunk, on one of DuckDB's threads
			"SELECT count(urlnorm_test_panic(CASE WHEN i = 4321 THEN 'nil' END)) FROM s": "urlnorm_test_panic('nil'): internal error: ",
		} {
			_, err := slt.DB{Engine: "duckdb", DB: db}.Query(q)
			var fe *udf.Error
			if err == nil || !errors.As(FuncError(err), &fe) || fe.Kind != "internal" || !strings.HasPrefix(fe.Error(), want) {
				t.Errorf("capi=%v: %s: %v; want %q", capi, q, err, want)
			}
		}
		var got string
		if err := db.QueryRow("SELECT normalize_url('http://A.example/')").Scan(&got); err != nil || got != "http://a.example" {
			t.Errorf("capi=%v: after the panics: %q, %v", capi, got, err)
		}
	}
	// A panic in the C API path's own code between rows (bridge.BeforeRow).
	db := openPath(t, "", true)
	_, err := db.Exec("SELECT urlnorm_test_panic('glue')")
	if err == nil || FuncError(err).Error() != "urlnorm_test_panic: internal error: forced panic in the extension glue (please report this query)" {
		t.Errorf("glue panic: %v", err)
	}
}

// urlnorm_test_shape's STRUCT of BOOLEAN, INTEGER, LIST (with NULL
// elements) and MAP, and NULL rows, over more than a chunk: the C API
// writes what the fallback writes.
func TestPathsAgreeOnTestShapes(t *testing.T) {
	const q = `SELECT i, urlnorm_test_shape(CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN '' WHEN 2 THEN 'a,~,b' || i ELSE repeat('xy,', i % 9) || '~' END),
  urlnorm_test_len(CASE WHEN i % 3 = 0 THEN 'null' ELSE repeat('z', i % 20) END), urlnorm_test_is(CASE WHEN i % 2 = 0 THEN 'yes' END)
FROM range(4100) r(i) ORDER BY i`
	var res [2]string
	for k, capi := range []bool{true, false} {
		rows, err := slt.DB{Engine: "duckdb", DB: openPath(t, "", capi)}.Query(q)
		if err != nil || len(rows) != 4100 {
			t.Fatalf("capi=%v: %d rows, %v", capi, len(rows), err)
		}
		for _, r := range rows {
			res[k] += strings.Join(r, " | ") + "\n"
		}
	}
	if res[0] != res[1] {
		a, b := strings.Split(res[0], "\n"), strings.Split(res[1], "\n")
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("row %d:\nC API:    %s\nfallback: %s", i, a[i], b[i])
			}
		}
	}
	if !strings.Contains(res[0], "NULL") || !strings.Contains(res[0], `"l":["a",null,"b2"]`) {
		t.Fatalf("no NULLs or lists in the results:\n%.500s", res[0])
	}
}

// Results past bridge.FlushBytes within one chunk are written in pieces,
// each at its rows.
func TestLargeResults(t *testing.T) {
	db := openPath(t, "", true)
	const n, size = 5, 1 << 23 // 40 MiB in one chunk: FlushBytes is 32 MiB
	if n*size <= bridge.FlushBytes {
		t.Fatalf("%d bytes do not pass FlushBytes (%d)", n*size, bridge.FlushBytes)
	}
	var rows, total, good int64
	err := db.QueryRow(`SELECT count(*), sum(length(r)), count(*) FILTER (WHERE r = repeat(chr(97 + i::INTEGER), 8388608))
FROM (SELECT i, urlnorm_test_repeat(chr(97 + i::INTEGER), '8388608') AS r FROM range(5) t(i))`).Scan(&rows, &total, &good)
	if err != nil || rows != n || total != n*size || good != n {
		t.Fatalf("%d rows, %d bytes, %d right, %v; want %d rows of %d bytes", rows, total, good, err, n, size)
	}
}
