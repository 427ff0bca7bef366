package normalize_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestErrorReasons: an error says why, as net/url's name the bad
// character (issue 17): the offending byte and its 0-based offset in the
// input as given, or the value and the profile rule that refused it. One
// row per place that refuses an input.
func TestErrorReasons(t *testing.T) {
	def := normalize.MustLookup("default")
	strict := custom(t, "strict", func(p *normalize.Profile) {
		p.Host = normalize.HostRules{StripTrailingDot: true, Charset: normalize.CharsetRFC3986, RequireDot: true}
		p.Scheme = normalize.SchemeRules{Allowed: []string{"http", "https"}, Assume: "https"}
		p.Limits = normalize.Limits{MaxLength: 100, MaxParams: 3}
	})
	rewrite := custom(t, "rewrite", func(p *normalize.Profile) {
		p.Hosts = []normalize.HostRule{{Host: "a.com", Rewrite: []normalize.Rewrite{{FromPrefix: "https://a.com/", ToPrefix: "https://b"}}}}
	})
	for _, c := range []struct {
		n          *normalize.Normalizer
		in, reason string
	}{
		{def, "", ""},              // empty_input says it all
		{def, "example.com/p", ""}, // missing_scheme too
		{def, "http://exa mple.com/", "' ' at byte 10"},                                   // a forbidden domain code point
		{def, "http://exa%20mple.com/", "' ' (%20) at byte 10"},                           // … percent-decoded
		{def, " \thttp://exa\tm ple.com/", "' ' at byte 14"},                              // the offset counts the tab and spaces removed
		{def, "sc://a b/", "' ' at byte 6"},                                               // a forbidden host code point (opaque host)
		{def, "http://a\xffb.com/", `'\xff' at byte 8: invalid UTF-8`},                    // not UTF-8
		{def, "http://a%FFb.com/", `'\xff' (%FF) at byte 8: invalid UTF-8`},               // … percent-encoded
		{def, "http://a\u2028b.com/", `"a\u2028b.com" at byte 7: disallowed rune U+2028`}, // UTS #46
		{def, "http://a\uff03b.com/", `"a＃b.com" at byte 7: IDNA maps it to "a#b.com", with '#'`},
		{def, "http://" + strings.Repeat("é", 130) + "/", `"` + strings.Repeat("é", 20) + `"…(260 bytes) at byte 7: IDN label longer than 252 bytes`},
		{def, "http://1.2.3.256/", `"1.2.3.256" at byte 7: ends in a number but is not an IPv4 address`},
		{def, "http://[::1/", `"[::1" at byte 7: no closing ']'`},
		{def, "http://[1::2::3]/", `"[1::2::3]" at byte 7: not an IPv6 address`},
		{def, "http://h:8a/", "'a' at byte 10"},                              // a port is digits
		{def, "http://h:99999/", "port 99999 at byte 9: over 65535"},         // … up to 65535
		{def, "http://u@/", "empty host at byte 9"},                          // userinfo and no host
		{def, "http://:80/", "empty host at byte 7"},                         // a port and no host
		{def, "http://", "empty host at byte 7"},                             // the end of the input
		{def, `http://a"b.com/`, `'"' in host "a\"b.com": host.charset dns`}, // the profile rule that refused
		{strict, "http://localhost2/", `host "localhost2" has no dot: host.require_dot`},
		{strict, "http://.../", `host "..." is only dots: host.strip_trailing_dot`},
		{strict, "http://1.2.3.999../", `host "1.2.3.999": ends in a number but is not an IPv4 address, after host.strip_trailing_dot`},
		{strict, "ftp://a.com/", `scheme "ftp": scheme.allowed http, https`},
		{strict, "  /p", "'/' at byte 2: no host for scheme.assume https"},
		{strict, "a.com/?a&b&c&d", "more than 3 query parameters: limits.max_params 3"},
		{strict, "a.com/" + strings.Repeat("x", 100), "106 bytes: limits.max_length 100"},
		{strict, "a.com/" + strings.Repeat("é", 40), "canonical URL of 254 bytes: limits.max_length 100"}, // an output over the limit would not normalize again
		{strict, "a.com:8a/", "'a' at byte 7"},                                                            // an assumed scheme does not shift the offset
		{strict, " a.c\tom:8a/", "'a' at byte 9"},                                                         // … nor with a tab removed
		{def, "http://h\t:8a/ \n", "'a' at byte 11"},                                                      // trailing space and newline trimmed
		{rewrite, "https://a.com/%zz", `'%' at byte 9 of the rewritten URL "https://b%zz"`},
	} {
		_, err := c.n.Normalize(c.in)
		var e *normalize.Error
		if !errors.As(err, &e) || e.Reason != c.reason {
			t.Errorf("%s: Normalize(%q) = %v\n want reason %q", c.n.Name(), c.in, err, c.reason)
		}
	}
	// A failure leaves nothing behind for the next one (fail writes the
	// whole record): a reason without an offset after one with.
	def.Normalize("http://h:8a/")
	if _, err := strict.Normalize("http://localhost2/"); !strings.HasSuffix(err.Error(), `(host "localhost2" has no dot: host.require_dot)`) {
		t.Errorf("after another failure: %v", err)
	}
	// Parse, Hash and Canonicalize say why too.
	_, err1 := normalize.Parse("http://h:8a/")
	_, err2 := def.Hash("http://h:8a/")
	_, err3 := def.Canonicalize("http://h:8a/")
	for _, err := range []error{err1, err2, err3} {
		if err == nil || !strings.HasSuffix(err.Error(), "invalid_port ('a' at byte 10)") {
			t.Errorf("%v: want the reason", err)
		}
	}
}

func custom(t *testing.T, name string, edit func(p *normalize.Profile)) *normalize.Normalizer {
	t.Helper()
	p := normalize.MustLookup("whatwg").Profile()
	p.Name = name
	edit(&p)
	n, err := normalize.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
