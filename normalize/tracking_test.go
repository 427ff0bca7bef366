package normalize_test

import (
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestTrackingHierarchy pins the global → host → URL-pattern inheritance of
// ParamSet (edge-gateway.md "Configuration"): every level inherits its
// parent's patterns and strip flag.
func TestTrackingHierarchy(t *testing.T) {
	no, yes := false, true
	p := normalize.Profile{Name: "hier", Version: "1", Hash: normalize.HashSHA256,
		Query: normalize.QueryRules{Remove: []normalize.ParamGroup{
			{Reason: "session", Patterns: []string{"sid"}},
			{Reason: "tracking", Patterns: []string{"a"}},
		}},
		Hosts: []normalize.HostRule{
			{Host: "off.test", Tracking: &normalize.ParamSet{Strip: &no}, Paths: []normalize.PathRule{
				{Match: "/add/*", Tracking: &normalize.ParamSet{ParamsAdd: []string{"b"}}},
				{Match: "/on/*", Tracking: &normalize.ParamSet{Strip: &yes, ParamsAdd: []string{"b"}}},
			}},
			{Host: "replace.test", Tracking: &normalize.ParamSet{Params: []string{"c"}}, Paths: []normalize.PathRule{
				{Match: "/none/*", Tracking: &normalize.ParamSet{Params: []string{}}},
				{Match: "/add/*", Tracking: &normalize.ParamSet{ParamsAdd: []string{"d"}}},
			}},
		},
	}
	const q = "?a=1&b=2&c=3&d=4&sid=5"
	for _, c := range []struct{ url, want, why string }{
		{"http://other.test/x" + q, "http://other.test/x?b=2&c=3&d=4", "global list; session group untouched"},
		{"http://off.test/x" + q, "http://off.test/x?a=1&b=2&c=3&d=4", "strip: false on the host"},
		{"http://off.test/add/x" + q, "http://off.test/add/x?a=1&b=2&c=3&d=4", "params_add under strip: false strips nothing"},
		{"http://off.test/on/x" + q, "http://off.test/on/x?c=3&d=4", "strip: true again: inherited a plus b"},
		{"http://replace.test/x" + q, "http://replace.test/x?a=1&b=2&d=4", "params replaces the global list"},
		{"http://replace.test/none/x" + q, "http://replace.test/none/x?a=1&b=2&c=3&d=4", "params: [] removes nothing"},
		{"http://replace.test/add/x" + q, "http://replace.test/add/x?a=1&b=2", "params_add extends the host's list"},
	} {
		for _, prof := range []normalize.Profile{p, roundTrip(t, p)} {
			n, err := normalize.New(prof)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := n.Normalize(c.url); err != nil || got != c.want {
				t.Errorf("%s: %q = %q, %v; want %q", c.why, c.url, got, err, c.want)
			}
		}
	}
}

// roundTrip returns p after Profile.JSON and ParseProfile.
func roundTrip(t *testing.T, p normalize.Profile) normalize.Profile {
	t.Helper()
	q, err := normalize.ParseProfile("roundtrip", p.JSON())
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestPathRuleMatch: URL patterns are case-sensitive globs or "~" / "~*"
// regexps (edge-gateway.md "Pattern types"); the first match wins.
func TestPathRuleMatch(t *testing.T) {
	no := false
	p := normalize.Profile{Name: "paths", Version: "1", Hash: normalize.HashSHA256,
		Query: normalize.QueryRules{DropEmpty: true, Remove: []normalize.ParamGroup{{Reason: "tracking", Patterns: []string{"a"}}}},
		Hosts: []normalize.HostRule{{Host: "h.test", Paths: []normalize.PathRule{
			{Match: "/api/*", Tracking: &normalize.ParamSet{Strip: &no}},
			{Match: "~^/v[0-9]+/", Tracking: &normalize.ParamSet{Strip: &no}},
			{Match: "~*^/docs/", Tracking: &normalize.ParamSet{Strip: &no}},
			{Match: "/api/*", Tracking: &normalize.ParamSet{ParamsAdd: []string{"never"}}}, // shadowed
		}}},
	}
	n, err := normalize.New(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{"/api/x?a=1", "/api/x?a=1"},         // glob
		{"/api?a=1", "/api"},                 // "/api/*" needs the slash
		{"/API/x?a=1", "/API/x"},             // globs are case-sensitive
		{"/v2/x?a=1", "/v2/x?a=1"},           // "~" regexp
		{"/V2/x?a=1", "/V2/x"},               // ... case-sensitive
		{"/DOCS/x?a=1", "/DOCS/x?a=1"},       // "~*" regexp, case-insensitive
		{"/other/api/x?a=1", "/other/api/x"}, // globs are anchored
		{"/x/v2/?a=1", "/x/v2/"},             // the regexp says ^
		{"/api/x?never=1", "/api/x?never=1"}, // the shadowed rule is never used
	} {
		in, want := "http://h.test"+c.path, "http://h.test"+c.want
		if got, err := n.Normalize(in); err != nil || got != want {
			t.Errorf("%q = %q, %v; want %q", in, got, err, want)
		}
	}
	p.Hosts[0].Paths[0].Match = "~(unclosed"
	if _, err := normalize.New(p); normalize.KindOf(err) != "config" || !strings.Contains(err.Error(), "hosts[0].paths[0].match") {
		t.Errorf("bad regexp: %v, want a config error naming hosts[0].paths[0].match", err)
	}
	p.Hosts[0].Paths[0].Match = "api/*"
	if _, err := normalize.New(p); normalize.KindOf(err) != "config" {
		t.Errorf("relative glob: %v, want a config error", err)
	}
}
