package normalize_test

import (
	"path/filepath"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestSQLRowPaths: under default, every SQL row made from a URL that the
// verbatim shortcut answers (RowPath same, edit or sort) is answered by
// it too: bench=<k>, an uppercase scheme and host, a fragment and a
// trailing slash leave no row to the parser. It logs which path the rows
// of each shape and web_dirty's URLs take (the figures of
// benchmarks/README.md "Issue 18: rows that are not canonical").
func TestSQLRowPaths(t *testing.T) {
	rows := sqlRows(t)
	if rows == nil {
		t.Skip("no shared data (URLNORM_DATA)")
	}
	n := normalize.MustLookup("default")
	base := len(rows) / 17
	shortcut := func(p string) bool { return p == "same" || p == "edit" || p == "sort" }
	count := map[string]map[string]int{}
	bad := 0
	for i, r := range rows {
		shape := [...]string{"slash", "plain", "upper", "frag"}[(i/base)%4]
		if i < base {
			shape = "orig"
		}
		if count[shape] == nil {
			count[shape] = map[string]int{}
		}
		p := normalize.RowPath(n, r)
		count[shape][p]++
		if i >= base && !shortcut(p) && shortcut(normalize.RowPath(n, rows[i%base])) {
			if bad++; bad <= 10 {
				t.Errorf("row %q takes %s; its URL %q takes the shortcut", r, p, rows[i%base])
			}
		}
	}
	for _, shape := range []string{"orig", "plain", "upper", "frag", "slash"} {
		t.Logf("%s: %v", shape, count[shape])
	}
	dirty := map[string]int{}
	for _, u := range readLines(t, filepath.Join(dataDir(), "web_dirty.txt")) {
		dirty[normalize.RowPath(n, u)]++
	}
	t.Logf("web_dirty: %v", dirty)
}

// BenchmarkSQLRowPaths/<path>: AppendNormalized under default over the SQL
// rows that take one path (normalize.RowPath), and over web_dirty's: what
// each path costs per row (benchmarks/instructions.sh counts it).
func BenchmarkSQLRowPaths(b *testing.B) {
	rows := sqlRows(b)
	if rows == nil {
		b.Skip("no shared data (URLNORM_DATA)")
	}
	n := normalize.MustLookup("default")
	dirty := readLines(b, filepath.Join(dataDir(), "web_dirty.txt"))
	for _, set := range []struct {
		name string
		urls []string
	}{{"rows", rows}, {"web_dirty", dirty}} {
		by := map[string][]string{}
		for _, r := range set.urls {
			p := normalize.RowPath(n, r)
			by[p] = append(by[p], r)
		}
		for _, path := range []string{"same", "edit", "sort", "refused", "auth", "general"} {
			urls := by[path]
			if len(urls) == 0 {
				continue
			}
			b.Run(set.name+"/"+path, func(b *testing.B) {
				var buf []byte
				for i := 0; b.Loop(); i++ {
					buf, _ = n.AppendNormalized(buf[:0], urls[i%len(urls)])
				}
			})
		}
	}
}
