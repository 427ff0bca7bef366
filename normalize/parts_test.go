package normalize_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestDomainParts pins the public suffix, registrable domain and subdomain
// of a URL's host, with both sections of the list and with ICANN's only.
func TestDomainParts(t *testing.T) {
	for _, c := range []struct {
		in         string
		all, icann normalize.DomainParts // icann zero: same as all
		why        string
	}{
		{"https://a.b.example.co.uk/x", dp("co.uk", "example.co.uk", "a.b"), dp("", "", ""), "issue 13's example: eTLD+1 over a two-label suffix"},
		{"HTTP://WWW.Example.COM:8080/", dp("com", "example.com", "www"), dp("", "", ""), "parts of the parsed (lowercased) host"},
		{"https://example.com/", dp("com", "example.com", ""), dp("", "", ""), "no subdomain: \"\", not an empty label"},
		{"https://alice.github.io/", dp("github.io", "alice.github.io", ""), dp("io", "github.io", "alice"), "a private-section suffix: ICANN-only reads it as a domain"},
		{"https://co.uk/", dp("co.uk", "", ""), dp("", "", ""), "a public suffix itself has no registrable domain"},
		{"https://github.io/", dp("github.io", "", ""), dp("io", "github.io", ""), "a private suffix is a registrable domain under ICANN's list"},
		{"http://localhost:3000/", dp("localhost", "", ""), dp("", "", ""), "the default rule \"*\": a single label is a public suffix"},
		{"http://x.unlisted-tld/", dp("unlisted-tld", "x.unlisted-tld", ""), dp("", "", ""), "the default rule \"*\" for a TLD not on the list"},
		{"http://www.example.com./", dp("com.", "example.com.", "www"), dp("", "", ""), "URL Standard: a trailing dot stays on the suffix and the registrable domain"},
		{"http://пример.рф/", dp("xn--p1ai", "xn--e1afmkfd.xn--p1ai", ""), dp("", "", ""), "IDN hosts are matched in punycode, as serialized"},
		{"http://www.city.kawasaki.jp/", dp("kawasaki.jp", "city.kawasaki.jp", "www"), dp("", "", ""), "an exception rule (!city.kawasaki.jp) under a wildcard"},
		{"http://a.b.kawasaki.jp/", dp("b.kawasaki.jp", "a.b.kawasaki.jp", ""), dp("", "", ""), "a wildcard rule (*.kawasaki.jp)"},
		{"http://a..example.com/", dp("com", "example.com", "a."), dp("", "", ""), "empty labels are allowed by the URL Standard and kept in the subdomain"},
		{"http://.com/", dp("com", "", ""), dp("", "", ""), "an empty label before the suffix makes no registrable domain"},
		{"file://.eslintrc.js/", dp("js", "eslintrc.js", ""), dp("", "", ""), "a leading empty label is no subdomain"},
		{"http://example.com../", dp("", "", ""), dp("", "", ""), "an empty last label matches no rule: no parts"},
		{"http://192.168.0.1/", dp("", "", ""), dp("", "", ""), "an IPv4 host has no registrable domain (issue 13)"},
		{"http://0x7f.1/", dp("", "", ""), dp("", "", ""), "an IPv4 number form is an IPv4 host, not a domain"},
		{"http://[::1]/", dp("", "", ""), dp("", "", ""), "an IPv6 host has none"},
		{"sc://www.example.com/", dp("", "", ""), dp("", "", ""), "an opaque host is not a domain (URL Standard: public suffix of a domain only)"},
		{"file:///etc/hosts", dp("", "", ""), dp("", "", ""), "the empty host"},
		{"mailto:a@example.com", dp("", "", ""), dp("", "", ""), "no host at all"},
	} {
		u, err := normalize.Parse(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		icann := c.icann
		if icann == (normalize.DomainParts{}) {
			icann = c.all
		}
		if got := u.DomainParts(normalize.AllSuffixes); got != c.all {
			t.Errorf("%s: all = %+v, want %+v (%s)", c.in, got, c.all, c.why)
		}
		if got := u.DomainParts(normalize.ICANNSuffixes); got != icann {
			t.Errorf("%s: icann = %+v, want %+v (%s)", c.in, got, icann, c.why)
		}
		if u.PublicSuffix() != c.all.PublicSuffix || u.RegistrableDomain() != c.all.RegistrableDomain || u.Subdomain() != c.all.Subdomain {
			t.Errorf("%s: the one-part accessors disagree with DomainParts(AllSuffixes)", c.in)
		}
	}
}

func dp(suffix, registrable, sub string) normalize.DomainParts {
	return normalize.DomainParts{PublicSuffix: suffix, RegistrableDomain: registrable, Subdomain: sub}
}

// TestRegistrableDomainReference checks RegistrableDomain and PublicSuffix
// against publicsuffix.EffectiveTLDPlusOne, the slow reference, on every
// domain of the shipped corpus, twice (the second pass reads the cache),
// and that the three parts rebuild the host.
func TestRegistrableDomainReference(t *testing.T) {
	n := 0
	corpus := shippedCorpus(t, true)
	for _, raw := range append(corpus, corpus...) {
		u, err := normalize.Parse(raw)
		if err != nil || u.HostKind() != normalize.HostDomain {
			continue
		}
		host := u.Host()
		checkDomainParts(t, raw, u)
		for _, list := range []normalize.SuffixList{normalize.AllSuffixes, normalize.ICANNSuffixes} {
			d := u.DomainParts(list)
			if rebuilt := strings.TrimPrefix(d.Subdomain+"."+d.RegistrableDomain, "."); d.RegistrableDomain != "" && rebuilt != host && !strings.HasPrefix(host, ".") {
				t.Errorf("%s: %+v does not rebuild %q", raw, d, host)
			}
			if !strings.HasSuffix(host, d.PublicSuffix) || !strings.HasSuffix(host, d.RegistrableDomain) ||
				(d.RegistrableDomain != "" && !strings.HasSuffix(d.RegistrableDomain, "."+d.PublicSuffix)) {
				t.Errorf("%s: %+v: parts are not suffixes of the host", raw, d)
			}
		}
		if strings.HasPrefix(host, ".") || strings.HasSuffix(host, ".") || strings.Contains(host, "..") {
			continue // EffectiveTLDPlusOne refuses empty labels
		}
		n++
		want, err := publicsuffix.EffectiveTLDPlusOne(host)
		if err != nil {
			want = "" // host is a public suffix
		}
		if got := u.RegistrableDomain(); got != want {
			t.Errorf("%s: RegistrableDomain = %q, EffectiveTLDPlusOne = %q", raw, got, want)
		}
		if ps, _ := publicsuffix.PublicSuffix(host); u.PublicSuffix() != ps {
			t.Errorf("%s: PublicSuffix = %q, publicsuffix = %q", raw, u.PublicSuffix(), ps)
		}
	}
	if n < 1000 {
		t.Fatalf("only %d domains compared", n)
	}
}

// TestHostKindString pins parse_url's host_type names.
func TestHostKindString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://example.com/", "domain"},    // a domain
		{"https://127.0.0.1/", "ipv4"},        // an IPv4 address
		{"https://[::1]/", "ipv6"},            // an IPv6 address
		{"sc://Ex%41mple/", "opaque"},         // a non-special URL's host is opaque
		{"file:///p", "empty"},                // the empty host
		{"sc:///p", "empty"},                  // also for non-special schemes
		{"mailto:a@example.com", "none"},      // no host: parse_url gives NULL
		{"http://localhost:8080/x", "domain"}, // a single label is a domain
	} {
		u, err := normalize.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := u.HostKind().String(); got != c.want {
			t.Errorf("%s: host type %q, want %q", c.in, got, c.want)
		}
	}
	if got := normalize.HostKind(99).String(); got != "HostKind(99)" {
		t.Errorf("HostKind(99) = %q", got)
	}
}

