package normalize_test

import (
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// upperHosts are hosts of clara's host.map and language hosts, the
// profiles below' keys, hosts of a key's length that are no key, and
// hosts one byte longer or shorter: what hostChanges looks up.
var upperHosts = []string{
	"boe.es", "sepe.es", "seg-social.es", "agenciatributaria.es", "comunidad.madrid",
	"web.gencat.cat", "euskadi.eus", "www.boe.es", "www.sepe.es",
	"xoe.es", "boe.e", "boe.ess", "boe.es.", "a.boe.es", "example.com", "www.example.com",
	"r.example", "a.example", "m.example", "www.m.example", "www2.m.example", "q.example",
	// 64 bytes (hostChangesUpper's copy) and 65, as keys of upperProfiles'
	// map and not.
	strings.Repeat("k", 56) + ".example", strings.Repeat("k", 57) + ".example",
	strings.Repeat("j", 56) + ".example", strings.Repeat("j", 57) + ".example",
}

// upperCases returns h in the cases a URL may write it: as it is, all
// upper, its first, last and a middle byte upper, every other byte upper.
func upperCases(h string) []string {
	up := func(i int) string { return h[:i] + strings.ToUpper(h[i:i+1]) + h[i+1:] }
	alt := []byte(h)
	for i := 0; i < len(alt); i += 2 {
		if 'a' <= alt[i] && alt[i] <= 'z' {
			alt[i] -= 0x20
		}
	}
	return []string{h, strings.ToUpper(h), up(0), up(len(h) - 1), up(len(h) / 2), string(alt)}
}

// upperProfiles: a host map (with a key of 64 bytes), per-host rules and
// languages alone and together, with host.strip_www, so that each of
// hostChanges' three lookups is the one that answers.
func upperProfiles(t testing.TB) []*normalize.Normalizer {
	long := strings.Repeat("k", 56) + ".example"
	return whatwgWith(t, []profileEdit{
		{"g22-map", func(p *normalize.Profile) {
			p.Host.Map = map[string]string{"m.example": "www.m.example", long: "l.example", "a.example": "b.example"}
		}},
		{"g22-map-www", func(p *normalize.Profile) {
			p.Host.Map = map[string]string{"m.example": "q.example", long: "l.example"}
			p.Host.StripWWW = normalize.StripWWWDigits
		}},
		{"g22-hosts", func(p *normalize.Profile) {
			p.Hosts = []normalize.HostRule{{Host: "r.example", Tracking: &normalize.ParamSet{Params: []string{"utm_*"}},
				Rewrite: []normalize.Rewrite{{FromPrefix: "https://r.example/old/", ToPrefix: "https://r.example/new/"}}}}
		}},
		{"g22-language", func(p *normalize.Profile) {
			p.Language = &normalize.Language{Preferred: "es", Hosts: []normalize.LanguageHost{{Host: "a.example", Segment: 0, Languages: []string{"es", "ca"}}}}
		}},
	})
}

// TestHostChangesUpperMatchesReference: URLs whose scheme or host has
// uppercase letters (hostChangesUpper looks the host up lowercased where
// hostChanges refused it) give the reference's output under clara, the
// built-ins with host lookups and upperProfiles, for every host of
// upperHosts in every case of upperCases, with paths that a language
// rule, a rewrite or a per-host tracking list changes.
func TestHostChangesUpperMatchesReference(t *testing.T) {
	var inputs []string
	for _, h := range upperHosts {
		for _, c := range upperCases(h) {
			for _, scheme := range []string{"https", "http", "HTTPS", "Http"} {
				for _, tail := range []string{"/", "/x", "/ca/x", "/es/x?b=1", "/old/x", "/a/ca/x", "/?utm_source=x&a=1", "/a/#f"} {
					inputs = append(inputs, scheme+"://"+c+tail)
				}
			}
		}
	}
	ns := upperProfiles(t)
	for _, name := range []string{"clara", "default", "normalize-url", "edge-gateway"} {
		ns = append(ns, normalize.MustLookup(name))
	}
	matchReference(t, ns, inputs)
}
