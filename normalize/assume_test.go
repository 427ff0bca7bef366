package normalize_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestAssumeScheme pins how a profile with scheme.assume tells a scheme
// from a host: only digits after the first colon make a port.
func TestAssumeScheme(t *testing.T) {
	for _, allowed := range [][]string{nil, {"http", "https"}} {
		p := normalize.Profile{Name: "assume", Version: "1", Hash: normalize.HashSHA256,
			Scheme: normalize.SchemeRules{Assume: "https", Allowed: allowed}}
		n, err := normalize.New(p)
		if err != nil {
			t.Fatal(err)
		}
		// with an allow list, a scheme outside it is an error; without
		// one, the URL keeps its own scheme.
		other := func(url string) string {
			if allowed != nil {
				return "!unsupported_scheme"
			}
			return url
		}
		for _, c := range []struct{ in, want, why string }{
			{"example.com/p", "https://example.com/p", "scheme-less host/path"},
			{"//example.com/p", "https://example.com/p", "protocol-relative"},
			{"example.com:8080/p", "https://example.com:8080/p", "host:port is not a scheme"},
			{"localhost:3000", "https://localhost:3000/", "host:port without a path"},
			{"/p", "!missing_host", "a path has no host"},
			{"http://example.com/p", "http://example.com/p", "a special scheme is a scheme"},
			{"mailto:a@example.com", other("mailto:a@example.com"), "not https://mailto:a@example.com/ (userinfo mailto:a)"},
			{"javascript:alert(1)", other("javascript:alert(1)"), "not a host 'javascript' with port 'alert(1)'"},
			{"example.com:", other("example.com:"), "nothing after the colon: a scheme"},
			{"ht\ttps://example.com/p", "https://example.com/p", "issue 15: tab removed before the scheme is looked for (URL Standard)"},
			{"ht\ntp://example.com/p", "http://example.com/p", "issue 15: newline too; not http://http//example.com/p"},
			{"/\t/example.com/p", "https://example.com/p", "protocol-relative once the tab is removed"},
			{"example.com:80\t80/p", "https://example.com:8080/p", "a tab inside the port"},
			{"tel:004346382763", other("tel:004346382763"), "issue 15: digits over 65535 are not a port"},
			{"example.com:65535/p", "https://example.com:65535/p", "the largest port"},
			{"example.com:65536/p", other("example.com:65536/p"), "one more is not a port: a scheme"},
			{"example.com:8080?q", "https://example.com:8080/?q", "a port ends at '?'"},
			{"example.com:8080#f", "https://example.com:8080/#f", "a port ends at '#'"},
			{"example.com:8080x/p", "!invalid_port", "a port, then a letter: the parser's error"},
			{"example.com:0080/p", "https://example.com:80/p", "leading zeros are a port (URL Standard)"},
		} {
			got, err := n.Normalize(c.in)
			if err != nil {
				got = "!" + normalize.KindOf(err)
			}
			if got != c.want {
				t.Errorf("allowed=%v %q = %q, want %q (%s)", allowed, c.in, got, c.want, c.why)
			}
		}
	}
}

