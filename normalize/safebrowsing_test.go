package normalize_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestSafeBrowsingExpressions: the v4 "Suffix/Prefix Expressions" rules,
// one row per rule, the published examples first.
func TestSafeBrowsingExpressions(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string // nil: an error of kind err
		err  string
	}{
		{"http://a.b.c/1/2.html?param=1", []string{ // published example 1
			"a.b.c/1/2.html?param=1", "a.b.c/1/2.html", "a.b.c/", "a.b.c/1/",
			"b.c/1/2.html?param=1", "b.c/1/2.html", "b.c/", "b.c/1/"}, ""},
		{"http://a.b.c.d.e.f.g/1.html", []string{ // published example 2: the last five labels, never the TLD alone
			"a.b.c.d.e.f.g/1.html", "a.b.c.d.e.f.g/", "c.d.e.f.g/1.html", "c.d.e.f.g/",
			"d.e.f.g/1.html", "d.e.f.g/", "e.f.g/1.html", "e.f.g/", "f.g/1.html", "f.g/"}, ""},
		{"http://1.2.3.4/1/", []string{"1.2.3.4/1/", "1.2.3.4/"}, ""}, // published example 3: an IP address only as itself
		{"http://[::1]/a", []string{"[::1]/a", "[::1]/"}, ""},         // IPv6 too
		{"http://b.c/", []string{"b.c/"}, ""},                         // two labels: no suffix; "/" once
		{"http://a.b.c/1/2/3/4/5/6.html", []string{"a.b.c/1/2/3/4/5/6.html", // at most four prefixes, "/" included
			"a.b.c/", "a.b.c/1/", "a.b.c/1/2/", "a.b.c/1/2/3/", "b.c/1/2/3/4/5/6.html", "b.c/", "b.c/1/", "b.c/1/2/", "b.c/1/2/3/"}, ""},
		{"http://a.b/x?", []string{"a.b/x", "a.b/"}, ""},                                             // an empty query is none
		{"HTTP://u:p@A.B:8080/x/%252E%252E/y?q=%2541#f", []string{"a.b/y?q=A", "a.b/y", "a.b/"}, ""}, // canonicalized first (safebrowsing, with the query)
		{"a.b/%C3%A9", []string{"a.b/%C3%A9", "a.b/"}, ""},                                           // http assumed; uppercase hex
		{"mailto:x", nil, "missing_host"},                                                            // no host
		{"http://a b/", nil, "invalid_host"},                                                         // the profile's errors
	} {
		got, err := normalize.SafeBrowsingExpressions(c.in)
		if c.want == nil {
			if normalize.KindOf(err) != c.err {
				t.Errorf("SafeBrowsingExpressions(%q) = %q, %v; want error %s", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("SafeBrowsingExpressions(%q) =\n %q, %v\nwant\n %q", c.in, got, err, c.want)
		}
	}
}

func ExampleSafeBrowsingExpressions() {
	exprs, err := normalize.SafeBrowsingExpressions("http://a.b.c/1/2.html?param=1")
	if err != nil {
		panic(err)
	}
	for _, e := range exprs {
		fmt.Println(e)
	}
	// Output:
	// a.b.c/1/2.html?param=1
	// a.b.c/1/2.html
	// a.b.c/
	// a.b.c/1/
	// b.c/1/2.html?param=1
	// b.c/1/2.html
	// b.c/
	// b.c/1/
}
