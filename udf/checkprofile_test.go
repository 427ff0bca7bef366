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

// url_profile_version's argument is data: try_ gives NULL for an unknown
// name (unlike the profile argument of the other functions).
func TestTryProfileVersion(t *testing.T) {
	for _, f := range Lookup("try_url_profile_version") {
		out, null, err := f.CallText(nil, []string{"nope"})
		if err != nil || !null {
			t.Errorf("try_url_profile_version('nope') = %q, null=%v, %v; want NULL", out, null, err)
		}
	}
	for _, f := range Lookup("url_profile_version") {
		_, _, err := f.CallText(nil, []string{"nope"})
		want := "url_profile_version('nope'): unknown_profile: known profiles: "
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("url_profile_version('nope') error = %v; want prefix %q", err, want)
		}
	}
}

// SQLite's canonicalize_url JSON keeps URLs readable ('&', '<' unescaped).
func TestJSONReadable(t *testing.T) {
	f := Lookup("canonicalize_url")[0]
	r, _, err := f.CallCanonical([]string{"https://example.com/a?b=1&c=<2>#f"})
	if err != nil {
		t.Fatal(err)
	}
	got := string(JSON(r))
	if !strings.HasPrefix(got, `{"url":"https://example.com/a?b=1&c=%3C2%3E","hash":"`) ||
		!strings.Contains(got, `"fragment":"f","removed_params":[],"pagination":null,"language":null,"alternates":[]}`) {
		t.Errorf("JSON = %s", got)
	}
}

func TestQuoteArgs(t *testing.T) {
	long := "http://" + strings.Repeat("a", 100)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"http://x"}, `'http://x'`},
		{[]string{"a\"b", "p"}, `'a"b', 'p'`},               // Go's \" unescaped inside SQL quotes
		{[]string{"a\tb"}, `'a\tb'`},                        // control bytes stay visible
		{[]string{long}, "'" + long[:80] + "'…(107 bytes)"}, // truncation marker outside the quotes
	} {
		if got := quoteArgs(tc.args); got != tc.want {
			t.Errorf("quoteArgs(%q) = %s; want %s", tc.args, got, tc.want)
		}
	}
}
