package normalize_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestFastPathsMatchReference: for every built-in profile, the fast paths
// (plain authority in one pass, scheme+authority+path copied in one move)
// give exactly the output and the error of the general code, over the
// shipped corpus with dirty variants, every WPT input, and mutations of
// them aimed at the conditions the fast paths test (userinfo, ports,
// escapes, empty segments, path parameters, trailing dots, case, IDNs).
func TestFastPathsMatchReference(t *testing.T) {
	inputs := corpusWithVariants(t)
	for _, c := range loadWPT(t, wptFile) {
		inputs = append(inputs, c.Input)
	}
	inputs = append(inputs, mutations(inputs, 60000)...)
	for _, name := range normalize.Names() {
		fast := normalize.MustLookup(name)
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
		t.Logf("%-14s %d inputs", name, len(inputs))
	}
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
		"A", "Z", "é", "xn--", ".", "..", "~", "+", " ", "\t", "HTTP://", "https://", "file://", "ws://", "0x7f.1"}
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
