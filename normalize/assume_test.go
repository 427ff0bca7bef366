package normalize_test

import (
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
