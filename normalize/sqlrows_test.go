package normalize_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// sqlRow builds row i of the SQL benchmarks' table from base, the way
// benchmarks/internal/corpus/rows.go does (normalize does not import
// benchmarks/): repeat r = i / len(base) of base[i % len(base)]; repeat 0
// is the URL itself, later ones append bench=<(r+3)/4> to the query and
// then, by r%4, nothing (1), an uppercase scheme and authority (2), a
// fragment #f<r> (3) or a trailing slash on the path (0).
func sqlRow(base []string, i int) string {
	u := base[i%len(base)]
	rep := i / len(base)
	if rep == 0 {
		return u
	}
	head, frag, _ := strings.Cut(u, "#")
	if frag != "" || strings.Contains(u, "#") {
		frag = "#" + frag
	}
	head, query, hasQ := strings.Cut(head, "?")
	sep := "?"
	if hasQ {
		query, sep = "?"+query, "&"
	}
	switch rep % 4 {
	case 0:
		head += "/"
	case 2:
		b := []byte(head)
		slashes := 0
		for j, c := range b {
			if c == '/' {
				if slashes++; slashes == 3 {
					break
				}
			}
			if 'a' <= c && c <= 'z' {
				b[j] = c - 'a' + 'A'
			}
		}
		head = string(b)
	case 3:
		frag = "#f" + strconv.Itoa(rep)
	}
	return head + query + sep + "bench=" + strconv.Itoa((rep+3)/4) + frag
}

// dataDir is the shared URL lists' directory: $URLNORM_DATA, or
// ../../shared/data/urls (benchCorpora's).
func dataDir() string {
	if dir := os.Getenv("URLNORM_DATA"); dir != "" {
		return dir
	}
	return "../../shared/data/urls"
}

// sqlRows returns the SQL benchmark's rows over the web corpus (kasztp +
// userbait, the URLs default accepts), as many as 17 repeats of it (about
// the 1M-row table), or nil when the shared data is absent.
func sqlRows(tb testing.TB) []string {
	dir := dataDir()
	var web []string
	for _, f := range []string{"kasztp.txt", "userbait.txt"} {
		p := filepath.Join(dir, f)
		if _, err := os.Stat(p); err != nil {
			return nil
		}
		web = append(web, readLines(tb, p)...)
	}
	def := normalize.MustLookup("default")
	var base []string
	for _, u := range web {
		if _, err := def.Normalize(u); err == nil {
			base = append(base, u)
		}
	}
	rows := make([]string, 17*len(base))
	for i := range rows {
		rows[i] = sqlRow(base, i)
	}
	return rows
}

// TestSQLRowMatchesRows pins sqlRow to rows.go's documented shapes.
func TestSQLRowMatchesRows(t *testing.T) {
	base := []string{"https://example.com/a?x=1#top", "http://h.org/p"}
	for _, c := range []struct {
		i    int
		want string
	}{
		{0, "https://example.com/a?x=1#top"},
		{1, "http://h.org/p"},
		{2, "https://example.com/a?x=1&bench=1#top"},  // r=1: nothing more
		{3, "http://h.org/p?bench=1"},                 // r=1
		{4, "HTTPS://EXAMPLE.COM/a?x=1&bench=1#top"},  // r=2: scheme and host upper-cased
		{6, "https://example.com/a?x=1&bench=1#f3"},   // r=3: a fragment
		{8, "https://example.com/a/?x=1&bench=1#top"}, // r=4: a trailing slash
		{9, "http://h.org/p/?bench=1"},                // r=4
		{10, "https://example.com/a?x=1&bench=2#top"}, // r=5: k=2
	} {
		if got := sqlRow(base, c.i); got != c.want {
			t.Errorf("sqlRow(%d) = %q, want %q", c.i, got, c.want)
		}
	}
}

// BenchmarkSQLRows/<op>/<profile>: Normalize, and AppendNormalized into a
// reused buffer as the SQL functions call it (udf), over the SQL
// benchmark's rows (sqlRows), one row per op, in table order.
func BenchmarkSQLRows(b *testing.B) {
	rows := sqlRows(b)
	if rows == nil {
		b.Skip("no shared data (URLNORM_DATA)")
	}
	for _, name := range []string{"default", "whatwg"} {
		n := normalize.MustLookup(name)
		b.Run("Normalize/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				sink, _ = n.Normalize(rows[i%len(rows)])
			}
		})
		b.Run("AppendNormalized/"+name, func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for i := 0; b.Loop(); i++ {
				buf, _ = n.AppendNormalized(buf[:0], rows[i%len(rows)])
			}
		})
	}
}
