package normalize_test

import (
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestOrderKeyValue: query order "key_value" sorts by key, then value, and
// puts "k" before "k=" so that both input orders give one URL.
func TestOrderKeyValue(t *testing.T) {
	n, err := normalize.New(normalize.Profile{Name: "kv", Version: "1", Hash: normalize.HashSHA256,
		Query: normalize.QueryRules{Order: normalize.OrderKeyValue}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{"http://h/?b=2&a=3&a=1", "http://h/?a=1&a=3&b=2"},
		{"http://h/?k=&k", "http://h/?k&k="},
		{"http://h/?k&k=", "http://h/?k&k="},
		{"http://h/?k=&j&k", "http://h/?j&k&k="},
	} {
		if got, err := n.Normalize(c.in); err != nil || got != c.want {
			t.Errorf("%q = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// TestDropEmpty: drop_empty removes a '?' with nothing after it, whether
// the query is split into parameters or not (issue 17: with an order and
// without drop_empty_pairs, "?" was one empty parameter and stayed).
func TestDropEmpty(t *testing.T) {
	for _, q := range []normalize.QueryRules{
		{DropEmpty: true}, // the query copied as one run
		{DropEmpty: true, Order: normalize.OrderKey}, // split into parameters
		{DropEmpty: true, Order: normalize.OrderKey, DropEmptyPairs: true},
	} {
		n, err := normalize.New(normalize.Profile{Name: "de", Version: "1", Hash: normalize.HashSHA256, Query: q})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ in, want string }{
			{"http://h/p?", "http://h/p"},     // nothing after '?'
			{"http://h/p?#f", "http://h/p#f"}, // nor before the fragment
			{"http://h/p?a", "http://h/p?a"},  // a bare key is something
			{"http://h/p?=", "http://h/p?="},  // so is an '='
		} {
			if got, err := n.Normalize(c.in); err != nil || got != c.want {
				t.Errorf("%+v: %q = %q, %v; want %q", q, c.in, got, err, c.want)
			}
		}
	}
}
