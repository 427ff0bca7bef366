package normalize_test

import (
	"fmt"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// authorityParts is what ParseAuthority promises to share with Parse:
// the error's kind, or the parts in the scheme and the authority.
func authorityParts(u *normalize.URL, err error) string {
	if err != nil {
		return "error " + normalize.KindOf(err)
	}
	d, i := u.DomainParts(normalize.AllSuffixes), u.DomainParts(normalize.ICANNSuffixes)
	return fmt.Sprintf("%q %q %q %q %v %d %+v %+v", u.Scheme(), u.Username(), u.Password(), u.Host(), u.HostKind(), u.Port(), d, i)
}

// checkAuthority fails when ParseAuthority and Parse disagree on s.
func checkAuthority(t *testing.T, full, auth *normalize.Parser, s string) {
	t.Helper()
	want := authorityParts(full.Parse(s))
	if got := authorityParts(auth.ParseAuthority(s)); got != want {
		t.Fatalf("ParseAuthority(%q) = %s, Parse: %s", s, got, want)
	}
}

// TestParseAuthority: the URL Standard's parser can only fail in the
// scheme, the host and the port, so stopping after the authority gives
// Parse's error and parts for every input (the corpus and its variants,
// WPT, the golden and fuzz seeds).
func TestParseAuthority(t *testing.T) {
	var full, auth normalize.Parser
	inputs := withVariants(shippedCorpus(t, true))
	for _, c := range loadWPT(t, wptFile) {
		inputs = append(inputs, c.Input)
	}
	inputs = append(inputs, verbatimSeeds...)
	inputs = append(inputs,
		"http://a:99999/p",       // port over 65535: fails after the host
		"http://a:8x/p",          // a port byte that is no digit
		"http://a/\x00%zz?\t#\n", // nothing after the authority fails
		"http://a\t.b/p",         // a tab inside the host is removed first
		"sc://h:1/p", "sc:opaque", "file://h/p", "file:///C:/x", "http://[::1]:80/x", "http://u:p@a/",
	)
	for _, s := range inputs {
		checkAuthority(t, &full, &auth, s)
	}
	// ParseAuthority leaves the parser as it was for Parse.
	u, err := auth.Parse("https://a.example/p?q#f")
	if err != nil || u.Path() != "/p" {
		t.Fatalf("Parse after ParseAuthority: %v, %v", u, err)
	}
}

// FuzzParseAuthority: ParseAuthority agrees with Parse on any input.
func FuzzParseAuthority(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	var full, auth normalize.Parser
	f.Fuzz(func(t *testing.T, s string) { checkAuthority(t, &full, &auth, s) })
}