// TestAssumeSuffix pins the "NAME+SCHEME" profile names (issue 13 item 3):
// any profile with an assumed scheme, without writing one.
func TestAssumeSuffix(t *testing.T) {
	for _, c := range []struct{ profile, in, want, why string }{
		{"default+https", "www.example.com/page?b=2&a=1#x", "https://www.example.com/page?a=1&b=2", "issue 13: scheme-less with default's rules"},
		{"default+https", "HTTP://WWW.Example.com/page/", "http://www.example.com/page", "a scheme is kept: default's output"},
		{"default+http", "//example.com/a/", "http://example.com/a", "protocol-relative"},
		{"default+https", "localhost:3000/x/", "https://localhost:3000/x", "host:port (default alone reads the scheme localhost)"},
		{"default", "localhost:3000/x/", "localhost:3000/x/", "… as the URL Standard does (an opaque path)"},
		{"default+https", "tel:004346382763", "tel:004346382763", "issue 15: not a port, so a scheme"},
		{"default+https", "/path", "!missing_host", "a path has no host"},
		{"whatwg+https", "Example.COM/a/../b", "https://example.com/b", "whatwg's rules"},
		{"clara+https", "sepe.es/HomeSepe/?utm_source=x", "https://www.sepe.es/HomeSepe", "clara's host map and tracking list"},
		{"clara+http", "sepe.es/HomeSepe/", "https://www.sepe.es/HomeSepe", "clara still upgrades http"},
		{"edge-gateway+http", "example.com/p", "http://example.com/p", "overrides edge-gateway's own https"},
		{"default+gopher", "example.com/p", "!unknown_profile", "only a special scheme with a host can be assumed"},
		{"default+", "example.com/p", "!unknown_profile", "no scheme"},
		{"nosuch+https", "example.com/p", "!unknown_profile", "the base must exist"},
		{"default+https+http", "example.com/p", "!unknown_profile", "one suffix"},
	} {
		n, err := normalize.Lookup(c.profile)
		got := ""
		if err == nil {
			got, err = n.Normalize(c.in)
		}
		if err != nil {
			got = "!" + normalize.KindOf(err)
		}
		if got != c.want {
			t.Errorf("%s(%q) = %q, want %q (%s)", c.profile, c.in, got, c.want, c.why)
		}
	}
	n := normalize.MustLookup("default+https")
	if n.Name() != "default+https" || n.Version() != "1.0.0+assume.https" || normalize.MustLookup("default+https") != n {
		t.Errorf("default+https: name %q version %q, or not cached", n.Name(), n.Version())
	}
	if v := normalize.MustLookup("edge-gateway+http").Version(); v != "1.0.2+assume.http" {
		t.Errorf("edge-gateway+http version %q", v)
	}
	if slices.Contains(normalize.Names(), "default+https") {
		t.Error("Names lists a derived profile")
	}
}

// TestAssumeSuffixSameOutputs checks on the corpus that NAME+https gives
// NAME's output (and hash) for every input NAME accepts whose scheme is
// special, and that it is idempotent on the scheme-less variants too.
func TestAssumeSuffixSameOutputs(t *testing.T) {
	inputs := shippedCorpus(t, false)
	for _, name := range []string{"default", "rfc3986", "whatwg", "curiousnow-v0", "clara", "edge-gateway"} {
		base, derived := normalize.MustLookup(name), normalize.MustLookup(name+"+https")
		for _, in := range inputs {
			want, err := base.Normalize(in)
			if u, perr := normalize.Parse(in); err == nil && perr == nil && u.Special() {
				if got, err := derived.Normalize(in); err != nil || got != want {
					t.Errorf("%s+https(%q) = %q, %v; %s gives %q", name, in, got, err, name, want)
				}
			}
			_, rest, ok := strings.Cut(in, "://")
			if !ok {
				continue
			}
			out, err := derived.Normalize(rest)
			if err != nil {
				continue
			}
			if again, err := derived.Normalize(out); err != nil || again != out {
				t.Errorf("%s+https not idempotent: %q → %q → %q, %v", name, rest, out, again, err)
			}
		}
	}
}

// TestAssumeSuffixRegistered derives from a registered profile, and
// follows it when it is registered again.
func TestAssumeSuffixRegistered(t *testing.T) {
	p := normalize.MustLookup("default").Profile()
	p.Name, p.Version = "assume-test", "1"
	n, err := normalize.New(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := normalize.Register(n); err != nil {
		t.Fatal(err)
	}
	if got, _ := normalize.MustLookup("assume-test+https").Normalize("example.com/a/"); got != "https://example.com/a" {
		t.Errorf("got %q", got)
	}
	p.Path.TrailingSlash = normalize.SlashKeep
	p.Version = "2"
	if n, err = normalize.New(p); err != nil {
		t.Fatal(err)
	}
	if err := normalize.Register(n); err != nil {
		t.Fatal(err)
	}
	d := normalize.MustLookup("assume-test+https")
	if got, _ := d.Normalize("example.com/a/"); got != "https://example.com/a/" || d.Version() != "2+assume.https" {
		t.Errorf("after re-registering: %q, version %q", got, d.Version())
	}
}

// Fixed: built-ins and their "+SCHEME" variants, not registered or
// unknown names (udf keeps Lookup's answer for a fixed name).
func TestFixed(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"default", true},
		{"clara+https", true},      // a built-in's variant
		{"whatwg+nope", true},      // Lookup's error is fixed too
		{"no-such-profile", false}, // may be registered later
		{"no-such+https", false},
		{"", false},
	} {
		if got := normalize.Fixed(tc.name); got != tc.want {
			t.Errorf("Fixed(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
