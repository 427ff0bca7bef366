package udf

import (
	"strings"
	"testing"
)

func TestCheckProfile(t *testing.T) {
	for _, tc := range []struct {
		fn      string
		nargs   int
		profile string
		want    string // error substring; "" = no error
	}{
		{"normalize_url", 2, "default", ""},
		{"normalize_url", 2, "bogus", "normalize_url(url, 'bogus'): unknown_profile: known profiles: "},
		{"try_canonical_hash", 2, "bogus", "try_canonical_hash(url, 'bogus'): unknown_profile"}, // try_ raises too
		{"normalize_url", 1, "bogus", ""},       // no profile argument
		{"resolve_url", 2, "bogus", ""},         // second argument is a reference
		{"url_profile_version", 1, "bogus", ""}, // the profile name is data
	} {
		var f *Func
		for _, g := range Lookup(tc.fn) {
			if len(g.Args) == tc.nargs {
				f = g
			}
		}
		if f == nil {
			t.Fatalf("no %s/%d", tc.fn, tc.nargs)
		}
		err := f.CheckProfile(tc.profile)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s/%d CheckProfile(%q) = %v; want nil", tc.fn, tc.nargs, tc.profile, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s/%d CheckProfile(%q) = %v; want prefix %q", tc.fn, tc.nargs, tc.profile, err, tc.want)
		case tc.want != "" && strings.Contains(err.Error(), "use try_"):
			t.Errorf("%s: unknown profile must not point to try_ (it raises there too): %v", tc.fn, err)
		}
	}
}
