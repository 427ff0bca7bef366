package normalize_test

import (
	"os"
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
	for _, u := range readLines(t, filepath.Join(filepath.Dir(os.Getenv("URLNORM_DATA")+"/x"), "web_dirty.txt")) {
		dirty[normalize.RowPath(n, u)]++
	}
	t.Logf("web_dirty: %v", dirty)
}
