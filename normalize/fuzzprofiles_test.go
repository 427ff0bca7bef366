package normalize_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// FuzzProfiles draws a profile from the fuzzer's bits — any combination
// of the rules a user can write, the peers' knobs (issue 15) and the
// older fields alike, not only the built-ins — and checks, on the input:
//   - no panic; an error is classified (ErrInvalid or ErrLimit) and the
//     reference (no fast path) gives the same error;
//   - idempotent: N(N(x)) == N(x);
//   - the fast paths give what the reference gives;
//   - the output re-parses (WHATWG) with its scheme, and, where the profile
//     leaves nothing net/url refuses (netURLSafe), an http(s) output parses
//     with net/url to the same scheme, host and query; its length is
//     bounded by 3·len(x) + 64.
//
// A drawn profile is made consistent before New (drawProfile drops what
// compile refuses), so New refusing one is a failure too. Run it with
//
//	go test ./normalize -run '^$' -fuzz FuzzProfiles -fuzztime 20m -parallel 2
func FuzzProfiles(f *testing.F) {
	urls := []string{
		"HTTP://www.Example.COM:8080/a/./b/../c//d/?b=2&a=1&A=&utm_source=x#frag:~:text=x",
		"http://u:p@www2.example.co.uk./(S(abc))/r/http://x.com//y;jsessionid=1/%2541%7e%%36%31?q=a+b%20c%2Bd&&=x&k#",
		"https://example.com/amp/x?page=2", "https://example.es/ca/x", "file:///C:/%252E%252E/x", "sc://H:7/%2F?%26#%23",
		"example.com/p?x", "//www.example.com", "mailto:A@B", "http://[::1]:80/", "http://0x7f.1/", "sc:/.//x",
		// a dot segment left by a removed path parameter before a language
		// segment (clara 1.0.1 panicked on it; found in review, not by fuzzing)
		"https://example.es/..;jsessionid=1/ca/x", "https://example.es/x/.;sid/ca",
		// verbatim input (verbatim.go): its canonical form is cut from it
		"https://www.example.com/a/b/#f", "HTTPS://WWW2.EXAMPLE.COM:8080/", "http://example.com/a/?q", "https://example.com/",
		// verbatim queries the rules may leave as they are (queryKept)
		"https://example.com/?a=1&b=2", "https://example.com/?a=&a&b+c=d=e#f", "https://example.com/?B=1&a", "https://example.com/?a=1&&b=2",
		// a kept query in another order, slashes before a query or a fragment (appendKept, canon.slash)
		"https://example.com/a/b/?id=5&bench=1#top", "https://example.com//?b=2&a=1&a", "https://example.com/?b=1=2&a=+&B=", "https://example.com/a//#f",
		// the pieces one reader splits for both (nextPiece): a removed key first, "=", '=' in a value, "k", "k=", a trailing '&'
		"https://example.com/?utm_source=x&==&a=b=c&a&a=&", "https://example.com/?&&",
		// where verbatimCanon searches a '%' (pctKept), hosts endsInNumber's quick answer reads
		"https://example.com/a%41b?b=%7e&a#%zz", "https://example.com/a?b=2&a=1#%41", "https://a.0x1f/", "https://a.00x1f/", "https://example.cafe/",
		// the SQL rows' shapes (canon.append's copies) and a '%' in a split query (queryKept's search)
		"HTTP://WWW.EXAMPLE.COM:80/a/?z=1&bench=1#f3", "HTTPS://EXAMPLE.COM/a?x=1&bench=1", "https://example.com/a?x=%41&bench=%",
	}
	for i, u := range urls {
		for _, bits := range [][2]uint64{{0, 0}, {^uint64(0), ^uint64(0)}, {0x5555555555555555, 0xaaaaaaaaaaaaaaaa}, {uint64(i) * 0x9e3779b97f4a7c15, uint64(i) * 0xc2b2ae3d27d4eb4f}} {
			f.Add(bits[0], bits[1], u)
		}
	}
	f.Fuzz(func(t *testing.T, b0, b1 uint64, s string) {
		p := drawProfile(b0, b1)
		n, err := normalize.New(p)
		if err != nil {
			t.Fatalf("drawn profile refused (drawProfile is out of date): %v\n%s", err, p.JSON())
		}
		ref, err := normalize.NewReference(p)
		if err != nil {
			t.Fatal(err)
		}
		checkProfile(t, n, ref, s)
	})
}

