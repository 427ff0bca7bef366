package normalize_test

import (
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// endKeys are host-map keys that end in each kind of byte a verbatim host
// may end in (a letter, a digit, '-', '_') and that are 62, 63, 64 and 70
// bytes long (hostEnds reads lengths modulo 64).
var endKeys = []string{
	"e.example", "x.ab1", "x.ab-", "x.ab_", "q.z",
	strings.Repeat("d", 54) + ".example", strings.Repeat("d", 55) + ".example",
	strings.Repeat("d", 56) + ".example", strings.Repeat("d", 62) + ".example",
}

// endHosts returns the hosts a URL may write for the key k: k in each
// case of upperCases, and near misses of the same length and last byte
// (the filter lets them through), of a last byte one off, in case or not,
// and one byte shorter or longer.
func endHosts(k string) []string {
	last := k[len(k)-1]
	out := upperCases(k)
	return append(out, "y"+k[1:], k[:len(k)-1]+string(last+1), k[:len(k)-1]+string(last^0x20),
		k[:len(k)-1], k+"x", "a"+k, strings.ToUpper("y"+k[1:]))
}

// endProfiles looks up endKeys in host.map, in per-host rules and as
// language hosts, each alone (each map fills hostEnds on its own), and
// in host.map with host.strip_www.
func endProfiles(t testing.TB) []*normalize.Normalizer {
	m := map[string]string{}
	var hosts []normalize.HostRule
	var langs []normalize.LanguageHost
	for _, k := range endKeys {
		m[k] = "mapped.example"
		hosts = append(hosts, normalize.HostRule{Host: k, Tracking: &normalize.ParamSet{Params: []string{"utm_*"}}})
		langs = append(langs, normalize.LanguageHost{Host: k, Segment: 0, Languages: []string{"es", "ca"}})
	}
	return whatwgWith(t, []profileEdit{
		{"ends-map", func(p *normalize.Profile) { p.Host.Map = m }},
		{"ends-map-www", func(p *normalize.Profile) { p.Host.Map = m; p.Host.StripWWW = normalize.StripWWWLabel }},
		{"ends-hosts", func(p *normalize.Profile) { p.Hosts = hosts }},
		{"ends-language", func(p *normalize.Profile) {
			p.Language = &normalize.Language{Preferred: "es", Hosts: langs}
		}},
	})
}

// TestHostEndsMatchesReference: URLs whose host is a key of a host map,
// in any case, or a near miss of one, give the reference's output under
// endProfiles, clara and upperProfiles (verbatimCanon tests hostEnds
// first and asks hostCut only when it lets the host through).
func TestHostEndsMatchesReference(t *testing.T) {
	var inputs []string
	keys := append(append([]string{}, endKeys...), upperHosts...)
	for _, k := range keys {
		for _, h := range endHosts(k) {
			for _, scheme := range []string{"http", "https", "HTTP"} {
				for _, tail := range []string{"/", "/ca/x", "/x?utm_source=1&a=2"} {
					inputs = append(inputs, scheme+"://"+h+tail)
				}
			}
		}
	}
	ns := append(endProfiles(t), upperProfiles(t)...)
	ns = append(ns, normalize.MustLookup("clara"))
	matchReference(t, ns, inputs)
}
