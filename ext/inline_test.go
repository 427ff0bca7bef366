package ext_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestHostsShortStrings holds the DuckDB extension's writes of strings of
// every length around DuckDB's inline limit (12 bytes) to the strings
// themselves: url_host (a VARCHAR result) and url_path_segments' elements
// (a LIST's child vector) of URLs whose host and segments are 0 to 14
// bytes, each byte distinct within its string, compared in SQL with the
// literals they should equal (DuckDB compares an inline string as its 16
// bytes, padding included), by length, and by count(DISTINCT …) over both
// (a hash of the 16 bytes). A byte misplaced or left out, or padding that
// is not zero, fails one of the counts; so does a wrong length.
func TestHostsShortStrings(t *testing.T) {
	const chars = "abcdefghijklmnopqrstuvwxyz0123456789"
	var rows []string
	want := 0
	for n := 0; n <= 14; n++ {
		for shift := 0; shift < 3; shift++ {
			var b strings.Builder
			for i := range n {
				b.WriteByte(chars[(i*7+shift*11+n)%len(chars)])
			}
			s := b.String()
			host := s
			if n == 0 {
				host = "h" // a special URL's host is never empty
			}
			rows = append(rows, fmt.Sprintf("('http://%s/%s/x', '%s', '%s')", host, s, host, s))
			want++
		}
	}
	values := "(VALUES " + strings.Join(rows, ", ") + ") t(u, h, s)"
	for _, h := range hosts(t, "") {
		if !isDuckDB(h) {
			continue
		}
		t.Run(h.Label(), func(t *testing.T) {
			checks := []struct{ q, want string }{
				{"SELECT count(*) FROM " + values + " WHERE url_host(u) = h AND length(url_host(u)) = length(h)", fmt.Sprint(want)},
				{"SELECT count(*) FROM " + values + " WHERE url_path_segments(u)[1] = s AND length(url_path_segments(u)[1]) = length(s)" +
					" AND url_path_segments(u)[2] = 'x'", fmt.Sprint(want)},
				{"SELECT count(DISTINCT v) - (SELECT count(DISTINCT s) FROM " + values + ") FROM (SELECT url_path_segments(u)[1] AS v FROM " +
					values + " UNION ALL SELECT s FROM " + values + ")", "0"},
				{"SELECT count(DISTINCT v) - (SELECT count(DISTINCT h) FROM " + values + ") FROM (SELECT url_host(u) AS v FROM " +
					values + " UNION ALL SELECT h FROM " + values + ")", "0"},
			}
			for _, c := range checks {
				got, err := h.Query(c.q)
				if errors.Is(err, errCrash) {
					t.Fatalf("%s: %v", c.q, err)
				}
				if err != nil || len(got) != 1 || joinRow(got[0]) != c.want {
					t.Errorf("%s = %v, %v; want %s", c.q, got, err, c.want)
				}
			}
		})
	}
}
