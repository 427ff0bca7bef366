package normalize_test

import (
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
