package normalize_test

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"unsafe"

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

// referenceExtension is URL.Extension's definition with the strings
// package (the accessor skips the ';' search on a plain path and reads
// words): the last segment, without its parameters, after its last dot,
// when something other than dots comes before that dot.
func referenceExtension(path string) string {
	seg := path[strings.LastIndexByte(path, '/')+1:]
	if i := strings.IndexByte(seg, ';'); i >= 0 {
		seg = seg[:i]
	}
	i := strings.LastIndexByte(seg, '.')
	if i <= 0 || strings.Trim(seg[:i], ".") == "" {
		return ""
	}
	return seg[i+1:]
}

// checkAllPathSegments fails t when u.AllPathSegments does not yield want
// (AppendPathSegments' list, none for an opaque path), or yields more
// after a loop over it breaks.
func checkAllPathSegments(t testing.TB, u *normalize.URL, want []string) {
	t.Helper()
	got := slices.Collect(u.AllPathSegments())
	if !slices.Equal(got, want) {
		t.Fatalf("%q: AllPathSegments %q, AppendPathSegments %q", u.String(), got, want)
	}
	for stop := range len(want) {
		var first []string
		for s := range u.AllPathSegments() {
			if first = append(first, s); len(first) == stop+1 {
				break
			}
		}
		if !slices.Equal(first, want[:stop+1]) {
			t.Fatalf("%q: AllPathSegments to %d: %q, want %q", u.String(), stop, first, want[:stop+1])
		}
	}
}

// allParts is every part a URL from a Parser offers, for comparing two
// parses of one input.
func allParts(u *normalize.URL, err error) string {
	if err != nil {
		return "error " + err.Error()
	}
	q, hasQ := u.Query()
	f, hasF := u.Fragment()
	segs, segsOK := u.PathSegments()
	return fmt.Sprintf("%q %q %q %q %q %v %d %q %v %q %v %q %v %v %+v %+v %q %q %v",
		u.String(), u.Scheme(), u.Username(), u.Password(), u.Host(), u.HostKind(), u.Port(), u.Path(), u.OpaquePath(),
		q, hasQ, f, hasF, u.Special(), u.DomainParts(normalize.AllSuffixes), u.DomainParts(normalize.ICANNSuffixes),
		u.Extension(), segs, segsOK)
}

// checkParser fails t when a reused Parser's Parse of s differs from
// normalize.Parse's (a new URL, which owns a copy: the reference for a
// Parser's URL that is raw's bytes), or when the URL of the previous
// input (prev, its parts then: want) changed with this parse although it
// was raw's bytes.
func checkParser(t testing.TB, p *normalize.Parser, s string) {
	t.Helper()
	want := allParts(normalize.Parse(s))
	u, err := p.Parse(s)
	if got := allParts(u, err); got != want {
		t.Fatalf("Parser.Parse(%q) = %s\nParse: %s", s, got, want)
	}
	if err == nil && !u.OpaquePath() {
		path := u.Path()
		if e := u.Extension(); e != referenceExtension(path) {
			t.Fatalf("Parser.Parse(%q): Extension %q, the reference %q", s, e, referenceExtension(path))
		}
		segs, _ := u.AppendPathSegments(nil)
		if want := strings.Split(path, "/")[1:]; path != "" && !slices.Equal(segs, want) || path == "" && len(segs) != 0 {
			t.Fatalf("Parser.Parse(%q): segments %q of %q", s, segs, path)
		}
		checkAllPathSegments(t, u, segs)
	}
	if err == nil && u.OpaquePath() {
		checkAllPathSegments(t, u, nil)
	}
	if err == nil && len(s) > 0 && unsafe.StringData(u.String()) == unsafe.StringData(s) && u.String() != s {
		t.Fatalf("Parser.Parse(%q): a URL on raw's bytes that is not raw: %q", s, u.String())
	}
}

