package normalize_test

import (
	"fmt"
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
	inputs = append(inputs, verbatimSeeds...)
	inputs = append(inputs, querySeeds...)
	inputs = append(inputs, reorderSeeds...)
	inputs = append(inputs, canonCheckSeeds...)
	inputs = append(inputs, rowSeeds...)
	// limits.max_params (1000) on a verbatim URL: 1000 and 1001 pieces.
	inputs = append(inputs, "https://example.com/?"+strings.Repeat("&", 999), "https://example.com/?"+strings.Repeat("&", 1000),
		"https://example.com/?"+strings.Repeat("a=1&", 1000)+"#f")
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
	out = append(out, rowProfiles(t)...) // order pair and each rule that reads a key (queryKept's keyless)
	session := []normalize.ParamGroup{{Reason: "session", Patterns: []string{"jsessionid", "sid"}}}
	out = append(out, whatwgWith(t, []profileEdit{
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
		{"v-query-kept-form", func(p *normalize.Profile) { // queryKept: '+' written "%20", "k=" written "k"
			p.Query = normalize.QueryRules{FormEncoding: true, FormSpace: "%20", Order: normalize.OrderKey, BareEmptyValue: true, DropEmptyPairs: true}
		}},
		{"v-query-kept-raw", func(p *normalize.Profile) { // queryKept: '=' raw in values, '+' a space written '+'
			p.Query = normalize.QueryRules{FormEncoding: true, FormRaw: "=:", Order: normalize.OrderKeyValue, DropEmpty: true}
		}},
		{"v-query-kept-lower", func(p *normalize.Profile) { // queryKept: uppercase letters, "k" written "k="
			p.Query = normalize.QueryRules{Lowercase: true, Order: normalize.OrderPair, ExplicitEmptyValue: true}
		}},
		{"v-query-kept-remove", func(p *normalize.Profile) { // queryKept: a removed key, query.keep, pagination
			p.Query = normalize.QueryRules{Order: normalize.OrderKey, DropEmpty: true,
				Remove: []normalize.ParamGroup{{Reason: "tracking", Patterns: []string{"utm_*", "id*", "~^x$"}}}, Keep: []string{"id"}}
			p.Pagination = &normalize.Pagination{Params: []string{"page"}}
		}},
		{"v-knobs-decode", func(p *normalize.Profile) {
			p.Percent = normalize.PercentRules{DecodeRepeatedly: true}
			p.Query = normalize.QueryRules{FormEncoding: true, FormRaw: "!$()*,/:;=?@", Order: normalize.OrderKeyValue, SortDecoded: true,
				ExplicitEmptyValue: true, Lowercase: true}
		}},
	})...)
	return append(out, canonCheckProfiles(t)...)
}

// profileEdit names a change to the whatwg profile.
type profileEdit struct {
	name string
	edit func(p *normalize.Profile)
}

