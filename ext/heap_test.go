package ext_test

import (
	"fmt"
	"testing"
)

// TestHostsStringPieces checks results of every length class in one
// column, across DuckDB's chunks and threads: NULLs, strings DuckDB
// inlines (up to 12 bytes; 'http://a.b/c' is 12), the same 13-byte string
// again and again, and longer ones. The extension copies a flush's long
// strings into the vector's string heap in one piece and points each row
// into it (internal/duckcapi/capi_impl.h duckcapi_assign_varchar). Each row's value is
// predicted in SQL, so a row pointing at another row's bytes, a wrong
// 4-byte prefix (DuckDB compares by it first; url_path's differ from row
// to row, normalize_url's all read "http") or a lost NULL is counted, and
// the GROUP BYs count the distinct values as DuckDB's hash table sees
// them.
func TestHostsStringPieces(t *testing.T) {
	const q = `WITH r AS (
		SELECT x,
			CASE WHEN x % 7 = 0 THEN NULL
			     WHEN x % 3 = 0 THEN 'http://a.b/c'
			     WHEN x % 5 = 0 THEN 'HTTP://a.b/cd'
			     ELSE 'HTTP://Example.COM/' || x || '/' || repeat('p', CAST(x % 40 AS INTEGER)) || 'z' END AS u,
			CASE WHEN x % 7 = 0 THEN NULL
			     WHEN x % 3 = 0 THEN 'http://a.b/c'
			     WHEN x % 5 = 0 THEN 'http://a.b/cd'
			     ELSE 'http://example.com/' || x || '/' || repeat('p', CAST(x % 40 AS INTEGER)) || 'z' END AS want
		FROM range(100000) t(x))
	SELECT count(*),
		count(*) FILTER (WHERE normalize_url(u) IS DISTINCT FROM want),
		count(*) FILTER (WHERE url_path(u) IS DISTINCT FROM substr(want, strpos(substr(want, 8), '/') + 7)),
		(SELECT count(*) FROM (SELECT normalize_url(u) AS g FROM r GROUP BY g)),
		(SELECT count(*) FROM (SELECT url_path(u) AS g FROM r GROUP BY g))
	FROM r`
	for _, h := range hosts(t, "") {
		if !isDuckDB(h) {
			continue
		}
		t.Run(h.Label(), func(t *testing.T) {
			rows, err := h.Query(q)
			// 100000 rows, none wrong in either function; groups: the
			// 45714 long URLs, the 13- and 12-byte ones and NULL; their
			// paths, of which '/c' and '/cd' and NULL
			want := "[[100000 0 0 45717 45717]]"
			if err != nil || len(rows) != 1 || fmt.Sprint(rows) != want {
				t.Errorf("%v, %v; want %s", rows, err, want)
			}
		})
	}
}
