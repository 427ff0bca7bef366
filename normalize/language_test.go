package normalize_test

import (
	"fmt"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestLanguageHostPreferred: a host whose Spanish is "/cas/" keeps it as
// the preferred segment (clara-policy Rule 10: es, cas, castellano).
func TestLanguageHostPreferred(t *testing.T) {
	p := normalize.Profile{Name: "lang", Version: "1", Hash: normalize.HashSHA256,
		Language: &normalize.Language{Preferred: "es", Hosts: []normalize.LanguageHost{
			{Host: "gencat.test", Segment: 0, Languages: []string{"es", "ca", "en"}},
			{Host: "valencia.test", Segment: 0, Languages: []string{"cas", "val"}, Preferred: "cas"},
		}}}
	n, err := normalize.New(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want, alts string }{
		{"https://gencat.test/ca/x", "https://gencat.test/es/x", "[{ca https://gencat.test/ca/x} {en https://gencat.test/en/x}]"},
		{"https://valencia.test/val/x", "https://valencia.test/cas/x", "[{val https://valencia.test/val/x}]"},
		{"https://valencia.test/es/x", "https://valencia.test/es/x", "[]"}, // "es" is not one of this host's codes
	} {
		r, err := n.Canonicalize(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if r.URL != c.want || fmt.Sprint(r.Alternates) != c.alts {
			t.Errorf("%q = %q %v, want %q %s", c.in, r.URL, r.Alternates, c.want, c.alts)
		}
	}
	for _, bad := range [][]string{{"es", ""}, {"es/ca"}} {
		p.Language.Hosts[0].Languages = bad
		if _, err := normalize.New(p); normalize.KindOf(err) != "config" {
			t.Errorf("languages %q: err = %v, want a config error", bad, err)
		}
	}
}
