package normalize_test

import (
	"fmt"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestRewritePassState: what a pass learns about its URL (the language
// segment and where it is) describes the URL that pass wrote; a rewrite's
// re-run is a new pass, so nothing of the URL before the rewrite survives
// into the result (issue 16.9).
func TestRewritePassState(t *testing.T) {
	n, err := normalize.New(langRewriteProfile("lang-rewrite"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, url, lang, alts string }{
		// The case: b.example has no language segment; the
		// first pass's offset once made "https://b.example/capage".
		{"https://a.example/ca/old/page", "https://b.example/x/page", "<nil>", "[]"},
		// Rewritten onto another language host: its segment, at its offset.
		{"https://a.example/ca/moved/p", "https://c.example/site/es/p", "&{es es}", "[{ca https://c.example/site/ca/p} {en https://c.example/site/en/p}]"},
		// No rewrite: the one pass's segment.
		{"https://a.example/ca/new", "https://a.example/es/new", "&{ca es}", "[{ca https://a.example/ca/new}]"},
	} {
		r, err := n.Canonicalize(c.in)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		lang := "<nil>"
		if r.Language != nil {
			lang = fmt.Sprintf("&{%s %s}", r.Language.Original, r.Language.Preferred)
		}
		if r.URL != c.url || lang != c.lang || fmt.Sprint(r.Alternates) != c.alts {
			t.Errorf("%q = %q %s %v, want %q %s %s", c.in, r.URL, lang, r.Alternates, c.url, c.lang, c.alts)
		}
	}
}

// langRewriteProfile has language hosts and rewrites from one onto a
// host without a language segment and onto a language host whose segment
// is elsewhere (a variant of referenceProfiles, so FuzzNormalize checks
// its alternates).
func langRewriteProfile(name string) normalize.Profile {
	return normalize.Profile{Name: name, Version: "1", Hash: normalize.HashSHA256,
		Language: &normalize.Language{Preferred: "es", Hosts: []normalize.LanguageHost{
			{Host: "a.example", Segment: 0, Languages: []string{"es", "ca"}},
			{Host: "c.example", Segment: 1, Languages: []string{"es", "ca", "en"}},
		}},
		Path: normalize.PathRules{RemoveParams: []normalize.ParamGroup{{Reason: "session", Patterns: []string{"sid"}}}},
		Hosts: []normalize.HostRule{{Host: "a.example", Rewrite: []normalize.Rewrite{
			{FromPrefix: "https://a.example/es/old", ToPrefix: "https://b.example/x"},
			{FromPrefix: "https://a.example/es/moved/", ToPrefix: "https://c.example/site/es/"},
		}}}}
}