// checkProfile checks n on s as FuzzProfiles says.
func checkProfile(t *testing.T, n, ref *normalize.Normalizer, s string) {
	t.Helper()
	profile := func() string { return string(n.Profile().JSON()) }
	out, err := n.Normalize(s)
	want, werr := ref.Normalize(s)
	if out != want || errString(err) != errString(werr) {
		t.Fatalf("Normalize(%q): fast paths %q, %v; reference %q, %v\n%s", s, out, err, want, werr, profile())
	}
	if err != nil {
		if !errors.Is(err, normalize.ErrInvalid) && !errors.Is(err, normalize.ErrLimit) {
			t.Fatalf("Normalize(%q): unclassified error %v\n%s", s, err, profile())
		}
		return
	}
	if again, err := n.Normalize(out); err != nil || again != out {
		t.Fatalf("not idempotent: %q → %q → %q (%v)\n%s", s, out, again, err, profile())
	}
	if len(out) > 3*len(s)+64 {
		t.Fatalf("Normalize(%q) = %q is longer than 3·len+64\n%s", s, out, profile())
	}
	u, err := normalize.Parse(out)
	if err != nil {
		t.Fatalf("Normalize(%q) = %q, which does not re-parse: %v\n%s", s, out, err, profile())
	}
	if !strings.HasPrefix(out, u.Scheme()+":") {
		t.Fatalf("Normalize(%q) = %q re-parses with scheme %q\n%s", s, out, u.Scheme(), profile())
	}
	if sc := u.Scheme(); (sc == "http" || sc == "https") && netURLSafe(n.Profile()) {
		checkNetURL(t, n, s, out, u)
	}
}

// netURLSafe reports whether p's http(s) outputs must parse with net/url:
// its hosts are reg-names (net/url refuses '`', '{', '}' in a host, which
// the URL Standard allows) and no stray '%' stays.
func netURLSafe(p normalize.Profile) bool {
	return (p.Host.Charset == normalize.CharsetDNS || p.Host.Charset == normalize.CharsetRFC3986) &&
		(p.Percent.EncodeStray || p.Percent.DecodeRepeatedly)
}

// bits hands out the fuzzer's bits one field at a time.
type bits struct{ w [2]uint64 }

func (b *bits) take(k int) int {
	v := b.w[0] & (1<<k - 1)
	b.w[0] = b.w[0]>>k | b.w[1]<<(64-k)
	b.w[1] >>= k
	return int(v)
}

func (b *bits) on() bool { return b.take(1) == 1 }