// TestPort pins that Port is the explicit port: the URL Standard drops a
// special scheme's default while parsing.
func TestPort(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"HTTP://WWW.Example.COM:8080/", 8080}, // explicit
		{"http://example.com:80/", -1},         // http's default: null
		{"https://example.com:80/", 80},        // not https's default
		{"ftp://example.com:21/", -1},          // ftp's default
		{"sc://example.com:80/", 80},           // non-special schemes have no default
		{"sc://example.com:0/", 0},             // port 0 is a port
		{"http://example.com:/", -1},           // "host:" has no port
		{"http://example.com:0080/", -1},       // leading zeros: still 80
	} {
		u, err := normalize.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := u.Port(); got != c.want {
			t.Errorf("%s: port %d, want %d", c.in, got, c.want)
		}
	}
}

// TestExtension pins the file extension of the last path segment.
func TestExtension(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://example.com/a/b.html", "html"},                 // the usual case
		{"https://example.com/a/b.tar.gz", "gz"},                 // after the last dot
		{"https://example.com/IMG.JPG?x=1#y", "JPG"},             // case kept; query and fragment are not the path
		{"https://example.com/a.jsp;jsessionid=1", "jsp"},        // path parameters end it (RFC 3986 §3.3)
		{"https://example.com/a.x;b.y;c.z", "x"},                 // the first ';' ends it; dots in parameters do not count
		{"https://example.com/a;b.y", ""},                        // a dot in a parameter only
		{"https://example.com/x.y/.a.b", "b"},                    // a leading dot, then an extension
		{"https://example.com/...", ""},                          // dots only
		{"https://example.com/a.b/c", ""},                        // a dot in an earlier segment
		{"https://example.com/a/", ""},                           // the last segment is empty
		{"https://example.com", ""},                              // the path is "/"
		{"https://example.com/.htaccess", ""},                    // a leading dot: a hidden file, no extension
		{"https://example.com/..a", ""},                          // only leading dots
		{"https://example.com/a.", ""},                           // nothing after the dot
		{"https://example.com/%E6%97%A5.%E6%97%A5", "%E6%97%A5"}, // as serialized: percent-encoded
		{"https://example.com/a%2Eb", ""},                        // an encoded dot is not a dot
		{"mailto:a@example.com.org", ""},                         // an opaque path has no segments
		{"sc://h", ""},                                           // an empty path
	} {
		u, err := normalize.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := u.Extension(); got != c.want {
			t.Errorf("%s: extension %q, want %q", c.in, got, c.want)
		}
	}
}

