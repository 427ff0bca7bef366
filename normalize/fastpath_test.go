package normalize_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestFastPathsMatchReference: the fast paths (every switch of
// useReference: trim's skip, the scheme shortcut, plainAuthority,
// asciiHost, the path run copy, endsInNumber's quick reject, asParsed,
// bySegment, needParams, pctAny, the host-map length filter, the
// insertion sort) give exactly the output and the error (kind and reason)
// of the general code, for every built-in profile, the testdata/config
// profiles (per-host rules, path rules, rewrites) and variants that turn
// on the rules no built-in combines, over the shipped corpus with dirty
// variants, every WPT input, and mutations of them aimed at the conditions
// the fast paths test (userinfo, ports, escapes, empty segments, path
// parameters, trailing dots, case, IDNs).
func TestFastPathsMatchReference(t *testing.T) {
	inputs := corpusWithVariants(t)
	for _, c := range loadWPT(t, wptFile) {
		inputs = append(inputs, c.Input)
	}
	inputs = append(inputs, mutations(inputs, 60000)...)
	for _, fast := range referenceProfiles(t) {
		name := fast.Name()
		ref, err := normalize.NewReference(fast.Profile())
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for _, in := range inputs {
			got, gerr := fast.Normalize(in)
			want, werr := ref.Normalize(in)
			if got != want || errString(gerr) != errString(werr) {
				t.Errorf("%s: Normalize(%q)\n fast      %q, %v\n reference %q, %v", name, in, got, gerr, want, werr)
				if bad++; bad == 10 {
					t.FailNow()
				}
			}
		}
		t.Logf("%-22s %d inputs", name, len(inputs))
	}
}

// referenceProfiles returns the built-in profiles, the profiles of the
// testdata/config files, and variants of whatwg with the rules no
// built-in has, or has only together with others.
func referenceProfiles(t testing.TB) []*normalize.Normalizer {
	var out []*normalize.Normalizer
	for _, name := range normalize.Names() {
		out = append(out, normalize.MustLookup(name))
	}
	out = append(out,
		configNormalizer(t, "url_normalization_overrides.v0.json"),
		configNormalizer(t, "edge-gateway.yaml", "hosts.yaml"),
		configNormalizer(t, "clara-hosts.json", "clara-languages.json"))
	session := []normalize.ParamGroup{{Reason: "session", Patterns: []string{"jsessionid", "sid"}}}
	for _, v := range []struct {
		name string
		edit func(p *normalize.Profile)
	}{
		{"v-drop-empty", func(p *normalize.Profile) { p.Query = normalize.QueryRules{DropEmpty: true} }},                             // the query as one run
		{"v-query-order", func(p *normalize.Profile) { p.Query = normalize.QueryRules{Order: normalize.OrderKey, DropEmpty: true} }}, // drop_empty without drop_empty_pairs
		{"v-query-bare", func(p *normalize.Profile) { p.Query = normalize.QueryRules{BareEmptyValue: true, DropEmpty: true} }},
		{"v-path", func(p *normalize.Profile) {
			p.Path = normalize.PathRules{TrailingSlash: normalize.SlashRemove, CollapseSlashes: true, EmptyPathSlash: true, RemoveParams: session}
		}},
		{"v-host", func(p *normalize.Profile) {
			p.Host = normalize.HostRules{StripTrailingDot: true, Charset: normalize.CharsetDNS, RequireDot: true, LowercaseOpaque: true,
				Map: map[string]string{"example.com": "www.example.com", "a.b": "c.d"}}
		}},
		{"v-host-rfc3986", func(p *normalize.Profile) {
			p.Host = normalize.HostRules{Charset: normalize.CharsetRFC3986, StripTrailingDot: true}
		}},
		{"v-scheme", func(p *normalize.Profile) {
			p.Scheme = normalize.SchemeRules{Assume: "https", Upgrade: map[string]string{"http": "https", "ws": "wss"}}
			p.Port.Defaults = map[string]int{"https": 8443, "sc": 7}
		}},
		{"v-percent", func(p *normalize.Profile) { p.Percent = normalize.PercentRules{DecodeUnreserved: true} }},
		{"v-form", func(p *normalize.Profile) { p.Query = normalize.QueryRules{FormEncoding: true} }},
		{"v-lang-rewrite", func(p *normalize.Profile) { *p = langRewriteProfile(p.Name) }}, // per-pass state (issue 16.9)
		{"v-knobs-host", func(p *normalize.Profile) { // issue 15: host and authority knobs, on the fast path's conditions
			p.Host.StripWWW, p.Userinfo.Remove, p.Port.RemoveAll = normalize.StripWWWDigits, true, true
			p.Path.RemoveLoneRoot, p.Fragment.StripTextDirective = true, true
		}},
		{"v-knobs-path", func(p *normalize.Profile) {
			p.Path = normalize.PathRules{CollapseSlashes: true, KeepSchemeSlashes: true, Lowercase: true,
				RemoveCookieless: []normalize.ParamGroup{{Reason: "session", Patterns: []string{"S"}}}}
		}},
		{"v-knobs-decode", func(p *normalize.Profile) {
			p.Percent = normalize.PercentRules{DecodeRepeatedly: true}
			p.Query = normalize.QueryRules{FormEncoding: true, FormRaw: "!$()*,/:;=?@", Order: normalize.OrderKeyValue, SortDecoded: true,
				ExplicitEmptyValue: true, Lowercase: true}
		}},
	} {
		p := normalize.MustLookup("whatwg").Profile()
		p.Name = v.name
		v.edit(&p)
		n, err := normalize.New(p)
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		out = append(out, n)
	}
	return out
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// mutations returns n deterministic variants of random lines of base, each
// with one to four insertions of a piece that changes which path the
// normalizer takes, or a deletion.
func mutations(base []string, n int) []string {
	pieces := []string{"/", "//", "%", "%2F", "%2e", "%41", "%3B", ";", ";jsessionid=1", ".", "..", "/./", "/../",
		"?", "#", "&", "=", "@", "u:p@", ":", ":80", ":443", ":8080", ":21", ":0", ":99999", "\\", "[", "]", "[::1]",
		"A", "Z", "é", "xn--", ".", "..", "~", "+", " ", "\t", "HTTP://", "https://", "file://", "ws://", "0x7f.1",
		"www.", "www2.", "(S(a))", ":~:text=", "%2541", "%%36%31"}
	rng := rand.New(rand.NewPCG(8, 2026))
	out := make([]string, 0, n)
	for range n {
		s := base[rng.IntN(len(base))]
		for range 1 + rng.IntN(4) {
			p := rng.IntN(len(s) + 1)
			if rng.IntN(5) == 0 && p < len(s) {
				s = s[:p] + s[p+1:]
				continue
			}
			s = s[:p] + pieces[rng.IntN(len(pieces))] + s[p:]
		}
		out = append(out, strings.ToValidUTF8(s, "\uFFFD"))
	}
	return out
}

// TestFastPathUpgradeSameLength: a scheme upgrade to a scheme of the same
// length ("ftp" → "wss") is written too (the fast path once told an
// upgrade by the scheme's length and copied "ftp").
func TestFastPathUpgradeSameLength(t *testing.T) {
	p := normalize.MustLookup("whatwg").Profile()
	p.Name, p.Scheme.Upgrade = "upgrade-test", map[string]string{"ftp": "wss", "http": "https"}
	fast, err := normalize.New(p)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := normalize.NewReference(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{"ftp://example.com/a", "wss://example.com/a"},     // same length
		{"http://example.com/a", "https://example.com/a"},  // longer
		{"ftp://example.com:443/a", "wss://example.com/a"}, // port: general path, 443 is wss's default
	} {
		got, err := fast.Normalize(c.in)
		want, rerr := ref.Normalize(c.in)
		if err != nil || rerr != nil || got != c.want || want != c.want {
			t.Errorf("Normalize(%q) = %q, %v; reference %q, %v; want %q", c.in, got, err, want, rerr, c.want)
		}
	}
}
