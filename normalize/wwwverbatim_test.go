package normalize_test

import (
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestIsSuffixMatchesReference: isSuffix's quick no (a top-level rule
// without wildcard children whose child the filter rules out) and its
// fallback to the walk give x/net's answer, on the host alone and after
// "www." (whose dot may be the last one in the word isSuffix reads), for every host around every node
// of the list and the hosts of suffixHosts that are no IP address; and
// afterWWWIsSuffix gives it for the same hosts in uppercase (the copy
// lowercased on the stack, or by strings.ToLower past 64 bytes) and with
// trailing dots (an IPv4 address is its own suffix).
func TestIsSuffixMatchesReference(t *testing.T) {
	hosts := append(nodeHosts(), suffixHosts()...)
	hosts = append(hosts, "example.com", "co.uk", "kawasaki.jp", "x.kawasaki.jp", "city.kawasaki.jp", "x.ck", "ck",
		"github.io", "alice.github.io", "blogspot.com", "x.blogspot.com", "example", "a..com", "abcdefgh.com",
		"abcdefghijklmnopq.co.uk", "1.2.3.4", "1.2.3", "0x1.com", strings.Repeat("a", 70)+".com", strings.Repeat("a.", 40)+"uk")
	// A wildcard's child of 70 bytes: a public suffix longer than the
	// stack copy of afterWWWIsSuffix.
	for _, n := range normalize.SuffixNodes() {
		if n.Wildcard && len(n.Domain) < 60 {
			hosts = append(hosts, strings.Repeat("q", 69-len(n.Domain))+"."+n.Domain)
		}
	}
	quick := 0
	for _, h := range hosts {
		if h == "" || strings.HasSuffix(h, ".") {
			continue
		}
		want := normalize.IsPublicSuffixReference(h)
		if !normalize.MayBeAddr(h) {
			if got := normalize.IsSuffix(h, 0); got != want {
				t.Errorf("isSuffix(%q, 0) = %v, x/net %v", h, got, want)
			}
			if got := normalize.IsSuffix("www."+h, 4); got != want {
				t.Errorf("isSuffix(%q, 4) = %v, x/net %v", "www."+h, got, want)
			}
			if got := normalize.AfterWWWIsSuffix(strings.ToUpper(h), false, true); got != want {
				t.Errorf("afterWWWIsSuffix(%q, upper) = %v, x/net %v", strings.ToUpper(h), got, want)
			}
			if !want {
				quick++
			}
		}
		if got := normalize.AfterWWWIsSuffix(h, true, false); got != want {
			t.Errorf("afterWWWIsSuffix(%q, dots) = %v, x/net %v", h, got, want)
		}
	}
	if quick < 10000 {
		t.Errorf("only %d hosts that are no public suffix", quick)
	}
}

// wwwHosts are hosts around host.strip_www's boundaries on the verbatim
// path: a www label in any case, what follows it a public suffix (ICANN,
// private, wildcard, exception, the default rule), a www label again,
// www and digits, trailing dots, an IPv4 address after trailing dots,
// IDNs, short and long hosts (the suffix test's copy holds 64 bytes).
var wwwHosts = []string{
	"www.example.com", "WWW.Example.COM", "Www.example.com", "wWw.EXAMPLE.com", "www.EXAMPLE.COM",
	"www.co.uk", "WWW.CO.UK", "www.example.co.uk", "WWW.Example.Co.Uk", "www.com", "WWW.COM", "www.example", "WWW.EXAMPLE",
	"www.github.io", "WWW.GitHub.IO", "www.alice.github.io", "WWW.ALICE.GITHUB.IO", "www.blogspot.com", "www.x.blogspot.com",
	"www.kawasaki.jp", "www.x.kawasaki.jp", "WWW.X.KAWASAKI.JP", "www.city.kawasaki.jp", "WWW.CITY.Kawasaki.JP",
	"www.ck", "www.x.ck", "WWW.X.CK", "www.www.example.com", "www.www2.x.com", "WWW.WWW2.X.COM", "www.WWW.x.com",
	"www2.example.com", "WWW2.EXAMPLE.COM", "www12.Example.com", "www2a.example.com", "www.www12.x.com", "www1.www1a.example",
	"www.example.com.", "WWW.Example.Com.", "www.example.com..", "www.co.uk.", "WWW.CO.UK..", "www.1.2.3.4..", "WWW.1.2.3.4..",
	"www.1.2.3.4", "www.0x7f.1..", "www.xn--bcher-kva.de", "WWW.XN--BCHER-KVA.DE", "www.bücher.de", "www.localhost",
	"www.x.co", "WWW.T.CO", "www.ab.cd", "www.a..com", "www..com", "www.", "www", "WWW", "www.www", "wwwexample.com",
	"a", "A", "ab", "w", "W", "ww", // a port cut at 8 or 9 bytes (canon.append's word)
	"1.2.3.4", "127.0.0.1", "[::1]", "[2001:DB8::1]", "0x7f.1", // IP addresses: the general path
	"www-x.example.com", "a.www.example.com", "www.sub_domain.example.com", "www._x.com", "www.abcdefghijklmnopq.com",
	"www." + strings.Repeat("a", 60) + ".com", "WWW." + strings.Repeat("A", 60) + ".COM", "WWW." + strings.Repeat("A", 58) + ".CO.UK",
	"www." + strings.Repeat("ab.", 25) + "kawasaki.jp", "WWW." + strings.Repeat("AB.", 25) + "CO.UK",
}

// wwwInputs are URLs of the wwwHosts with the scheme in both cases, ports
// (the scheme's default, which canon cuts as it cuts the www label, and
// another), and paths, queries and fragments the rules edit.
func wwwInputs() []string {
	var out []string
	for _, h := range wwwHosts {
		for _, pre := range []string{"http://", "https://", "HTTPS://"} {
			for _, port := range []string{"", ":80", ":443", ":8080"} {
				for _, rest := range []string{"/", "/a/", "/a/b", "/a?b=1&a=2", "/a/?utm_source=x&b=1", "/#x", "/a#:~:text=x", "", "/A/B?B=1&a=2#F"} {
					out = append(out, pre+h+port+rest)
				}
			}
		}
	}
	return out
}

// wwwProfiles are normalize-url and whatwg with host.strip_www (both
// values) alone and with the rules around it on the verbatim path: a
// scheme upgrade, trailing dots stripped, require_dot, every port removed,
// a host map (whose lookups refuse an uppercase host).
func wwwProfiles(t testing.TB) []*normalize.Normalizer {
	ns := []*normalize.Normalizer{normalize.MustLookup("normalize-url")}
	for _, www := range []string{normalize.StripWWWLabel, normalize.StripWWWDigits} {
		ns = append(ns, whatwgWith(t, []profileEdit{
			{"www-" + www, func(p *normalize.Profile) { p.Host.StripWWW = www }},
			{"www-upgrade-" + www, func(p *normalize.Profile) {
				p.Host.StripWWW = www
				p.Scheme = normalize.SchemeRules{Upgrade: map[string]string{"http": "https"}}
				p.Fragment = normalize.FragmentRules{Remove: true}
			}},
			{"www-dots-" + www, func(p *normalize.Profile) {
				p.Host = normalize.HostRules{StripWWW: www, StripTrailingDot: true, RequireDot: true}
			}},
			{"www-ports-" + www, func(p *normalize.Profile) {
				p.Host.StripWWW, p.Port.RemoveAll = www, true
				p.Path.TrailingSlash = normalize.SlashRemove
			}},
			{"www-map-" + www, func(p *normalize.Profile) {
				p.Host.StripWWW = www
				p.Host.Map = map[string]string{"example.com": "example.org", "x.co": "y.co"}
			}},
		})...)
	}
	return ns
}

// TestWWWVerbatimMatchesReference: on the wwwInputs, normalize-url and the
// wwwProfiles give the reference's output and error (the general path,
// whose strip_www asks isPublicSuffix of the lowercased host) through
// Normalize, AppendNormalized and Hash.
func TestWWWVerbatimMatchesReference(t *testing.T) {
	matchReference(t, wwwProfiles(t), wwwInputs())
}

// TestWWWVerbatimTaken: the verbatim path answers for a host with a www
// label in uppercase (an edit: the label cut, the rest lowercased), and
// for a host that keeps it, under normalize-url, also with the scheme's
// default port (a second cut) unless a third edit follows; a profile with host
// lookups leaves an uppercase host to the general path.
func TestWWWVerbatimTaken(t *testing.T) {
	nu := normalize.MustLookup("normalize-url")
	for _, c := range []struct{ in, path string }{
		{"https://www.example.com/a", "edit"},
		{"https://WWW.Example.COM/a", "edit"},
		{"HTTPS://www.example.com/a", "edit"},
		{"https://WWW.CO.UK/a", "edit"}, // lowercased, kept
		{"https://www.co.uk/a", "same"},
		{"https://WWW.WWW.EXAMPLE.COM/a", "edit"},
		{"https://WWW." + strings.Repeat("A", 70) + ".COM/a", "edit"}, // the copy past 64 bytes
		{"https://example.com/a", "same"},
		{"https://www.example.com:443/a", "edit"}, // two cuts: the www label and the default port
		{"HTTP://WWW.EXAMPLE.COM:80/a#x", "edit"},
		{"https://www.example.com:443/a/?b=1", "refused"},    // and a slash before the query: three
		{"https://www.example.com:443/a?b=1&a=2", "refused"}, // and a reordered query
		{"https://www.example.com:443/a?a=1&b=2", "edit"},
	} {
		if got := normalize.RowPath(nu, c.in); got != c.path {
			t.Errorf("normalize-url: %q takes %q, want %q", c.in, got, c.path)
		}
	}
	m := wwwProfiles(t)[5] // www-map-www
	if got := normalize.RowPath(m, "https://WWW.Example.COM/a"); got != "refused" {
		t.Errorf("%s: an uppercase host takes %q, want refused", m.Name(), got)
	}
}

// FuzzIsSuffix holds isSuffix (on the host alone and after "www.") and
// afterWWWIsSuffix (uppercase, trailing dots) to x/net, as FuzzSuffixLens
// holds the walk: a fuzzed label before, and instead of, a node of the
// list, its parent, or the node with a trailing dot.
func FuzzIsSuffix(f *testing.F) {
	for i, h := range wwwHosts {
		f.Add(strings.TrimPrefix(strings.ToLower(h), "www."), uint16(i))
	}
	nodes := normalize.SuffixNodes()
	f.Fuzz(func(t *testing.T, s string, pick uint16) {
		n := nodes[int(pick)%len(nodes)].Domain
		_, parent, _ := strings.Cut(n, ".")
		for _, h := range []string{s, s + "." + n, s + n, s + "." + parent, n} {
			h = strings.TrimRight(h, ".")
			if h == "" || h[0] == '.' || strings.ContainsAny(h, ":%") {
				continue // not what follows a www label (wwwCut), or may be an IPv6 address
			}
			want := normalize.IsPublicSuffixReference(h)
			if got := normalize.AfterWWWIsSuffix(h, true, false); got != want {
				t.Fatalf("afterWWWIsSuffix(%q, dots) = %v, x/net %v", h, got, want)
			}
			if normalize.MayBeAddr(h) {
				continue
			}
			if got := normalize.IsSuffix(h, 0); got != want {
				t.Fatalf("isSuffix(%q, 0) = %v, x/net %v", h, got, want)
			}
			if got := normalize.IsSuffix("www."+h, 4); got != want {
				t.Fatalf("isSuffix(%q, 4) = %v, x/net %v", "www."+h, got, want)
			}
			if u := strings.ToUpper(h); strings.ToLower(u) == h {
				if got := normalize.AfterWWWIsSuffix(u, false, true); got != want {
					t.Fatalf("afterWWWIsSuffix(%q, upper) = %v, x/net %v", u, got, want)
				}
			}
		}
	})
}
