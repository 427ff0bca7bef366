package normalize

import (
	"strings"
	"testing"
)

// TestHostEndsPassesKeys: hostEnds lets every key of a profile's host
// maps through in any case (each byte, all of them, with the scheme
// before it as verbatimCanon reads it), for clara and for a profile with
// keys of every length to 70 that end in every byte a host may end in;
// and it is a filter: clara's lookups are not asked about common hosts.
func TestHostEndsPassesKeys(t *testing.T) {
	p := MustLookup("whatwg").Profile()
	p.Name, p.Host.Map = "ends", map[string]string{}
	for l := 1; l <= 70; l++ {
		for _, c := range "az09-_." {
			if k := strings.Repeat("k", l-1) + string(c); k != "." {
				p.Host.Map[k] = "mapped.example"
			}
		}
	}
	n, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []*Normalizer{n, MustLookup("clara")} {
		keys := 0
		for _, m := range []map[string]bool{keysOf(n.hostTo.m), keysOf(n.hosts.m), keysOf(n.lang.m)} {
			for k := range m {
				keys++
				for _, h := range foldCases(k) {
					s := "http://" + h + "/"
					if !n.hostEnds.any || !n.hostEnds.mayAt(s, 7, 7+len(h)) {
						t.Errorf("%s: hostEnds refuses %q (a key: %q)", n.Name(), h, k)
					}
				}
			}
		}
		if keys == 0 {
			t.Errorf("%s: no keys", n.Name())
		}
	}
	clara := MustLookup("clara")
	for _, h := range []string{"example.com", "www.example.com", "WWW.EXAMPLE.COM", "es.wikipedia.org", "github.com"} {
		s := "https://" + h + "/"
		if clara.hostEnds.mayAt(s, 8, 8+len(h)) {
			t.Errorf("clara: hostEnds lets %q through", h)
		}
	}
	if MustLookup("default").hostEnds.any {
		t.Error("default: hostEnds.any, without host lookups")
	}
}

func keysOf[V any](m map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// foldCases returns h as it is, all upper and with each letter upper in
// turn.
func foldCases(h string) []string {
	out := []string{h, strings.ToUpper(h)}
	for i := 0; i < len(h); i++ {
		if 'a' <= h[i] && h[i] <= 'z' {
			out = append(out, h[:i]+strings.ToUpper(h[i:i+1])+h[i+1:])
		}
	}
	return out
}
