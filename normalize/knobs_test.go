package normalize_test

import (
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// knobCase is one row of a knob table: the input, the expected output (or
// "!kind"), and, in a comment, the rule or issue it pins.
type knobCase struct{ in, want string }

// checkKnob normalizes every row with whatwg changed by edit, checks the
// output, that it is a fixed point, and that the reference (no fast path)
// agrees.
func checkKnob(t *testing.T, name string, edit func(p *normalize.Profile), rows []knobCase) {
	t.Helper()
	n := custom(t, name, edit)
	ref, err := normalize.NewReference(n.Profile())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rows {
		got, err := n.Normalize(c.in)
		if err != nil {
			got = "!" + normalize.KindOf(err)
		}
		if got != c.want {
			t.Errorf("%s: Normalize(%q) = %q (%v), want %q", name, c.in, got, err, c.want)
			continue
		}
		if r, rerr := ref.Normalize(c.in); r != got && rerr == nil {
			t.Errorf("%s: Normalize(%q) = %q, the reference gives %q", name, c.in, got, r)
		}
		if err == nil {
			if again, err := n.Normalize(got); again != got {
				t.Errorf("%s: not idempotent: %q → %q → %q (%v)", name, c.in, got, again, err)
			}
		}
	}
}

// TestDecodeUnreservedAlone: percent.decode_unreserved without
// encode_stray is idempotent (issue 15: "%%36%31" → "%61" → "a"): a hex
// digit that would complete an escape with a stray '%' before it stays
// encoded.
func TestDecodeUnreservedAlone(t *testing.T) {
	checkKnob(t, "decode-alone", func(p *normalize.Profile) { p.Percent = normalize.PercentRules{DecodeUnreserved: true} }, []knobCase{
		{"http://example.com/%%36%31", "http://example.com/%%361"}, // issue 15: '%' then a decoded "6" would make "%61"
		{"http://example.com/%6%31", "http://example.com/%6%31"},   // '%' and a hex digit, then a decoded "1"
		{"http://example.com/%%341", "http://example.com/%%341"},   // a decoded "4" then a literal "1"
		{"http://example.com/%%7E%41", "http://example.com/%~A"},   // '~' is no hex digit; after it 'A' is safe
		{"http://example.com/%zz%41", "http://example.com/%zzA"},   // "%zz" is stray but "z" is no hex digit
		{"http://example.com/a%/%31", "http://example.com/a%/1"},   // the stray '%' ends another segment
		{"http://example.com/?a=%&b=%31", "http://example.com/?a=%&b=1"},
		{"http://example.com/#%%41", "http://example.com/#%%41"}, // fragment too
	})
}

// TestStripWWW: host.strip_www (normalize-url's stripWWW, peers.md §3
// step 9), never leaving a public suffix alone.
func TestStripWWW(t *testing.T) {
	checkKnob(t, "www", func(p *normalize.Profile) { p.Host.StripWWW = normalize.StripWWWLabel }, []knobCase{
		{"http://www.example.com/", "http://example.com/"},             // the rule
		{"http://WWW.Example.COM/", "http://example.com/"},             // on the lowercased host
		{"http://www.example.co.uk/", "http://example.co.uk/"},         // a registrable domain stays
		{"http://www.co.uk/", "http://www.co.uk/"},                     // "co.uk" alone is a public suffix
		{"http://www.com/", "http://www.com/"},                         // so is "com"
		{"http://www.example/", "http://www.example/"},                 // and an unlisted single label (rule "*")
		{"http://www.github.io/", "http://www.github.io/"},             // the private section counts
		{"http://www.alice.github.io/", "http://alice.github.io/"},     //
		{"http://www.www.example.com/", "http://www.www.example.com/"}, // the next pass would strip again: neither
		{"http://www2.example.com/", "http://www2.example.com/"},       // digits need www_digits
		{"http://www.example.com./", "http://example.com./"},           // a trailing dot stays where it was
		{"http://wwwexample.com/", "http://wwwexample.com/"},           // a label, not a prefix
		{"http://a.www.example.com/", "http://a.www.example.com/"},     // leading only
		{"http://www.xn--bcher-kva.de/", "http://xn--bcher-kva.de/"},   // after IDNA
		{"http://www.1.2.3.4/", "!invalid_ipv4"},                       // the URL Standard: a host ending in a number is an address
		{"http://www.com../", "http://www.com../"},                     // review15: every trailing dot is ignored when testing for a public suffix
		{"http://www/", "http://www/"},                                 // a www label with nothing after it
		{"http://www./", "http://www./"},                               // or only a dot
		{"http://www.www/", "http://www.www/"},                         // the next label is www at the end of the host
		{"http://www.wwwx.example/", "http://wwwx.example/"},           // "wwwx" is not a www label
	})
	checkKnob(t, "www-dots", func(p *normalize.Profile) {
		p.Host.StripWWW, p.Host.StripTrailingDot = normalize.StripWWWLabel, true
	}, []knobCase{
		{"http://www.co.uk./", "http://www.co.uk/"},          // a public suffix alone stays with its dot stripped
		{"http://www.co.uk../", "http://www.co.uk/"},         // review15: and with two ("co.uk." is no suffix, "co.uk" is)
		{"http://www.1../", "!invalid_ipv4"},                 // review15: "1" alone is a suffix (rule "*"): kept, so "www.1" as without www.; never 0.0.0.1
		{"http://www.example.com../", "http://example.com/"}, // a registrable domain loses www either way
	})
	checkKnob(t, "www-digits", func(p *normalize.Profile) { p.Host.StripWWW = normalize.StripWWWDigits }, []knobCase{
		{"http://www2.example.com/", "http://example.com/"},              // www + digits
		{"http://www123.example.com/", "http://example.com/"},            //
		{"http://www.www2.example.com/", "http://www.www2.example.com/"}, // the next label would go too: neither
		{"http://www2a.example.com/", "http://www2a.example.com/"},       // digits only
		{"http://www2.co.uk/", "http://www2.co.uk/"},                     // a public suffix alone
		{"http://www2/", "http://www2/"},                                 // nothing after the label
		{"http://www.www12/", "http://www.www12/"},                       // the next label is www + digits at the end
		{"http://www1.www1a.example/", "http://www1a.example/"},          // "www1a" is not
	})
}

// TestDecodeRepeatedly: percent.decode_repeatedly (Safe Browsing,
// peers.md §2 step 2): every escape decoded to a fixed point, then each
// component encoded with its URL Standard set, '%' and '#'.
func TestDecodeRepeatedly(t *testing.T) {
	checkKnob(t, "decode-all", func(p *normalize.Profile) { p.Percent = normalize.PercentRules{DecodeRepeatedly: true} }, []knobCase{
		{"http://example.com/a%2541", "http://example.com/aA"},               // %2541 → %41 → A
		{"http://example.com/a%252541", "http://example.com/aA"},             // any depth, in one linear pass
		{"http://example.com/%25", "http://example.com/%25"},                 // a decoded '%' is data: encoded again
		{"http://example.com/%%34%31", "http://example.com/A"},               // "%" "4" "1" decodes to "%41", then "A"
		{"http://example.com/%7e%2D", "http://example.com/~-"},               // unreserved, any case
		{"http://example.com/a%2Fb", "http://example.com/a/b"},               // a decoded '/' separates segments
		{"http://example.com/a/%252E%252E/b", "http://example.com/b"},        // and dot segments are resolved again
		{"http://example.com/a/b/%2E%252E", "http://example.com/a/"},         // a final ".." leaves the '/'
		{"http://example.com/a%3Fb%23c", "http://example.com/a%3Fb%23c"},     // '?' and '#' stay encoded in a path
		{"http://example.com/a%5Cb", "http://example.com/a%5Cb"},             // as does '\', a '/' in special URLs
		{"http://example.com/%C3%A9%20x", "http://example.com/%C3%A9%20x"},   // non-ASCII and space: encoded (uppercase)
		{"http://example.com/%c3%a9", "http://example.com/%C3%A9"},           //
		{"http://example.com/?q=%2526%3D", "http://example.com/?q=&="},       // query: '&' and '=' decoded (Safe Browsing does not split it)
		{"http://example.com/?q=a%23b%27", "http://example.com/?q=a%23b%27"}, // '#' stays encoded; '\'' is in the special-query set
		{"http://example.com/#a%2523", "http://example.com/#a%23"},           // fragment
		{"http://u%2541:p%40@example.com/", "http://uA:p%40@example.com/"},   // userinfo: '@' stays encoded
		{"file:///C:/%252E%252E/x", "file:///C:/x"},                          // ".." never removes a file URL's drive letter
		{"sc:a%2523%253F", "sc:a%23%3F"},                                     // an opaque path keeps '#' and '?' encoded
		{"sc:%2Fa%2Fb", "sc:%2Fa/b"},                                         // and a first '/', which would make it a path (fuzz regression)
		{"sc://h/%2F%2Fx", "sc://h///x"},                                     //
		{"sc:/%2F%2Fx", "sc:/.///x"},                                         // a host-less path starting with "//" gets "/."
	})
}

// TestUserinfoPortsRoot: userinfo.remove, port.remove_all and
// path.remove_lone_root (peers.md: Safe Browsing and normalize-url drop
// userinfo; Safe Browsing every port; normalize-url removeSingleSlash).
func TestUserinfoPortsRoot(t *testing.T) {
	checkKnob(t, "no-userinfo", func(p *normalize.Profile) { p.Userinfo.Remove = true }, []knobCase{
		{"http://u:p@example.com/", "http://example.com/"}, // both
		{"http://u@example.com/", "http://example.com/"},   // username only
		{"http://:p@example.com/", "http://example.com/"},  // password only
		{"sc://u@h/", "sc://h/"},                           // any scheme
	})
	checkKnob(t, "no-ports", func(p *normalize.Profile) { p.Port.RemoveAll = true }, []knobCase{
		{"http://example.com:8080/a", "http://example.com/a"}, // any port
		{"http://example.com:80/a", "http://example.com/a"},   // the default too (the parser drops it anyway)
		{"sc://h:7/a", "sc://h/a"},                            // any scheme
		{"http://example.com:/a", "http://example.com/a"},     // an empty port
	})
	checkKnob(t, "lone-root", func(p *normalize.Profile) { p.Path.RemoveLoneRoot = true }, []knobCase{
		{"http://example.com/", "http://example.com"},          // nothing follows the root
		{"http://example.com", "http://example.com"},           // (the parser gives it the root)
		{"http://example.com/?a=1", "http://example.com/?a=1"}, // a query follows
		{"http://example.com/#top", "http://example.com/#top"}, // a fragment follows
		{"http://example.com/?", "http://example.com/?"},       // an empty query is kept by whatwg
		{"http://example.com/a/", "http://example.com/a/"},     // only the root
		{"file:///", "file://"},                                // file URLs too
	})
	checkKnob(t, "lone-root-query", func(p *normalize.Profile) {
		p.Path.RemoveLoneRoot = true
		p.Query = normalize.QueryRules{DropEmpty: true, Remove: []normalize.ParamGroup{{Reason: "tracking", Patterns: []string{"utm_*"}}}}
		p.Fragment.Remove = true
	}, []knobCase{
		{"http://example.com/?utm_source=x", "http://example.com"}, // decided on the output: the query went
		{"http://example.com/#x", "http://example.com"},            // and the fragment
		{"http://example.com/?", "http://example.com"},             // and the empty query
	})
}

// TestTextDirective: fragment.strip_text_directive (normalize-url's
// stripTextFragment, peers.md §3 step 6).
func TestTextDirective(t *testing.T) {
	checkKnob(t, "text-fragment", func(p *normalize.Profile) { p.Fragment.StripTextDirective = true }, []knobCase{
		{"http://example.com/a#section:~:text=hello", "http://example.com/a#section"}, // peers.md normalize-url example
		{"http://example.com/a#:~:text=hello", "http://example.com/a"},                // nothing left: the '#' goes
		{"http://example.com/a#x:~:TEXT=a", "http://example.com/a#x"},                 // any case
		{"http://example.com/a#x:~:other", "http://example.com/a#x:~:other"},          // only text directives
		{"http://example.com/a#", "http://example.com/a"},                             // an empty fragment goes
		{"http://example.com/a#b", "http://example.com/a#b"},                          //
	})
	checkKnob(t, "text-fragment-decode", func(p *normalize.Profile) {
		p.Fragment.StripTextDirective = true
		p.Percent.DecodeUnreserved = true
	}, []knobCase{
		{"http://example.com/a#x:%7E:text=1", "http://example.com/a#x"}, // after percent rules: the output has none left
	})
}

// TestPathKnobs: path.keep_scheme_slashes (normalize-url, peers.md §3
// step 7), path.lowercase, path.remove_cookieless (ASP.NET cookieless
// session ids).
func TestPathKnobs(t *testing.T) {
	checkKnob(t, "scheme-slashes", func(p *normalize.Profile) {
		p.Path.CollapseSlashes, p.Path.KeepSchemeSlashes = true, true
	}, []knobCase{
		{"http://example.com/r/http://x.com//y", "http://example.com/r/http://x.com/y"}, // peers.md normalize-url
		{"http://example.com/r/http:///x", "http://example.com/r/http://x"},             // a longer run becomes "//"
		{"http://example.com/r/h:/x", "http://example.com/r/h:/x"},                      // one slash: nothing to collapse
		{"http://example.com/r/h://x", "http://example.com/r/h:/x"},                     // a one-letter scheme is no scheme
		{"http://example.com/r/HTTP://x", "http://example.com/r/HTTP:/x"},               // lowercase schemes only
		{"http://example.com/r/a_http://x", "http://example.com/r/a_http:/x"},           // after a word boundary
		{"http://example.com/r/a-b+c.d://x", "http://example.com/r/a-b+c.d://x"},        // [a-z0-9+.-]
		{"http://example.com/r/x.http://x", "http://example.com/r/x.http://x"},          //
		{"http://example.com/r/http://", "http://example.com/r/http://"},                // at the end
	})
	checkKnob(t, "lower-path", func(p *normalize.Profile) { p.Path.Lowercase = true }, []knobCase{
		{"http://example.com/A/B%2Fc?Q=R", "http://example.com/a/b%2Fc?Q=R"}, // escapes keep their hex
		{"http://example.com/a%C3%89", "http://example.com/a%C3%89"},         // ASCII letters only
		{"http://example.com/%zZ", "http://example.com/%zz"},                 // not an escape
	})
	checkKnob(t, "lower-path-decode", func(p *normalize.Profile) {
		p.Path.Lowercase, p.Percent.DecodeUnreserved = true, true
	}, []knobCase{
		{"http://example.com/%41b", "http://example.com/ab"}, // after percent rules
	})
	checkKnob(t, "cookieless", func(p *normalize.Profile) {
		p.Path.RemoveCookieless = []normalize.ParamGroup{{Reason: "session", Patterns: []string{"S"}}}
	}, []knobCase{
		{"http://example.com/(S(lit3py55t21z5v55vlm25s55))/default.aspx", "http://example.com/default.aspx"}, // the ASP.NET form
		{"http://example.com/app/(A(x)S(y)F(z))/p", "http://example.com/app/(A(x)F(z))/p"},                   // other ids stay
		{"http://example.com/app/(S(y))", "http://example.com/app/"},                                         // a last segment stays empty
		{"http://example.com/(S(y))", "http://example.com/"},                                                 //
		{"http://example.com/(s(y))/p", "http://example.com/p"},                                              // names match without case
		{"http://example.com/(S(y))x/p", "http://example.com/(S(y))x/p"},                                     // not the form
		{"http://example.com/(S(y(z)))/p", "http://example.com/(S(y(z)))/p"},                                 //
		{"http://example.com/(X(y))/p", "http://example.com/(X(y))/p"},                                       // not named
		{"http://example.com/a/(S(y))/(S(z))/b", "http://example.com/a/b"},                                   // each
	})
}

// TestQueryKnobs: query.explicit_empty_value (w3lib, normalize-url),
// query.form_raw and form_space (the query's encode set),
// query.sort_decoded (w3lib's and URLSearchParams' order),
// query.lowercase.
func TestQueryKnobs(t *testing.T) {
	checkKnob(t, "explicit-empty", func(p *normalize.Profile) { p.Query.ExplicitEmptyValue = true }, []knobCase{
		{"http://example.com/?a&b=&c=1", "http://example.com/?a=&b=&c=1"}, // peers.md: a and a= → a=
		{"http://example.com/?a&&b", "http://example.com/?a=&&b="},        // an empty parameter stays empty
	})
	checkKnob(t, "form-raw", func(p *normalize.Profile) {
		p.Query.FormEncoding, p.Query.FormRaw = true, "!$()*,/:;=?@"
	}, []knobCase{
		{"http://example.com/?r=https%3A%2F%2Fa.b%2Fc%3Fd%3De", "http://example.com/?r=https://a.b/c?d=e"}, // raw in values
		{"http://example.com/?a%3Db=1", "http://example.com/?a%3Db=1"},                                     // '=' stays encoded in keys
		{"http://example.com/?q=a+b%20c%2Bd", "http://example.com/?q=a+b+c%2Bd"},                           // '+' is a space; a literal '+' encoded
		{"http://example.com/?q=%26%23%25", "http://example.com/?q=%26%23%25"},                             // never raw
	})
	checkKnob(t, "form-space", func(p *normalize.Profile) {
		p.Query.FormEncoding, p.Query.FormSpace = true, "%20"
	}, []knobCase{
		{"http://example.com/?q=a+b%20c", "http://example.com/?q=a%20b%20c"}, // both spaces as %20
	})
	checkKnob(t, "sort-decoded", func(p *normalize.Profile) {
		p.Query = normalize.QueryRules{FormEncoding: true, Order: normalize.OrderKeyValue, SortDecoded: true}
	}, []knobCase{
		{"http://example.com/?%C3%A9=1&z=1&~=1", "http://example.com/?z=1&~=1&%C3%A9=1"}, // by decoded bytes: z < ~ < é
		{"http://example.com/?a=%5B&a=Z", "http://example.com/?a=Z&a=%5B"},               // values too: Z < [
		{"http://example.com/?a=b+c&a=b!", "http://example.com/?a=b+c&a=b%21"},           // ' ' < '!'
	})
	checkKnob(t, "sort-encoded", func(p *normalize.Profile) {
		p.Query = normalize.QueryRules{FormEncoding: true, Order: normalize.OrderKeyValue}
	}, []knobCase{
		{"http://example.com/?%C3%A9=1&z=1&~=1", "http://example.com/?%C3%A9=1&z=1&~=1"}, // without it: as written
	})
	checkKnob(t, "lower-query", func(p *normalize.Profile) { p.Query.Lowercase = true }, []knobCase{
		{"http://example.com/P?A=B%2F", "http://example.com/P?a=b%2F"}, // the query only
	})
	checkKnob(t, "lower-query-sorted", func(p *normalize.Profile) {
		p.Query = normalize.QueryRules{Lowercase: true, Order: normalize.OrderKey}
	}, []knobCase{
		{"http://example.com/?b=1&A=2", "http://example.com/?a=2&b=1"}, // before the order
	})
}

// TestCookielessReported: Canonicalize reports the ASP.NET ids removed,
// as path parameters (in_path), with their group's reason.
func TestCookielessReported(t *testing.T) {
	n := custom(t, "cookieless-report", func(p *normalize.Profile) {
		p.Path.RemoveCookieless = []normalize.ParamGroup{{Reason: "session", Patterns: []string{"S"}}}
	})
	r, err := n.Canonicalize("http://example.com/(A(x)S(lit3py55))/default.aspx")
	if err != nil {
		t.Fatal(err)
	}
	want := normalize.Param{Key: "S", Value: "lit3py55", Reason: "session", InPath: true}
	if r.URL != "http://example.com/(A(x))/default.aspx" || len(r.Removed) != 1 || r.Removed[0] != want {
		t.Errorf("Canonicalize = %q, removed %+v; want removed %+v", r.URL, r.Removed, want)
	}
}
