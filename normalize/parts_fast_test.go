package normalize_test

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// The shortcuts of the part functions (issue 18, the parts' sixth round)
// held to the slow references: a URL's domain parts to x/net's answer for
// its host, through the full lookup (publicSuffixLen with its look for an
// IP address, suffixLens' ICANN walks), which the accessors skip.

// referenceDomainParts returns the parts of host (a URL's domain) by
// golang.org/x/net/publicsuffix (ComputeSuffixLens), cut as the URL
// Standard cuts them: a trailing dot stays on the parts that end the
// domain, and a domain with an empty last label has none.
func referenceDomainParts(host string, list normalize.SuffixList) normalize.DomainParts {
	name := strings.TrimSuffix(host, ".")
	if name == "" || strings.HasSuffix(name, ".") {
		return normalize.DomainParts{}
	}
	l := normalize.ComputeSuffixLens(name)
	n := l.All()
	if list == normalize.ICANNSuffixes {
		n = l.ICANN()
	}
	d := normalize.DomainParts{PublicSuffix: host[len(name)-n:]}
	if i := len(name) - n; i > 0 {
		j := strings.LastIndexByte(name[:i-1], '.')
		if j+2 != i { // the label before the suffix is not empty
			d.RegistrableDomain = host[j+1:]
			if j > 0 {
				d.Subdomain = host[:j]
			}
		}
	}
	return d
}

// checkDomainParts fails t when u's domain parts differ from x/net's, or
// when u has a domain that net/netip takes for an IP address (the lookup
// skips that test for a URL's domain: suffixWalk).
func checkDomainParts(t testing.TB, s string, u *normalize.URL) {
	t.Helper()
	if u.HostKind() != normalize.HostDomain {
		return
	}
	host := u.Host()
	if _, err := netip.ParseAddr(strings.TrimSuffix(host, ".")); err == nil {
		t.Fatalf("%q: the domain %q is an IP address for net/netip", s, host)
	}
	for _, list := range []normalize.SuffixList{normalize.AllSuffixes, normalize.ICANNSuffixes} {
		got, want := u.DomainParts(list), referenceDomainParts(host, list)
		if got != want {
			t.Fatalf("%q: DomainParts(%v) = %+v, x/net %+v", s, list, got, want)
		}
		if list == normalize.AllSuffixes &&
			(u.PublicSuffix() != want.PublicSuffix || u.RegistrableDomain() != want.RegistrableDomain || u.Subdomain() != want.Subdomain) {
			t.Fatalf("%q: accessors %q %q %q, x/net %+v", s, u.PublicSuffix(), u.RegistrableDomain(), u.Subdomain(), want)
		}
	}
}

// TestDomainIsNoAddr: the domain parts of every URL of the corpus and its
// variants, WPT, the verbatim seeds and hosts that look like IP addresses
// (which the URL parser takes as IPv4 addresses or refuses) are x/net's.
func TestDomainIsNoAddr(t *testing.T) {
	var p normalize.Parser
	inputs := parseInputs(t,
		"http://1.2.3.4./", "http://1.2.3.4../", "http://0x7f.1/", "http://1.2.3.09/", "http://a.1.2.3.4/",
		"http://1.2.3.4.com/", "http://v6.2001.db8/", "http://fe80.a/", "http://::1/", "http://[::1]/",
		"http://abcd.1/", "http://1.a/", "http://a..b.com/", "http://.com/", "http://com./", "http://../",
	)
	for _, host := range suffixHosts() {
		inputs = append(inputs, "http://"+host+"/", "sc://"+host+"/")
	}
	domains := 0
	for _, s := range inputs {
		u, err := p.ParseAuthority(s)
		if err != nil {
			continue
		}
		if u.HostKind() == normalize.HostDomain {
			domains++
		}
		checkDomainParts(t, s, u)
	}
	if domains < 1000 {
		t.Fatalf("only %d domains checked", domains)
	}
}
