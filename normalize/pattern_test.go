package normalize_test

import (
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestParamPatterns: the one pattern syntax of every parameter list
// (edge-gateway.md "Pattern types"), as query.remove applies it.
func TestParamPatterns(t *testing.T) {
	long := strings.Repeat("x", 70) // past the matcher's 64-byte lowercasing buffer
	n, err := normalize.New(normalize.Profile{Name: "patterns", Version: "1", Hash: normalize.HashSHA256,
		Query: normalize.QueryRules{Remove: []normalize.ParamGroup{{Reason: "test",
			Patterns: []string{"fbclid", "utm_*", "*_ref", "~^gclid[0-9]$", "~*^mc_(cid|eid)$", long}}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		param string
		gone  bool
	}{
		{"fbclid", true},              // exact name
		{"FBCLID", true},              // … ASCII case-insensitive
		{"fbclid2", false},            // … whole name only
		{"utm_source", true},          // '*' matches any run
		{"UTM_", true},                // … the empty run, case-insensitive
		{"site_ref", true},            // a leading '*'
		{"gclid1", true},              // "~": a regexp, case-sensitive
		{"GCLID1", false},             // … so not this
		{"gclid12", false},            // … anchored as written
		{"MC_CID", true},              // "~*": case-insensitive regexp
		{"mc_uid", false},             //
		{strings.ToUpper(long), true}, // a long name, case-insensitive
		{"utm%5Fsource", false},       // names match as written (this profile has no percent rule)
		{"q", false},                  // everything else stays
	} {
		in := "http://h/?" + c.param + "=1&keep=2"
		want := in
		if c.gone {
			want = "http://h/?keep=2"
		}
		if got, err := n.Normalize(in); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", c.param, got, err, want)
		}
	}
}
