package normalize_test

import (
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// canonCheckSeeds are verbatim URLs on each boundary of the checks
// verbatimCanon skips or answers early (issue 18, "default's canonical
// check"): where a '%' is searched (pctKept: a path that is not plain, a
// query the rules do not split, a fragment that is kept; not a query
// queryKept reads, nor a fragment that goes), hosts whose last label
// endsInNumber's quick answer reads (hex digits after "0x", a label that
// ends in a-f or 'x' and is not a number), and the length bound that only
// an upgrade can pass.
var canonCheckSeeds = []string{
	"https://example.com/a%41b",          // a '%' in the path: not plain
	"https://example.com/a%7e/",          // and a trailing slash
	"https://example.com/a%2",            // a stray '%'
	"https://example.com/%zz?b=1&a=2",    // a stray '%' before a sorted query
	"https://example.com/a?b=%41&a=1",    // a '%' in a query the rules split (queryKept refuses it)
	"https://example.com/?a=%7e",         // decode_unreserved in a kept query
	"https://example.com/?a=%7E#f",       // and a fragment
	"https://example.com/a#%41",          // a '%' in a fragment: removed by default, kept by whatwg
	"https://example.com/a#%zz",          // a stray '%' in a fragment
	"https://example.com/a/#%2",          // a trailing slash before it
	"https://example.com/a?b=1#%41",      // a query and a fragment with '%'
	"https://example.com/a?x%41=1#f%41",  // a '%' in both
	"https://example.com/a?b=2&a=1#%7e",  // a sorted query before it
	"https://example.com/a?q=%#",         // a '%' at the query's end, an empty fragment
	"https://example.com/%/?#%",          // '%' everywhere
	"https://example.com/a;b%41",         // a ';' and a '%' (not plain)
	"https://example.com//a%41",          // "//" and a '%'
	"https://example.de/a",               // a last label that ends in a hex letter
	"https://example.cafe/",              // hex letters only
	"https://a.fx/",                      // ends in 'x'
	"https://a.0x/",                      // "0x": a number (0)
	"https://0x/a",                       // the whole host is "0x"
	"https://a.0x1f/a",                   // "0x" and hex digits: a number
	"https://a.0X1F/a",                   // uppercase
	"https://A.0XaB/a",                   // mixed
	"https://a.0x1f./a",                  // a trailing dot
	"https://a.00x1f/a",                  // "00x1f": octal, not a number
	"https://a.x0x1f/a",                  // not a number
	"https://a.b0xf/a",                   // "0x" not at the label's start
	"https://a.0xf0xf/a",                 // a second 'x'
	"https://a.-0xf/a",                   // '-' before "0x"
	"https://a.0x.0xf/a",                 // a number after a label "0x"
	"https://0xc0a80001/a",               // a hex IPv4 address
	"https://1.0xe/a",                    // an IPv4 address with a hex part
	"https://a.0x1g/a",                   // a 'g' after "0x"
	"https://a._0xf/a",                   // '_' before "0x"
	"http://www.example.com:80/a/?b#%41", // www, default port, a trailing slash and a '%' after
	// host.strip_www's suffix test (isPublicSuffix: publicSuffixLen's
	// length alone) with trailing dots and private suffixes, whose ICANN
	// suffix differs.
	"http://www.github.io/", "http://www.alice.github.io/", "http://www.github.io../",
	"http://www.co.uk../", "http://www.com./", "http://www.example.com../",
	"http://www.x.blogspot.com/", "http://www.blogspot.com./", "http://www.example/",
	"https://a.example/ca/x", // a language segment (v-language-only: the host lookup is the only rule)
	"https://a.example/es/x?b=1",
	"https://r.example/old/x", // a per-host rewrite (v-host-rules-only)
	"https://r.example/?utm_source=x&a=1",
	"https://intranet/a", // host.require_dot (v-require-dot-only)
	// require_dot's word test: a dot in the 8 bytes that end the host (one
	// word, which starts in "https://" for a shorter host), only before
	// them (noDot's search), none in a host of 8 or more bytes or of
	// fewer, and localhost.
	"https://abcdefg.h/", "https://a.bcdefgh/", "https://a.bcdefghij/", "https://ab.cdefghijklmnop/",
	"https://abcdefghij/", "https://abcdefgh/", "https://abc/", "https://localhost/", "https://LocalHost/",
	"https://localhost/a",
	"https://LocalHost/a",
	"https://Intranet./a", // and a trailing dot
	"https://a.b./a",
	// hostChanges' one length test on the union of the host maps' key
	// lengths: keys of clara's host.map and of a language host, a host of
	// a key's length that is no key, and hosts of lengths no key has.
	"https://boe.es/x", "https://xoe.es/x", "https://sepe.es/", "https://comunidad.madrid/a",
	"https://a.example.com/ca/x", "https://b.example/es/x", "https://boe.e/", "https://boe.ess/",
}

// canonCheckProfiles are the rules combined around pctKept that no
// built-in has: percent rules with the fragment removed and the query
// kept as it is, with the query split and the fragment kept, and with a
// scheme upgrade (the length bound); and languages as the only host
// lookup (hostChanges asks a profile's three host maps or none).
func canonCheckProfiles(t testing.TB) []*normalize.Normalizer {
	return whatwgWith(t, []profileEdit{
		{"v-pct-fragment-removed", func(p *normalize.Profile) {
			p.Percent = normalize.PercentRules{UppercaseHex: true, EncodeStray: true}
			p.Fragment = normalize.FragmentRules{Remove: true}
		}},
		{"v-pct-query-split", func(p *normalize.Profile) {
			p.Percent = normalize.PercentRules{DecodeUnreserved: true}
			p.Query = normalize.QueryRules{Order: normalize.OrderPair}
		}},
		{"v-pct-upgrade", func(p *normalize.Profile) {
			p.Percent = normalize.PercentRules{EncodeStray: true}
			p.Scheme = normalize.SchemeRules{Upgrade: map[string]string{"http": "https"}}
			p.Fragment = normalize.FragmentRules{Remove: true}
			p.Limits = normalize.Limits{MaxLength: 64}
		}},
		{"v-host-rules-only", func(p *normalize.Profile) {
			p.Hosts = []normalize.HostRule{{Host: "r.example", Tracking: &normalize.ParamSet{Params: []string{"utm_*"}},
				Rewrite: []normalize.Rewrite{{FromPrefix: "https://r.example/old/", ToPrefix: "https://r.example/new/"}}}}
		}},
		{"v-require-dot-only", func(p *normalize.Profile) { p.Host = normalize.HostRules{RequireDot: true} }},
		{"v-language-only", func(p *normalize.Profile) {
			p.Language = &normalize.Language{Preferred: "es", Hosts: []normalize.LanguageHost{{Host: "a.example", Segment: 0, Languages: []string{"es", "ca"}}}}
		}},
	})
}

// TestCanonCheckMatchesReference: on the seeds and their case and port
// variants, every built-in profile and the combinations above give the
// reference's output and error (matchReference: Normalize,
// AppendNormalized and Hash).
func TestCanonCheckMatchesReference(t *testing.T) {
	inputs := append([]string(nil), canonCheckSeeds...)
	for _, s := range canonCheckSeeds {
		inputs = append(inputs, "HTTP"+s[4:], s+"/", s+"#", s+"?", s+"?b=1&a=%41")
	}
	ns := canonCheckProfiles(t)
	for _, name := range normalize.Names() {
		ns = append(ns, normalize.MustLookup(name))
	}
	matchReference(t, ns, inputs)
}
