package normalize

import (
	"strings"
	"testing"
)

// TestUpgradedStringMatchesCanon: for every URL canonInto answers with an
// edit (not same) under the profiles that upgrade a scheme, Normalize
// gives canon.string's form, and upgradeOnly holds for http URLs with
// nothing else to edit (so the path is taken) and for no URL canon.append
// would write otherwise: a www or port cut, a trailing slash before a
// query, a host to lowercase, a query to sort or cut.
func TestUpgradedStringMatchesCanon(t *testing.T) {
	var inputs []string
	for _, host := range []string{"example.com", "Example.com", "www.example.com", "boe.es", "a.b"} {
		for _, port := range []string{"", ":80", ":443", ":8080"} {
			for _, path := range []string{"", "/", "/a", "/a/", "/a//", "/a;jsessionid=1"} {
				for _, tail := range []string{"", "?", "?a=1", "?utm_source=x&a=1", "?b=1&a=2", "?a=1&&b=2", "#f", "?a=1#f", "?page=2"} {
					for _, scheme := range []string{"http", "https", "HTTP", "ftp"} {
						inputs = append(inputs, scheme+"://"+host+port+path+tail)
					}
				}
			}
		}
	}
	var profiles []*Normalizer
	for _, name := range Names() {
		profiles = append(profiles, MustLookup(name))
	}
	up := 0
	for _, n := range profiles {
		for _, in := range inputs {
			var v verbatimURL
			var c canon
			if ok, _ := n.canonInto(&c, in, &v); !ok || c.same {
				continue
			}
			want := c.string(in)
			if c.upgradeOnly() {
				up++
				if want != c.scheme+in[c.schemeEnd:c.end] {
					t.Errorf("%s: %q: upgradeOnly, but canon.string writes %q", n.Name(), in, want)
				}
			}
			if got, err := n.Normalize(in); err != nil || got != want {
				t.Errorf("%s: Normalize(%q) = %q, %v; want %q", n.Name(), in, got, err, want)
			}
		}
	}
	if up == 0 {
		t.Error("no URL took upgradedString")
	}
	var v verbatimURL
	var c canon
	in := "http://example.com/a?b=1#f"
	if ok, _ := MustLookup("clara").canonInto(&c, in, &v); !ok || !c.upgradeOnly() || !strings.HasPrefix(c.string(in), "https://") {
		t.Errorf("clara: %q not upgradeOnly", in)
	}
}

// TestUpgradedStringSchemesAndLengths: upgradedString writes what
// canon.string and the reference write for upgrades to https and to
// other schemes (its strings.Builder), for URLs of every length around
// its stack buffer's (upgradeBuf), and takes the upgrade path for each.
func TestUpgradedStringSchemesAndLengths(t *testing.T) {
	ns := []*Normalizer{MustLookup("clara")}
	for _, up := range []map[string]string{{"http": "https"}, {"http": "wss"}, {"https": "http"}, {"http": "ftp"}} {
		p := MustLookup("whatwg").Profile()
		p.Name, p.Scheme.Upgrade = "upgrade", up
		n, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		ns = append(ns, n)
	}
	for _, n := range ns {
		ref, err := NewReference(n.Profile())
		if err != nil {
			t.Fatal(err)
		}
		up := 0
		for l := upgradeBuf - 24; l <= upgradeBuf+8; l++ {
			for _, scheme := range []string{"http", "https"} {
				head := scheme + "://example.com/"
				for _, tail := range []string{"", "?q=1", "#f"} {
					in := head + strings.Repeat("a", max(l-len(head)-len(tail)+1, 0)) + tail
					var v verbatimURL
					var c canon
					ok, _ := n.canonInto(&c, in, &v)
					if ok && c.upgradeOnly() {
						up++
						if got, want := c.upgradedString(in), c.string(in); got != want {
							t.Errorf("%s: upgradedString(%q) = %q; canon.string %q", n.Name(), in, got, want)
						}
					}
					got, gerr := n.Normalize(in)
					want, werr := ref.Normalize(in)
					if got != want || (gerr == nil) != (werr == nil) {
						t.Errorf("%s: Normalize(%q) = %q, %v; reference %q, %v", n.Name(), in, got, gerr, want, werr)
					}
				}
			}
		}
		if up == 0 {
			t.Errorf("%s: no URL took upgradedString", n.Name())
		}
	}
}