// TestPathSegments pins the URL Standard's path list.
func TestPathSegments(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string // nil: an opaque path (NULL in SQL)
	}{
		{"https://example.com/a/b", []string{"a", "b"}},         // the usual case
		{"https://example.com/a/b/", []string{"a", "b", ""}},    // a trailing slash is an empty last segment
		{"https://example.com", []string{""}},                   // a special URL's path is at least "/"
		{"https://example.com//a", []string{"", "a"}},           // empty segments are kept
		{"https://example.com/a/./b/../c", []string{"a", "c"}},  // dot segments resolved by the parser
		{"https://example.com/a%2Fb/c", []string{"a%2Fb", "c"}}, // an encoded slash stays in its segment
		{"https://example.com/a;p=1/b", []string{"a;p=1", "b"}}, // path parameters belong to the segment
		{"sc://h", []string{}},                                  // an empty path: no segments, not NULL
		{"mailto:a@example.com", nil},                           // an opaque path is not a list
	} {
		u, err := normalize.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := u.PathSegments()
		if ok != (c.want != nil) || !slices.Equal(got, c.want) {
			t.Errorf("%s: segments %q (%v), want %q", c.in, got, ok, c.want)
		}
		if ok && len(got) > 0 && "/"+strings.Join(got, "/") != u.Path() {
			t.Errorf("%s: segments %q do not rebuild the path %q", c.in, got, u.Path())
		}
	}
}

// TestQueryParams pins the form decoding of the query (the URL Standard's
// application/x-www-form-urlencoded parser, as URLSearchParams).
func TestQueryParams(t *testing.T) {
	type qp = normalize.QueryParam
	for _, c := range []struct {
		in   string
		want []qp
	}{
		{"https://e.com/?a=1&b=2&a=3", []qp{{"a", "1"}, {"b", "2"}, {"a", "3"}}}, // order and repeats kept
		{"https://e.com/?q=a+b%20c", []qp{{"q", "a b c"}}},                       // '+' and %20 are spaces
		{"https://e.com/?a%3Db=c%26d", []qp{{"a=b", "c&d"}}},                     // encoded '=' and '&' are data
		{"https://e.com/?k&=v&a=b=c", []qp{{"k", ""}, {"", "v"}, {"a", "b=c"}}},  // no '=': empty value; split at the first '='
		{"https://e.com/?&&a=1&", []qp{{"a", "1"}}},                              // empty pairs skipped
		{"https://e.com/?q=caf%C3%A9", []qp{{"q", "café"}}},                      // UTF-8 decoded
		{"https://e.com/?q=café", []qp{{"q", "café"}}},                           // raw non-ASCII: encoded by the parser, decoded here
		{"https://e.com/?q=%FF%FE", []qp{{"q", "\uFFFD\uFFFD"}}},                 // each bad byte is one U+FFFD
		{"https://e.com/?q=%E2%82", []qp{{"q", "\uFFFD"}}},                       // a truncated sequence is one U+FFFD (maximal subpart)
		{"https://e.com/?q=%E2%82x", []qp{{"q", "\uFFFDx"}}},                     // … followed by what is valid
		{"https://e.com/?q=%ED%A0%80", []qp{{"q", "\uFFFD\uFFFD\uFFFD"}}},        // a surrogate is not UTF-8
		{"https://e.com/?q=%zz%4", []qp{{"q", "%zz%4"}}},                         // stray '%' kept
		{"https://e.com/?q=1#a=2", []qp{{"q", "1"}}},                             // the fragment is not the query
		{"https://e.com/?", []qp{}},                                              // an empty query: no pairs, not NULL
		{"https://e.com/", nil},                                                  // no query: NULL
	} {
		u, err := normalize.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		got := u.QueryParams()
		if (got == nil) != (c.want == nil) || len(got) != len(c.want) || (len(got) > 0 && !slices.Equal(got, c.want)) {
			t.Errorf("%s: params %q, want %q", c.in, got, c.want)
		}
	}
}

