package normalize

import (
	"fmt"
	"strings"
	"testing"
)

// A Result must not share memory with the normalizer's pooled buffers: the
// next call (on any goroutine) would overwrite it. Found by the DuckDB
// adapter's 4-thread test (fragments of other rows in canonicalize_url).
func TestResultOwnsItsMemory(t *testing.T) {
	checked := 0
	for _, name := range Names() {
		n := MustLookup(name)
		for i := range 20 {
			r, err := n.Canonicalize("http://a.example/x;jsessionid=J?utm_source=s&page=2#first")
			if err != nil {
				t.Fatal(err)
			}
			before := strings.Clone(fmt.Sprintf("%+v", r))
			for range 3 {
				n.Canonicalize("http://b.example/yyyyyyyy;jsessionid=KKKKKK?utm_source=tttttt&page=9#XXXXXXXXXXXXXXXXXXXX")
			}
			if after := fmt.Sprintf("%+v", r); after != before {
				t.Fatalf("%s, try %d: result changed by later calls:\nbefore %s\nafter  %s", name, i, before, after)
			}
			if r.HasFragment {
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no profile reported a dropped fragment")
	}
}
