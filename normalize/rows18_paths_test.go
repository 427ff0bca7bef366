package normalize_test

import (
	"path/filepath"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestSQLRowPaths logs which path (normalize.RowPath) default takes for the
// SQL rows and for web_dirty, by shape: the figures of benchmarks/README.md
// "Issue 18: rows that are not canonical".
func TestSQLRowPaths(t *testing.T) {
	rows := sqlRows(t)
	if rows == nil {
		t.Skip("no shared data (URLNORM_DATA)")
	}
	n := normalize.MustLookup("default")
	base := len(rows) / 17
	count := map[string]map[string]int{}
	for i, r := range rows {
		shape := [...]string{"slash", "plain", "upper", "frag"}[(i/base)%4]
		if i < base {
			shape = "orig"
		}
		if count[shape] == nil {
			count[shape] = map[string]int{}
		}
		count[shape][normalize.RowPath(n, r)]++
	}
	for shape, m := range count {
		t.Logf("%s: %v", shape, m)
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