// TestQueryParam pins the first value of a named parameter.
func TestQueryParam(t *testing.T) {
	for _, c := range []struct {
		in, name, want string
		ok             bool
	}{
		{"https://e.com/?utm_source=news&id=7", "id", "7", true},                         // found
		{"https://e.com/?a=1&a=2", "a", "1", true},                                       // the first one
		{"https://e.com/?a=1", "b", "", false},                                           // absent: NULL
		{"https://e.com/", "a", "", false},                                               // no query: NULL
		{"https://e.com/?a", "a", "", true},                                              // present without '=': the empty value, not NULL
		{"https://e.com/?q=a+b%2Bc", "q", "a b+c", true},                                 // form-decoded value
		{"https://e.com/?a+b=1", "a b", "1", true},                                       // names are compared decoded
		{"https://e.com/?a%20b=1", "a b", "1", true},                                     // … whichever way the space was written
		{"https://e.com/?A=1", "a", "", false},                                           // names are case-sensitive
		{"https://e.com/?%61=1&a=2", "a", "1", true},                                     // an encoded name is the same name
		{"https://e.com/?x=1&&=e", "", "e", true},                                        // the empty name is a name
		{"https://e.com/?q=caf%C3%A9&x", "q", "café", true},                              // UTF-8
		{"https://e.com/?q=%C3", "q", "\uFFFD", true},                                    // bad UTF-8 replaced
		{"https://e.com/?r=https%3A%2F%2Fa.b%2F%3Fc%3Dd", "r", "https://a.b/?c=d", true}, // a URL in a parameter
	} {
		u, err := normalize.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := u.QueryParam(c.name)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: QueryParam(%q) = %q, %v; want %q, %v", c.in, c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestQueryParamsReference checks the form decoding against net/url's
// QueryUnescape (the reference where both apply: valid escapes and UTF-8)
// on the shipped corpus, and QueryParam against QueryParams.
func TestQueryParamsReference(t *testing.T) {
	n := 0
	for _, raw := range shippedCorpus(t, true) {
		u, err := normalize.Parse(raw)
		if err != nil {
			continue
		}
		q, _ := u.Query()
		var rawPairs []string
		for _, p := range strings.Split(q, "&") {
			if p != "" {
				rawPairs = append(rawPairs, p)
			}
		}
		params := u.QueryParams()
		if len(params) != len(rawPairs) {
			t.Fatalf("%s: %d params, %d pairs", raw, len(params), len(rawPairs))
		}
		for i, p := range params {
			k, v, _ := strings.Cut(rawPairs[i], "=")
			for _, c := range [][2]string{{k, p.Name}, {v, p.Value}} {
				if want, err := url.QueryUnescape(c[0]); err == nil && utf8.ValidString(want) {
					n++
					if c[1] != want {
						t.Errorf("%s: %q decodes to %q, net/url %q", raw, c[0], c[1], want)
					}
				}
			}
			first := slices.IndexFunc(params, func(q normalize.QueryParam) bool { return q.Name == p.Name })
			if v, ok := u.QueryParam(p.Name); !ok || v != params[first].Value {
				t.Errorf("%s: QueryParam(%q) = %q, %v; want %q", raw, p.Name, v, ok, params[first].Value)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d names and values compared", n)
	}
}

// TestCanonicalURL pins the parts of a profile's canonical URL.
func TestCanonicalURL(t *testing.T) {
	for _, c := range []struct {
		profile, in      string
		host, path, kind string // kind: the error's, "" for none
		query            bool
	}{
		{"default", "HTTP://WWW.Example.COM:80/a/../b/?utm_source=x&z=1", "www.example.com", "/b", "", true}, // default keeps tracking params, drops the slash
		{"clara", "http://sepe.es/HomeSepe/?utm_source=x", "www.sepe.es", "/HomeSepe", "", false},            // clara maps the host and drops tracking
		{"edge-gateway", "example.com/page", "example.com", "/page", "", false},                              // edge-gateway assumes https
		{"default", "example.com/page", "", "", "missing_scheme", false},                                     // the profile's error, as Normalize's
		{"whatwg", "http://exa mple.com/", "", "", "invalid_host", false},                                    // the parser's error
	} {
		u, err := normalize.MustLookup(c.profile).CanonicalURL(c.in)
		if c.kind != "" {
			if got := normalize.KindOf(err); got != c.kind || u != nil {
				t.Errorf("%s %s: error %v, want %s", c.profile, c.in, err, c.kind)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s %s: %v", c.profile, c.in, err)
		}
		_, hasQuery := u.Query()
		if u.Host() != c.host || u.Path() != c.path || hasQuery != c.query {
			t.Errorf("%s %s: host %q path %q query %v; want %q %q %v", c.profile, c.in, u.Host(), u.Path(), hasQuery, c.host, c.path, c.query)
		}
		want, _ := normalize.MustLookup(c.profile).Normalize(c.in)
		if u.String() != want {
			t.Errorf("%s %s: canonical URL %q, Normalize %q", c.profile, c.in, u.String(), want)
		}
	}
}

// FuzzParts checks, on every input the URL Standard parser accepts, that
// the parts never panic and fit together: the domain parts are suffixes of
// the host that rebuild it, the extension ends the path, the segments
// rebuild the path, the decoded query is valid UTF-8 with one pair per
// non-empty '&'-separated piece, and QueryParam finds the first value of
// every name QueryParams lists. The canonical URL of the default profile
// has the same parts as its own parse.
//
//	go test ./normalize -run '^$' -fuzz FuzzParts -fuzztime 5m
func FuzzParts(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	def := normalize.MustLookup("default")
	f.Fuzz(func(t *testing.T, s string) {
		u, err := normalize.Parse(s)
		if err != nil {
			return
		}
		host := u.Host()
		checkDomainParts(t, s, u)
		for _, list := range []normalize.SuffixList{normalize.AllSuffixes, normalize.ICANNSuffixes} {
			d := u.DomainParts(list)
			if u.HostKind() != normalize.HostDomain && d != (normalize.DomainParts{}) {
				t.Fatalf("%q: a %v host has domain parts %+v", s, u.HostKind(), d)
			}
			if !strings.HasSuffix(host, d.PublicSuffix) || !strings.HasSuffix(host, d.RegistrableDomain) {
				t.Fatalf("%q: %+v are not suffixes of %q", s, d, host)
			}
			if d.Subdomain != "" && d.Subdomain+"."+d.RegistrableDomain != host {
				t.Fatalf("%q: %+v do not rebuild %q", s, d, host)
			}
		}
		if e := u.Extension(); e != "" && !strings.Contains(u.Path(), "."+e) {
			t.Fatalf("%q: extension %q is not in the path %q", s, e, u.Path())
		}
		if segs, ok := u.PathSegments(); ok && len(segs) > 0 && "/"+strings.Join(segs, "/") != u.Path() {
			t.Fatalf("%q: segments %q do not rebuild %q", s, segs, u.Path())
		}
		q, _ := u.Query()
		params := u.QueryParams()
		pieces := 0
		for _, p := range strings.Split(q, "&") {
			if p != "" {
				pieces++
			}
		}
		if len(params) != pieces {
			t.Fatalf("%q: %d params for %d pieces", s, len(params), pieces)
		}
		for i, p := range params {
			if !utf8.ValidString(p.Name) || !utf8.ValidString(p.Value) {
				t.Fatalf("%q: param %d %q is not UTF-8", s, i, p)
			}
			first := slices.IndexFunc(params, func(q normalize.QueryParam) bool { return q.Name == p.Name })
			if v, ok := u.QueryParam(p.Name); !ok || v != params[first].Value {
				t.Fatalf("%q: QueryParam(%q) = %q, %v; want %q", s, p.Name, v, ok, params[first].Value)
			}
		}
		c, err := def.CanonicalURL(s)
		if err != nil {
			return
		}
		again, err := normalize.Parse(c.String())
		if err != nil || again.String() != c.String() || again.Host() != c.Host() || again.Path() != c.Path() {
			t.Fatalf("%q: canonical URL %q re-parses to %v, %v", s, c, again, err)
		}
	})
}

// TestParserAllocs pins that a reused Parser, and the parts the SQL
// functions read from it, allocate nothing once warm (the part functions'
// per-row cost), and that ParseCanonical reuses its buffers too.
func TestParserAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const in = "HTTPS://www.Example.co.uk:8443/a/b/file.tar.gz?utm_source=x&q=a+b#top"
	var p normalize.Parser
	n := normalize.MustLookup("clara")
	for name, f := range map[string]func(){
		"parts": func() {
			u, err := p.Parse(in)
			if err != nil {
				t.Fatal(err)
			}
			_ = u.DomainParts(normalize.AllSuffixes)
			_ = u.Extension()
			_, _ = u.QueryParam("utm_source")
		},
		"canonical": func() {
			if _, err := p.ParseCanonical(n, in); err != nil {
				t.Fatal(err)
			}
		},
	} {
		f() // warm: grow the buffers, build the suffix table
		if got := testing.AllocsPerRun(100, f); got != 0 {
			t.Errorf("%s: %v allocs per run, want 0", name, got)
		}
	}
	u, _ := p.Parse(in)
	if got := u.RegistrableDomain(); got != "example.co.uk" {
		t.Errorf("RegistrableDomain = %q", got)
	}
}

// TestParserErrors pins that a reused Parser's errors are Parse's, reason
// included, and that a failed parse leaves the Parser usable.
func TestParserErrors(t *testing.T) {
	var p normalize.Parser
	for _, in := range []string{"http://exa mple.com/", "http://example.com:99999/", "example.com/page", ""} {
		_, want := normalize.Parse(in)
		_, got := p.Parse(in)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%q: Parser error %v, Parse error %v", in, got, want)
		}
		if u, err := p.Parse("https://example.com/ok"); err != nil || u.Host() != "example.com" {
			t.Errorf("after %q: %v, %v", in, u, err)
		}
	}
}

// TestURLClone pins that a clone's parts outlive the Parser's next Parse,
// which overwrites the buffer the parsed URL's parts share (udf's parse_url
// takes every part from one clone). The second URL is shorter: the
// Parser rewrites the same buffer in place.
func TestURLClone(t *testing.T) {
	var p normalize.Parser
	u, err := p.Parse("https://user@www.example.co.uk:8443/a/b?q=1#top")
	if err != nil {
		t.Fatal(err)
	}
	c := u.Clone()
	if _, err := p.Parse("http://zz.example/zzzzzzzzzz"); err != nil {
		t.Fatal(err)
	}
	q, _ := c.Query()
	f, _ := c.Fragment()
	got := []string{c.Scheme(), c.Username(), c.Host(), c.Path(), q, f, c.RegistrableDomain(), c.String()}
	want := []string{"https", "user", "www.example.co.uk", "/a/b", "q=1", "top", "example.co.uk", "https://user@www.example.co.uk:8443/a/b?q=1#top"}
	if !slices.Equal(got, want) || c.Port() != 8443 {
		t.Errorf("clone after the next Parse: %q port %d, want %q port 8443", got, c.Port(), want)
	}
}

// The segments of paths of every length from 1 to 100 bytes, with a '/'
// at every position in turn and at the 32-byte boundaries of
// AllPathSegments' steps (the SIMD build reads the '/'s 32 bytes a step):
// what strings.Split gives, and a stop after any segment stops.
func TestPathSegmentsEveryLength(t *testing.T) {
	for n := 1; n <= 100; n++ {
		for _, slashAt := range []int{-1, 0, 1, 31, 32, 33, 63, 64, 65, n - 1, n / 2} {
			b := []byte("/" + strings.Repeat("a", n-1))
			for _, i := range []int{slashAt, 32, 64} {
				if i > 0 && i < n {
					b[i] = '/'
				}
			}
			path := string(b)
			u, err := normalize.Parse("https://e.com" + path)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Split(path[1:], "/")
			got := slices.Collect(u.AllPathSegments())
			if !slices.Equal(got, want) {
				t.Fatalf("%q: segments %q, want %q", path, got, want)
			}
			for stop := range want {
				k := 0
				for range u.AllPathSegments() {
					if k == stop {
						break
					}
					k++
				}
				if k != stop {
					t.Fatalf("%q: stopped after %d segments, want %d", path, k, stop)
				}
			}
		}
	}
}