// drawProfile builds a profile from 128 bits: every rule of every section,
// each with a few values, then drops the combinations compile refuses (a
// keep_scheme_slashes without collapse_slashes …), so that New accepts it.
func drawProfile(b0, b1 uint64) normalize.Profile {
	b := &bits{[2]uint64{b0, b1}}
	p := normalize.Profile{Name: "fuzz", Version: "0", Hash: normalize.HashSHA256}
	// scheme
	if b.on() {
		p.Scheme.Upgrade = map[string]string{"http": "https"}
	}
	p.Scheme.Assume = []string{"", "", "http", "https"}[b.take(2)]
	if b.on() {
		p.Scheme.Allowed = []string{"http", "https", "file", "sc", "mailto"}
	}
	// host
	p.Host.StripTrailingDot, p.Host.RequireDot, p.Host.LowercaseOpaque = b.on(), b.on(), b.on()
	p.Host.Charset = []string{"", normalize.CharsetWHATWG, normalize.CharsetRFC3986, normalize.CharsetDNS}[b.take(2)]
	if b.on() {
		p.Host.Map = map[string]string{"example.com": "example.org", "a.b": "c.d"}
	}
	p.Host.StripWWW = []string{"", "", normalize.StripWWWLabel, normalize.StripWWWDigits}[b.take(2)]
	p.Userinfo.Remove = b.on()
	// port
	if b.on() {
		p.Port.Defaults = map[string]int{"https": 8443, "sc": 7}
	}
	p.Port.RemoveAll = b.on()
	// path
	p.Path.TrailingSlash = []string{"", normalize.SlashKeep, normalize.SlashRemove, normalize.SlashRemoveExceptRoot}[b.take(2)]
	p.Path.CollapseSlashes, p.Path.EmptyPathSlash, p.Path.RemoveLoneRoot = b.on(), b.on(), b.on()
	p.Path.KeepSchemeSlashes, p.Path.Lowercase = b.on(), b.on()
	if b.on() {
		p.Path.RemoveParams = []normalize.ParamGroup{{Reason: "session", Patterns: []string{"jsessionid", "sid", "~*^x"}}}
	}
	if b.on() {
		p.Path.RemoveCookieless = []normalize.ParamGroup{{Reason: "session", Patterns: []string{"S", "a"}}}
	}
	// percent
	p.Percent = normalize.PercentRules{UppercaseHex: b.on(), DecodeUnreserved: b.on(), EncodeStray: b.on(), DecodeRepeatedly: b.on()}
	// query
	q := &p.Query
	q.Order = []string{"", normalize.OrderPair, normalize.OrderKeyValue, normalize.OrderKey}[b.take(2)]
	q.DropEmpty, q.DropEmptyPairs, q.BareEmptyValue, q.ExplicitEmptyValue = b.on(), b.on(), b.on(), b.on()
	q.FormEncoding, q.SortDecoded, q.Lowercase = b.on(), b.on(), b.on()
	if b.on() {
		q.FormRaw = "!$()*,/:;=?@[\\]^`{|}"
	}
	q.FormSpace = []string{"", "+", "%20", ""}[b.take(2)]
	if b.on() {
		q.Remove = []normalize.ParamGroup{{Reason: "tracking", Patterns: []string{"utm_*", "fbclid", "~^$"}}}
	}
	if b.on() {
		q.Keep = []string{"utm_keep"}
	}
	// fragment
	p.Fragment = normalize.FragmentRules{Remove: b.on(), StripTextDirective: b.on()}
	// hosts, pagination, language, limits
	if b.on() {
		strip := b.on()
		p.Hosts = []normalize.HostRule{{Host: "example.com", Tracking: &normalize.ParamSet{Strip: &strip, ParamsAdd: []string{"src"}},
			Paths: []normalize.PathRule{{Match: "/api/*", Tracking: &normalize.ParamSet{Params: []string{}}}}}}
		if b.on() {
			// Not "/amp/" → "/": a rule that applies again to its own
			// output ("/amp/amp/amp") runs out of passes, a rewrite_loop
			// (ErrConfig) on data, which the engine does not bound by the
			// input yet (reported; not a knob of issue 15).
			p.Hosts[0].Rewrite = []normalize.Rewrite{{FromPrefix: "https://example.com/amp/", ToPrefix: "https://example.com/news/"}}
		}
	}
	if b.on() {
		p.Pagination = &normalize.Pagination{Params: []string{"page", "p"}}
	}
	if b.on() {
		p.Language = &normalize.Language{Preferred: "es", Hosts: []normalize.LanguageHost{{Host: "example.es", Segment: b.take(1), Languages: []string{"es", "ca", "en"}}}}
	}
	if b.on() {
		p.Limits = normalize.Limits{MaxLength: 300, MaxParams: 5}
	}
	// What compile refuses, dropped.
	if !p.Path.CollapseSlashes {
		p.Path.KeepSchemeSlashes = false
	}
	if p.Path.EmptyPathSlash {
		p.Path.RemoveLoneRoot = false
	}
	if q.BareEmptyValue {
		q.ExplicitEmptyValue = false
	}
	if !q.FormEncoding {
		q.FormRaw, q.FormSpace = "", ""
	}
	if q.Order != normalize.OrderKey && q.Order != normalize.OrderKeyValue {
		q.SortDecoded = false
	}
	return p
}
