package normalize_test

import (
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestQueryKeep: query.keep overrules query.remove (not pagination), for
// a key any group removes; a kept key stays where the order puts it.
func TestQueryKeep(t *testing.T) {
	n, err := normalize.New(normalize.Profile{Name: "keep", Version: "1", Hash: normalize.HashSHA256,
		Query: normalize.QueryRules{Order: normalize.OrderKey,
			Remove: []normalize.ParamGroup{{Reason: "tracking", Patterns: []string{"utm_*", "ref"}}, {Reason: "session", Patterns: []string{"~^sid$"}}},
			Keep:   []string{"utm_keep", "SID"}},
		Pagination: &normalize.Pagination{Params: []string{"page", "utm_keep2"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{"https://example.com/?utm_keep=1&utm_source=x", "https://example.com/?utm_keep=1"},  // kept against a glob
		{"https://example.com/?UTM_KEEP=1&ref=x&a=1", "https://example.com/?UTM_KEEP=1&a=1"}, // keep is case-insensitive (keys sort bytewise)
		{"https://example.com/?sid=1&b=2", "https://example.com/?b=2&sid=1"},                 // kept against a regexp
		{"https://example.com/?utm_keep2=3&page=2&z=1", "https://example.com/?z=1"},          // pagination is not overruled
		{"https://example.com/?utm_keeps=1&keep=1", "https://example.com/?keep=1"},           // an exact name, not a prefix
	} {
		got, err := n.Normalize(c.in)
		if err != nil || got != c.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}
