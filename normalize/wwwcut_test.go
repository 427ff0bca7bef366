package normalize_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestNotSuffixEndMatchesReference: wherever notSuffixEnd (isSuffix's
// one-word no: the last two labels no node of the list by
// suffixTable.seconds, the top-level label no wildcard's) says no, x/net
// says that what follows is no public suffix, for every host around every
// node of the list and suffixHosts, alone and after "www." (the word then
// may hold the www label's dot); and it says no for most of them and for
// common hosts, so that a test that never decides fails.
func TestNotSuffixEndMatchesReference(t *testing.T) {
	hosts := append(nodeHosts(), suffixHosts()...)
	common := []string{"example.com", "wikipedia.org", "ab.de", "a.io", "news.example.co", "abcdefghijklmnopq.com", "example.xn--p1ai.x.com"}
	hosts = append(hosts, common...)
	said := 0
	for _, h := range hosts {
		if h == "" || strings.HasSuffix(h, ".") || normalize.MayBeAddr(h) {
			continue
		}
		want := normalize.IsPublicSuffixReference(h)
		for _, c := range []struct {
			s    string
			from int
		}{{h, 0}, {"www." + h, 4}, {"www2." + h, 5}} {
			if len(c.s) < 8 || !normalize.NotSuffixEnd(c.s, c.from) {
				continue
			}
			said++
			if want {
				t.Errorf("notSuffixEnd(%q, %d) = true, but x/net: a public suffix", c.s, c.from)
			}
		}
	}
	if said < 20000 {
		t.Errorf("notSuffixEnd decided only %d times", said)
	}
	for _, h := range common {
		if !normalize.NotSuffixEnd("www."+h, 4) {
			t.Errorf("notSuffixEnd(%q, 4) cannot tell", "www."+h)
		}
	}
	for _, s := range []string{"www.co.uk", "www.blogspot.com", "www.x.ck", "www.example", "www.abc.xn--p1ai", "abcdefgh", "www.a..ck", "www.example.com.", "www.example.co.."} {
		if normalize.NotSuffixEnd(s, 4) {
			t.Errorf("notSuffixEnd(%q, 4) = true: a node, a wildcard, one label, a long top-level label or a trailing dot", s)
		}
	}
}

// TestWWWCutVerbatimMatchesReference: the verbatim path's word-at-a-time
// www cut (wwwCutVerbatim) gives wwwCut's cut, and, on a host whose rest is
// no IP address and has no trailing dot, the reference's (isPublicSuffix
// of the lowercased host), which the general path's (stripWWW: its quick
// cut before wwwCut) gives too, for normalize-url ("www") and a profile with
// "www_digits", on wwwHosts and every host around every node of the list
// after a www label ("www.", "WWW.", "www2.", "www.www."), lowercase and
// uppercase.
func TestWWWCutVerbatimMatchesReference(t *testing.T) {
	hosts := append([]string(nil), wwwHosts...)
	for _, h := range append(nodeHosts(), suffixHosts()...) {
		if h == "" || strings.ContainsAny(h, ":[]%") {
			continue
		}
		for _, p := range []string{"www.", "WWW.", "wWw.", "www2.", "www.www.", "www..", "ww.", "wwwa."} {
			hosts = append(hosts, p+h, strings.ToUpper(p+h))
		}
	}
	ps := wwwProfiles(t)
	fast := 0
	for _, n := range []*normalize.Normalizer{ps[0], ps[1], ps[6]} { // normalize-url, www, www_digits
		ref, err := normalize.NewReference(n.Profile())
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hosts {
			if h == "" || strings.ContainsAny(h, ":[]%") || strings.ToLower(h) != strings.Map(lowerOnly, h) {
				continue
			}
			upper := strings.ToLower(h) != h
			got := n.WWWCutVerbatim(h, upper)
			if want := n.WWWCut(h, true, upper); got != want {
				t.Errorf("%s: wwwCutVerbatim(%q, %v) = %d, wwwCut %d", n.Name(), h, upper, got, want)
			}
			l := strings.ToLower(h)
			if i := strings.IndexByte(l, '.'); i >= 0 && !strings.HasSuffix(l, ".") && !normalize.MayBeAddr(l[i+1:]) {
				if want := ref.WWWCut(l, false, false); got != want {
					t.Errorf("%s: wwwCutVerbatim(%q, %v) = %d, the reference %d", n.Name(), h, upper, got, want)
				}
				if c := n.StripWWW(l); c != l[got:] {
					t.Errorf("%s: stripWWW(%q) on the general path = %q, the reference %q", n.Name(), l, c, l[got:])
				}
			}
			if got == 4 {
				fast++
			}
		}
		// What may be an IP address (a host of the profile's maps, which
		// stripWWW is asked about): its own suffix, kept.
		for _, h := range []string{"www.1.2.3.4", "www.127.0.0.1", "www.0x7f.0.0.1", "www.1.2.3.4.", "www.fe80::1%a.com"} {
			if got, want := n.StripWWW(h), ref.StripWWW(h); got != want {
				t.Errorf("%s: stripWWW(%q) = %q, the reference %q", n.Name(), h, got, want)
			}
		}
	}
	if fast < 10000 {
		t.Errorf("only %d www labels cut", fast)
	}
}

// lowerOnly lowercases ASCII letters only: a host whose strings.ToLower
// changes more (non-ASCII) is not a verbatim host.
func lowerOnly(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// TestWWWCutFreshTable: the quick www cuts build the suffix table before
// they read it (suffixTable.once), in a process where nothing has: the
// test binary run again for TestWWWCutFreshTableChild alone, whose first
// lookups are these cuts (an empty table would cut "www.co.uk").
func TestWWWCutFreshTable(t *testing.T) {
	for _, which := range []string{"general", "verbatim"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWWWCutFreshTableChild$", "-test.v")
		cmd.Env = append(os.Environ(), "URLNORM_FRESH_WWW="+which)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestWWWCutFreshTableChild") {
			t.Errorf("%s: %v\n%s", which, err, out)
		}
	}
}

func TestWWWCutFreshTableChild(t *testing.T) {
	which := os.Getenv("URLNORM_FRESH_WWW")
	if which == "" {
		t.Skip("run by TestWWWCutFreshTable")
	}
	n := normalize.MustLookup("normalize-url")
	for _, h := range []string{"www.co.uk", "www.example.com"} {
		want := map[bool]string{true: h, false: h[4:]}[h == "www.co.uk"]
		if which == "general" {
			if got := n.StripWWW(h); got != want {
				t.Errorf("stripWWW(%q) = %q, want %q", h, got, want)
			}
		} else if got := h[n.WWWCutVerbatim(h, false):]; got != want {
			t.Errorf("wwwCutVerbatim(%q) leaves %q, want %q", h, got, want)
		}
	}
}