// whatwgWith compiles the whatwg profile with each edit.
func whatwgWith(t testing.TB, edits []profileEdit) []*normalize.Normalizer {
	var out []*normalize.Normalizer
	for _, v := range edits {
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

// fastAndReference compiles p with its fast paths and without.
func fastAndReference(t *testing.T, p normalize.Profile) (fast, ref *normalize.Normalizer) {
	t.Helper()
	fast, err := normalize.New(p)
	if err != nil {
		t.Fatal(err)
	}
	if ref, err = normalize.NewReference(p); err != nil {
		t.Fatal(err)
	}
	return fast, ref
}

// TestFastPathUpgradeSameLength: a scheme upgrade to a scheme of the same
// length ("ftp" → "wss") is written too (the fast path once told an
// upgrade by the scheme's length and copied "ftp").
func TestFastPathUpgradeSameLength(t *testing.T) {
	p := normalize.MustLookup("whatwg").Profile()
	p.Name, p.Scheme.Upgrade = "upgrade-test", map[string]string{"ftp": "wss", "http": "https"}
	fast, ref := fastAndReference(t, p)
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

// querySeeds are verbatim URLs on each boundary of queryKept (query.go):
// the rules leave the query as it is, or just do not.
var querySeeds = []string{
	"https://example.com/?a=1&b=2",   // in every order
	"https://example.com/?b=2&a=1",   // not in order
	"https://example.com/?a=2&a=1",   // in key order only
	"https://example.com/?a=1&a=2",   // in key_value order
	"https://example.com/?a&a=",      // "k" before "k=" (key_value)
	"https://example.com/?a=&a",      //
	"https://example.com/?a=1&ab=1",  // pair order: '=' before 'b'
	"https://example.com/?ab=1&a=1",  //
	"https://example.com/?a.b=1&a=1", // pair order: '.' before '='
	"https://example.com/?a=1&&b=2",  // an empty parameter
	"https://example.com/?&a=1",
	"https://example.com/?a=1&",
	"https://example.com/?&",
	"https://example.com/?a=",    // bare_empty_value
	"https://example.com/?a",     // explicit_empty_value
	"https://example.com/?=1",    // an empty key
	"https://example.com/?=",     //
	"https://example.com/?a=b=c", // '=' in a value (form encoding)
	// nextPiece's boundaries, where its rules meet (issue 18: one piece reader)
	"https://example.com/?&&",         // only empty parameters (drop_empty_pairs)
	"https://example.com/?==",         // an empty key, '=' in the value: form encoding, not bare_empty_value
	"https://example.com/?a==",        //
	"https://example.com/?=&a=1",      // "=" written "" under bare_empty_value, then dropped
	"https://example.com/?b&a",        // "k" out of order (explicit_empty_value)
	"https://example.com/?a&a=&a=1&a", // duplicates: "k", "k=", "k=v"
	"https://example.com/?b=1&a=b=c",  // '=' in a value out of order
	"https://example.com/?a+b=c+d",    // '+', a space under form encoding
	"https://example.com/?a=b+c&a=b",
	"https://example.com/?a=b&a=b+c",
	"https://example.com/?A=1&a=1", // query.lowercase
	"https://example.com/?a=B",     //
	"https://example.com/?a=%41",   // an escape
	"https://example.com/?a=%",     //
	"https://example.com/?a=1;b=2", // bytes form encoding encodes
	"https://example.com/?a=~-._*!$'(),;:@/?",
	"https://example.com/?a=1&b=2#f", // a fragment
	"https://example.com/?b=2&a=1#f",
	"https://example.com/a/?a=1",            // a trailing slash before a query
	"https://example.com?a=1&b=2",           // no path
	"HTTPS://EXAMPLE.COM/?a=1&b=2",          // an uppercase host
	"https://www.example.com/?a=1&b=2",      // a www label
	"https://example.com:443/?a=1&b=2",      // a default port
	"https://example.com/?utm_source=x&z=1", // tracking parameters
	"https://example.com/?page=2&z=1",
	"https://example.com/?a=1&utm_medium=x",   // a removed key last (queryKept asks query.remove and pagination)
	"https://example.com/?id=1&sid=2",         // clara: a session id
	"https://example.com/?JSESSIONID=1&a=2",   // in any case
	"https://example.com/?a=1&mysessionkey=1", // clara's regexp
	"https://example.com/?ASPSESSIONIDxy=1",   // a glob
	"https://example.com/?codigo=1&p=2",       // pagination
	"https://example.com/?a=1&p",              // pagination without a value
	"https://example.com/?id=1&idx=2",         // v-query-kept-remove: query.keep overrules the group for id
	"https://example.com/?idx=1",
	"https://example.com/?x=1&y=1",
	"https://example.com/?y=1&page",
	"https://example.com/?a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9&j=10&k=11&l=12&m=13&n=14", // more than the insertion sort takes
	"https://example.com/?a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9&j=10&k=11&l=12&n=14&m=13",
}

// verbatimSeeds are inputs on each boundary of the verbatim scan
// (verbatim.go): the serialization of each is, or just is not, the input.
var verbatimSeeds = []string{
	"https://example.com/a/b?q=1#f", // verbatim
	"http://example.com/",           // verbatim, root path
	"https://Example.com/a",         // uppercase host byte
	"https://example.COM/a",
	"HTTPS://EXAMPLE.COM/A",
	"HtTp://ExAmPlE.CoM:8080/A?B#C",
	"HTTP://EXAMPLE.COM:80/a",
	"HTTPS://EXAMPLE.COM:443/a",
	"https://0X7F.1/a",
	"https://A.0XAB/a",
	"https://a.0xAB/a",
	"https://A.B.C.XN--POKXNCVKS/",
	"https://xn--bcher-kva.example/a", // an ASCII xn-- label stays as it is
	"https://xn--/a",
	"https://a.b.c.xn--pokxncvks/",
	"https://example.123/a", // the last label is a number
	"https://1.2.3.4/a",
	"https://0x7f.1/a", // a hex number
	"https://a.0x/a",
	"https://a.0xg/a",
	"https://a.b.09/",           // not a number, not IPv4: an error
	"https://example.com:443/a", // default port: left out
	"http://example.com:80/a",
	"https://www.example.com:443/a/?q#f", // and a www label (normalize-url: two cuts)
	"https://example.com:443/",
	"https://example.com:0443/a",
	"https://example.com:443",
	"http://example.com:80?q",
	"http://Example.com:80/a/b/#f",
	"http://example.com:443/a", // not http's default
	"https://example.com:80/a",
	"https://example.com:0/a",
	"https://example.com:00/a", // a leading zero
	"https://example.com:08080/a",
	"https://example.com:65535/a",
	"https://example.com:65536/a",
	"https://example.com:123456/a",
	"https://example.com:/a", // an empty port
	"https://example.com:8a/a",
	"https://example.com",    // no path: the serializer adds "/"
	"https://example.com?q",  // no path, a query
	"https://example.com#f",  // no path, a fragment
	"https://example.com./a", // a trailing dot
	"https://example.com../a",
	"https://.example.com/a",
	"https://a..b/a",
	"https://a_b.example/a",
	"https://a~b.example/a",
	"https://a%2eb/a", // '%' in the host
	"https://u@example.com/a",
	"https://u:p@example.com/a",
	"https://[::1]/a",
	"https://example.com/a/%2e/b", // dot segments
	"https://example.com/a/%2E%2e/b",
	"https://example.com/a/./b",
	"https://example.com/a/../b",
	"https://example.com/a/.",
	"https://example.com/a/..",
	"https://example.com/a/.%2e?q",
	"https://example.com/.well-known/x", // a segment that starts with '.', not a dot segment
	"https://example.com/..a/x",
	"https://example.com/%41/x", // a segment that starts with '%'
	"https://example.com/a%zz",
	"https://example.com/a;b=1/c",
	"https://example.com//a", // an empty first segment
	"https://example.com/a//b",
	"https://example.com/a\\b", // '\' is a slash in a special URL
	"https://example.com\\a",
	"https://example.com/a\tb", // tab and newline are removed
	"https://exam\nple.com/a",
	"https://example.com/a\r",
	"https://example.com/a ",
	" https://example.com/a",
	"https://example.com/a?", // an empty query
	"https://example.com/a#", // an empty fragment
	"https://example.com/a?#",
	"https://example.com/a?q'",  // ' is in the special-query set
	"https://example.com/a?q#'", // but not in the fragment set
	"https://example.com/a#f#g",
	"https://example.com/a#f?g",
	"https://example.com/a?b?c",
	"https://example.com/é",
	"HTTPS://example.com/a",
	"https:/example.com/a",
	"https:example.com/a",
	"https:///example.com/a",
	"ws://example.com/a",
	"https:///a",
	"https://",
	"https://:80/a",
	// A verbatim scheme and authority before a rest that is not (preAuth:
	// the parser takes them from the scan and parses the rest): with an
	// uppercase host, a default or other port, and a rest with a dot
	// segment, a byte to encode, '\', tab, newline, trailing spaces.
	"HTTPS://EXAMPLE.COM:443/a/../b?Q#F",
	"http://Example.com:80/./a/%2e%2E/b",
	"https://example.com:8080/a b/../c",
	"https://example.com/a/\t../b",
	"https://example.com/a\\..\\b",
	"https://example.com/a/..\n/b",
	"https://example.com/a/.. \x00 ",
	"https://example.com/\t",
	"https://example.com/ ",
	"https://example.com/?q r#s t",
	"https://example.com/#f\x01",
	"https://example.com/a\x7f?\x80",
	"https://example.com/é/../x",
	"https://www.example.com:443/a/./b/?b=2&a=1", // clara, normalize-url: www and the port
}

// TestVerbatimMatchesParser: the verbatim fast path fills the URL exactly
// as the general parser does (buffer, offsets, port, host kind and
// charset), on the shipped corpus with variants, every WPT input,
// mutations of them and inputs with every byte value in each component.
func TestVerbatimMatchesParser(t *testing.T) {
	inputs := append(corpusWithVariants(t), verbatimSeeds...)
	for _, c := range loadWPT(t, wptFile) {
		inputs = append(inputs, c.Input)
	}
	inputs = append(inputs, mutations(inputs, 60000)...)
	for c := range 256 {
		b := string(rune(c))
		if c >= 0x80 {
			b = string([]byte{byte(c)})
		}
		for _, f := range []string{"https://%sexample.com/a", "https://exa%smple.com/a", "https://example.com%s/a", "https://example.com:8%s/a",
			"https://example.com/%s", "https://example.com/a%s/b", "https://example.com/a?%s", "https://example.com/a?q#%s", "https://example.com/a#%s"} {
			inputs = append(inputs, fmt.Sprintf(f, b))
		}
		// Each byte of the scheme and its slashes replaced (scanAuthority
		// reads them as one word, folding the letters' case).
		for _, pre := range []string{"https://", "http://"} {
			for i := range pre {
				inputs = append(inputs, pre[:i]+string([]byte{byte(c)})+pre[i+1:]+"example.com/a")
			}
		}
	}
	reached := 0
	for _, in := range inputs {
		diff, verbatim := normalize.VerbatimMismatch(in)
		if diff != "" {
			t.Errorf("Parse(%q):\n%s", in, diff)
		}
		if verbatim {
			reached++
		}
	}
	if reached < len(inputs)/10 {
		t.Errorf("the verbatim path took %d of %d inputs", reached, len(inputs))
	}
	t.Logf("%d inputs, %d verbatim", len(inputs), reached)
}

// TestVerbatimUpgradeMaxLength: a scheme upgrade that makes a verbatim
// URL one byte longer than limits.max_length fails as on the general path
// (finishURL), where the shortcut once returned it.
func TestVerbatimUpgradeMaxLength(t *testing.T) {
	p := normalize.MustLookup("whatwg").Profile()
	p.Name, p.Scheme.Upgrade, p.Limits.MaxLength = "upgrade-max", map[string]string{"http": "https"}, 30
	fast, ref := fastAndReference(t, p)
	for _, in := range []string{"http://example.com/abcdefghijk", "http://example.com/abcdefghij", "HTTP://EXAMPLE.COM/abcdefghijk"} {
		got, gerr := fast.Normalize(in)
		want, werr := ref.Normalize(in)
		if got != want || errString(gerr) != errString(werr) {
			t.Errorf("Normalize(%q) = %q, %v; reference %q, %v", in, got, gerr, want, werr)
		}
	}
	if _, err := fast.Normalize("http://example.com/abcdefghijk"); err == nil {
		t.Error("an output over limits.max_length: no error")
	}
}

// TestCanonicalInputNoAlloc: Normalize allocates nothing on input that is
// already canonical (issue 18 target 1: 0 allocations on canonical input),
// through the verbatim path or the general one, for every built-in
// profile; and the verbatim path takes a plain lowercase URL (the scan
// once marked every host uppercase, which cost an allocation per URL and
// no test failed).
func TestCanonicalInputNoAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	corpus := readLines(t, "../testdata/urls/kasztp.txt")
	for _, name := range normalize.Names() {
		n := normalize.MustLookup(name)
		checked := 0
		for i := 0; i < len(corpus) && checked < 300; i += 37 {
			out, err := n.Normalize(corpus[i])
			if err != nil {
				continue
			}
			checked++
			if got := testing.AllocsPerRun(20, func() { sink, _ = n.Normalize(out) }); got != 0 {
				t.Errorf("%s: Normalize(%q) (canonical) allocates %v times", name, out, got)
			}
		}
		if checked < 100 {
			t.Errorf("%s: only %d canonical inputs", name, checked)
		}
	}
	n := normalize.MustLookup("default")
	for _, in := range []string{"https://example.com/a/b", "https://example.com/a/b/", "https://www.example.com/a#f"} {
		if got := testing.AllocsPerRun(20, func() { sink, _ = n.Normalize(in) }); got != 0 {
			t.Errorf("default: Normalize(%q) allocates %v times", in, got)
		}
	}
}

// TestVerbatimEligible: every built-in profile takes the verbatim
// shortcut. compileVerbatim's allow-list turns it off for a profile with a
// rule it does not know, so a new Profile field would slow every built-in
// down without failing another test.
func TestVerbatimEligible(t *testing.T) {
	for _, name := range normalize.Names() {
		if !normalize.VerbatimEligible(normalize.MustLookup(name)) {
			t.Errorf("%s: compileVerbatim turns the verbatim shortcut off", name)
		}
	}
	p := normalize.MustLookup("default").Profile()
	p.Name, p.Path.Lowercase = "v-lower", true // a rule verbatimCanon does not test
	if n, err := normalize.New(p); err != nil || normalize.VerbatimEligible(n) {
		t.Errorf("path.lowercase: eligible %v (%v), want not", err == nil && normalize.VerbatimEligible(n), err)
	}
}
