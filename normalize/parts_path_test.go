package normalize_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// pathParts is what ParseThroughPath promises to share with Parse: the
// error's kind, or the parts in the scheme and the authority, the path
// (with whether it is opaque, and its segments and extension, which read
// it), and a null query and fragment.
func pathParts(u *normalize.URL, err error) string {
	if err != nil {
		return "error " + normalize.KindOf(err)
	}
	segs, _ := u.PathSegments()
	return fmt.Sprintf("%s %q %v %q %q", authorityParts(u, nil), u.Path(), u.OpaquePath(), segs, u.Extension())
}

// checkThroughPath fails when ParseThroughPath and Parse disagree on s,
// or when ParseThroughPath's URL has a query or a fragment.
func checkThroughPath(t *testing.T, full, head *normalize.Parser, s string) {
	t.Helper()
	want := pathParts(full.Parse(s))
	u, err := head.ParseThroughPath(s)
	if got := pathParts(u, err); got != want {
		t.Fatalf("ParseThroughPath(%q) = %s, Parse: %s", s, got, want)
	}
	if err != nil {
		return
	}
	if _, ok := u.Query(); ok {
		t.Fatalf("ParseThroughPath(%q) has a query", s)
	}
	if _, ok := u.Fragment(); ok {
		t.Fatalf("ParseThroughPath(%q) has a fragment", s)
	}
}

// TestParseThroughPath: the URL Standard's parser can fail only in the
// scheme, the host and the port, and what follows a special URL's path
// (from its first '?' or '#') changes nothing in it, so stopping at the
// path's end gives Parse's error and parts for every input (the inputs
// of TestParseAuthority, and the shapes where the verbatim scan and the
// general parser meet).
func TestParseThroughPath(t *testing.T) {
	var full, head normalize.Parser
	inputs := parseInputs(t,
		"https://a.example/p/q.html?q=1#f",   // the scan: a verbatim authority and path, the rest unread
		"https://a.example/p?q=é#\x01",       // a query and a fragment the serializer rewrites: unread all the same
		"https://a.example/p?q ",             // a trailing space after the path: trimmed, unread
		"https://a.example/p  ",              // trailing spaces in the path: the general parser trims them
		"https://a.example/p\t/q?x",          // a tab in the path: removed by the general parser
		"https://a.example/a/./b/../c?x",     // dot segments: the general parser
		"https://a.example/%7e/a%2fb;p=1",    // '%' and ';': verbatim, not a plain path
		"https://a.example//a/",              // an empty segment
		"https://a.example/é",                // a byte the serializer encodes
		"https://a.example\\p",               // '\' ends the authority: the general parser
		"https://a.example?q#f",              // no path: the serializer writes "/"
		"https://a.example",                  // no path and nothing after
		"https://a.example#f/x",              // a '/' in the fragment is not the path's
		"HTTPS://A.EXAMPLE:443/P/Q.TXT?q",    // uppercase and the default port: the copy's cut
		"http://a.example:80/",               // the default port alone
		"http://a.example:8080/x.y.z",        // a port kept
		"https://a.example/p#f?g",            // a '?' after '#' is the fragment's
		"sc://h/p?q#f", "mailto:x?subject=y", // not special: the general parser
		"http://a:99999/p?q", "http://[::1]/p.a?q", "http://u:p@a/p?q#f", "file:///C:/x.y?q",
	)
	for _, s := range inputs {
		checkThroughPath(t, &full, &head, s)
	}
	// ParseThroughPath leaves the parser as it was for Parse.
	for _, s := range []string{"https://a.example/p", "HTTP://A.EXAMPLE/p", "https://a.example/./p"} {
		if _, err := head.ParseThroughPath(s); err != nil {
			t.Fatal(err)
		}
		u, err := head.Parse("https://a.example/p?q#f")
		if err != nil || u.String() != "https://a.example/p?q#f" {
			t.Fatalf("Parse after ParseThroughPath(%q): %v, %v", s, u, err)
		}
	}
}

// FuzzParseThroughPath: ParseThroughPath agrees with Parse on any input.
func FuzzParseThroughPath(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	var full, head normalize.Parser
	f.Fuzz(func(t *testing.T, s string) { checkThroughPath(t, &full, &head, s) })
}

// TestPathSegmentsNearTheBuffersStart: AllPathSegments reads the slashes
// of a path of 32 bytes or fewer in the 32 bytes of the URL's buffer up
// to the path's end, which start in the scheme or the authority (their
// "//" among them): for every host length that puts the window's start
// before, at and after the path's, a slash at each position of the path,
// the segments are strings.Split's, in raw's bytes and in a copy (an
// uppercase host).
func TestPathSegmentsNearTheBuffersStart(t *testing.T) {
	var p normalize.Parser
	for hostLen := 1; hostLen <= 30; hostLen++ {
		host := strings.Repeat("h", hostLen-1) + "a"
		for n := 1; n <= 34; n++ {
			for at := 0; at < n; at++ {
				b := []byte("/" + strings.Repeat("x", n-1))
				b[at] = '/'
				path := string(b)
				want := strings.Split(path[1:], "/")
				for _, raw := range []string{"https://" + host + path, "https://" + strings.ToUpper(host) + path} {
					u, err := p.Parse(raw)
					if err != nil {
						t.Fatal(err)
					}
					if got := slices.Collect(u.AllPathSegments()); !slices.Equal(got, want) {
						t.Fatalf("%q: segments %q, want %q", raw, got, want)
					}
				}
			}
		}
	}
}