// TestParserMatchesParse: a reused Parser, whose URL is raw's bytes when
// raw is its serialization and a copy otherwise, gives normalize.Parse's
// URL for the inputs of TestParseAuthority, one after another (so that
// each way follows each), and never writes into raw: a parse after one
// that took raw's bytes writes its own buffer, and the strings read from
// the earlier URL keep their bytes.
func TestParserMatchesParse(t *testing.T) {
	var p normalize.Parser
	inputs := parseInputs(t,
		"https://example.com/a?q#f",   // raw's bytes
		"HTTPS://example.com/a?q#f",   // an uppercase scheme: a copy, lowercased
		"https://Example.com/a",       // an uppercase host: a copy
		"https://example.com:443/a",   // the default port: a copy without it
		"https://example.com:8443/a",  // another port: raw's bytes
		"https://example.com",         // no path: the serializer adds "/"
		"https://example.com/a/../b",  // a dot segment: the general parser
		"https://example.com/%7e?%7e", // a '%': raw's bytes (the parser keeps escapes)
		"http://a.b/"+strings.Repeat("x", 300),
		"https://example.com/a.b/c",          // no dot in the last segment: none before it counts
		"https://example.com/a/..x.gz",       // dots, then more: an extension
		"https://example.com/a/...",          // only dots
		"https://example.com/a/b.c;d.e",      // ';' ends the segment's name (not a plain path)
		"https://example.com/a/b;c.d",        // the dot after ';' is a parameter's
		"https://example.com/a/bcdefghijk.l", // the dot in the second word from the end
		"https://example.com/a/bcdefgh.ijk",  // and in the last word
		"https://example.com/abcdefgh/ijklmnop.q/rstuvwxyz",
	)
	for _, s := range inputs {
		checkParser(t, &p, s)
	}
	// Raw's memory is never written: inputs over one byte slice, parsed
	// by every method in turn, the URL taking raw's bytes and then not.
	seq := []string{"https://example.com/a?q#f", "HTTP://EXAMPLE.COM:80/B", "https://example.org/x",
		"https://a.example/p?q", "https://b.example:443/p?q#f", "https://c.example/" + strings.Repeat("y", 100)}
	var buf []byte
	for _, s := range seq {
		buf = append(buf, s...)
	}
	orig := string(buf)
	def := normalize.MustLookup("default")
	for round := range 4 {
		off := 0
		var held, heldWant string
		for i, s := range seq {
			in := unsafe.String(&buf[off], len(s))
			off += len(s)
			var u *normalize.URL
			var err error
			switch (i + round) % 4 {
			case 0:
				u, err = p.Parse(in)
			case 1:
				u, err = p.ParseAuthority(in)
			case 2:
				u, err = p.ParseWithoutPath(in)
			case 3:
				u, err = p.ParseCanonical(def, in)
			}
			if err != nil {
				t.Fatalf("%q: %v", in, err)
			}
			if held != "" && held != heldWant {
				t.Fatalf("after %q: the host read from the URL before, %q, is now %q", in, heldWant, held)
			}
			if unsafe.StringData(u.String()) == unsafe.StringData(in) {
				held, heldWant = u.Host(), strings.Clone(u.Host())
			} else {
				held = ""
			}
		}
		if string(buf) != orig {
			t.Fatalf("round %d: the inputs' bytes were written: %q", round, buf)
		}
	}
	// The shortcut is taken: a URL written as the serializer writes it is
	// raw's bytes (no copy) for Parse and ParseAuthority.
	for _, s := range []string{"https://example.com/a?q#f", "http://example.com:8080/"} {
		if u, _ := p.Parse(s); unsafe.StringData(u.String()) != unsafe.StringData(s) {
			t.Errorf("Parse(%q) copied raw", s)
		}
		if u, _ := p.ParseAuthority(s); unsafe.StringData(u.String()) != unsafe.StringData(s) {
			t.Errorf("ParseAuthority(%q) copied raw", s)
		}
	}
}

// FuzzParser: a reused Parser's Parse agrees with normalize.Parse on any
// input, whichever way it parsed the input before.
//
//	go test ./normalize -run '^$' -fuzz FuzzParser -fuzztime 3m
func FuzzParser(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	for _, s := range []string{"https://example.com/a?q#f", "HTTPS://example.com/a", "https://example.com:443/a", "https://example.com"} {
		f.Add(s)
	}
	var p normalize.Parser
	f.Fuzz(func(t *testing.T, s string) {
		checkParser(t, &p, s)
		if u, err := p.ParseAuthority(s); err == nil {
			checkDomainParts(t, s, u)
		}
	})
}
