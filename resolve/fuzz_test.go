package resolve

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

var fuzzHosts = []string{
	"sede.gob.es", "SEDE.GOB.ES.", "bücher.de", "xn--bcher-kva.de", "0x7f.1", "2130706433",
	"[::ffff:127.0.0.1]", "a..b", "sede.gob.es@evil.com", "sede.gob.es.evil.com", "a!b.es",
	"FAẞ.de", "a\u2135b", "%41.es", "[::1", "1.2.3.256", "under_score.es", "",
}

// CanonicalHost is idempotent, and what it returns is a dialable host.
func FuzzCanonicalHost(f *testing.F) {
	for _, h := range fuzzHosts {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := CanonicalHost(s)
		if err != nil {
			return
		}
		again, err := CanonicalHost(h)
		if err != nil || again != h {
			t.Fatalf("CanonicalHost(%q) = %q, then %q, %v", s, h, again, err)
		}
		if _, ipErr := netip.ParseAddr(strings.Trim(h, "[]")); ipErr != nil && !validDNSName(h) {
			t.Fatalf("CanonicalHost(%q) = %q, neither an IP nor a DNS name", s, h)
		}
	})
}

// Whatever a Location says, an accepted target is http(s), has a
// dialable host on the allowlist (or a shortener) and no credentials; a
// refused one has a kind.
func FuzzLocation(f *testing.F) {
	for _, l := range []string{
		"next", "/final", "//b.gob.es/x", `\\evil.com\x`, `/\evil.com/`, "https://sede.gob.es@evil.com/",
		"https://sede.gob.es.evil.com/", "https://u:p@b.gob.es/", "javascript:alert(1)", "http://[::1",
		"https://B.GOB.ES./x", "https://bücher.gob.es/", "http://0x7f.1/", " /a b\t", "?q", "#f", "",
	} {
		f.Add(l)
	}
	r, err := New(Config{Allowlist: []string{"sede.gob.es", "*.gob.es"}, Shorteners: []string{"bit.ly"}})
	if err != nil {
		f.Fatal(err)
	}
	cur, err := normalize.Parse("https://sede.gob.es/dir/page")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, loc string) {
		next, host, k, _ := r.target(cur, []string{loc})
		if k != nil {
			if k.Class != ErrRejected {
				t.Fatalf("%q: kind %s of class %v", loc, k.Code, k.Class)
			}
			return
		}
		switch {
		case next.Scheme() != "http" && next.Scheme() != "https":
			t.Fatalf("%q: accepted scheme %q", loc, next.Scheme())
		case host == "" || host != dialHost(next):
			t.Fatalf("%q: host %q", loc, host)
		case host != "sede.gob.es" && !strings.HasSuffix(host, ".gob.es") && host != "bit.ly":
			t.Fatalf("%q: accepted host %q off the allowlist", loc, host)
		case next.Username() != "" || next.Password() != "":
			t.Fatalf("%q: accepted credentials", loc)
		}
	})
}
