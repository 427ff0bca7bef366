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
	inputs := parseInputs(t,
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

// parseInputs are the inputs on which a partial parse is compared with
// Parse: the corpus and its variants, WPT, the verbatim seeds and extra.
func parseInputs(t *testing.T, extra ...string) []string {
	inputs := withVariants(shippedCorpus(t, true))
	for _, c := range loadWPT(t, wptFile) {
		inputs = append(inputs, c.Input)
	}
	inputs = append(inputs, verbatimSeeds...)
	return append(inputs, extra...)
}

// FuzzParseAuthority: ParseAuthority agrees with Parse on any input.
func FuzzParseAuthority(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	var full, auth normalize.Parser
	f.Fuzz(func(t *testing.T, s string) { checkAuthority(t, &full, &auth, s) })
}

// tailParts is what ParseWithoutPath promises to share with Parse: the
// error's kind, or the parts in the scheme and the authority, the query
// and the fragment (with whether each is null).
func tailParts(u *normalize.URL, err error) string {
	if err != nil {
		return "error " + normalize.KindOf(err)
	}
	q, hasQ := u.Query()
	f, hasF := u.Fragment()
	return fmt.Sprintf("%s %q %v %q %v", authorityParts(u, nil), q, hasQ, f, hasF)
}

// checkWithoutPath fails when ParseWithoutPath and Parse disagree on s,
// or when ParseWithoutPath's URL has a path.
func checkWithoutPath(t *testing.T, full, tail *normalize.Parser, s string) {
	t.Helper()
	want := tailParts(full.Parse(s))
	u, err := tail.ParseWithoutPath(s)
	if got := tailParts(u, err); got != want {
		t.Fatalf("ParseWithoutPath(%q) = %s, Parse: %s", s, got, want)
	}
	if err == nil && u.Path() != "" {
		t.Fatalf("ParseWithoutPath(%q) has the path %q", s, u.Path())
	}
}

// TestParseWithoutPath: a special URL's path ends at its first '?' or
// '#', so skipping it gives Parse's query, fragment, other parts and
// error for every input (the inputs of TestParseAuthority, and the
// shapes where the skip and the general parser meet).
func TestParseWithoutPath(t *testing.T) {
	var full, tail normalize.Parser
	inputs := parseInputs(t,
		"https://a.example/p?q=1#f",          // the skip: a verbatim authority, query and fragment
		"https://a.example/%zz/../\x01?q#f",  // a path the serializer rewrites: skipped all the same
		"https://a.example/p\t?q",            // a tab in the path: removed, the query starts at '?'
		"https://a.example/p?q\t#f",          // a tab in the query: the general parser
		"https://a.example/p?q ",             // a trailing space: trimmed by the general parser
		"https://a.example/p  ",              // trailing spaces in a path: the skip (no query)
		"https://a.example/p#f?g",            // a '?' after '#' is the fragment's
		"https://a.example?q#f",              // no path at all
		"https://a.example#",                 // an empty fragment
		"https://a.example/p?",               // an empty query
		"HTTPS://A.EXAMPLE:443/p?q",          // uppercase and the default port: the copy's cut
		"http://a.example:8080\\p?q",         // '\' ends the authority
		"https://a.example/p?q=é#é",          // bytes the serializer encodes: the general parser
		"https://a.example/p?q=\"'<>",        // '\'' is encoded in a special query
		"sc://h/p?q#f", "mailto:x?subject=y", // not special: the general parser
		"http://a:99999/p?q", "http://[::1]/p?q", "http://u:p@a/p?q#f", "file:///C:/x?q",
	)
	for _, s := range inputs {
		checkWithoutPath(t, &full, &tail, s)
	}
	// ParseWithoutPath leaves the parser as it was for Parse.
	u, err := tail.Parse("https://a.example/p?q#f")
	if err != nil || u.Path() != "/p" {
		t.Fatalf("Parse after ParseWithoutPath: %v, %v", u, err)
	}
}

// FuzzParseWithoutPath: ParseWithoutPath agrees with Parse on any input.
func FuzzParseWithoutPath(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	var full, tail normalize.Parser
	f.Fuzz(func(t *testing.T, s string) { checkWithoutPath(t, &full, &tail, s) })
}
