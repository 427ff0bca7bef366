package normalize

import "testing"

// TestKeyRulesRemovedMatchesReference: keyRules.removed (whether, on the
// names' and the others' bits, without a reason) says what the
// reference's matcher by matcher decision says (a reason or none), for
// every built-in profile and the custom ones of rules21Profiles (names
// only, globs, regexps, query.keep of each kind, pagination, hosts and
// paths, perMatcher), on every set of groups and the keys of
// rules21Keys; and the reference's own removed (perMatcher) says the same.
// One more profile has keys that query.keep has by name and pagination
// by a glob or regexp only (pagination wins over query.keep: its others
// must be asked about a key kept by name).
func TestKeyRulesRemovedMatchesReference(t *testing.T) {
	keepPage := MustLookup("whatwg").Profile()
	keepPage.Name = "removed-keep-page"
	keepPage.Query.Remove = []ParamGroup{{Reason: "tracking", Patterns: []string{"utm_source", "pxg", "~^sid[0-9]$"}}}
	keepPage.Query.Keep = []string{"pxg", "page", "sid1"}
	keepPage.Pagination = &Pagination{Params: []string{"p*g", "~^pa[a-z]e$"}}
	removedSome := 0
	for _, p := range append(rules21Profiles(t), keepPage) {
		n, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := NewReference(p)
		rs, refs := allKeyRules(n), allKeyRules(ref)
		for i, r := range rs {
			for _, k := range rules21Keys(p) {
				want, _ := refs[i].removes(k, true)
				if got := r.removed(k); got != (want != "") {
					t.Errorf("%s rules %d: removed(%q) = %v; the reference's reason %q", p.Name, i, k, got, want)
				}
				if reason, _ := r.removes(k, false); (reason != "") != (want != "") {
					t.Errorf("%s rules %d: removes(%q) without why = %q; the reference's reason %q", p.Name, i, k, reason, want)
				}
				if got := refs[i].removed(k); got != (want != "") {
					t.Errorf("%s rules %d: the reference's removed(%q) = %v; its reason %q", p.Name, i, k, got, want)
				}
				if want != "" {
					removedSome++
				}
			}
		}
	}
	// Normalize (which asks removes without why) removes "pxg", kept by
	// name, grouped by name, and pagination's by its glob, as the
	// reference does: it kept it before removes asked pagination's others
	// about a key query.keep has by name.
	n, err := New(keepPage)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := NewReference(keepPage)
	for _, u := range []string{"http://a.example/?pxg=1&b=2", "http://a.example/x?b=2&PXG=1", "http://a.example/?page=1&sid1=2&sid2=3&utm_source=x", "HTTP://A.example/a/../?pxg=%7e&c=d#f", "http://a.example/?c=&pxg=a%20b"} {
		got, err1 := n.Normalize(u)
		want, err2 := ref.Normalize(u)
		if got != want || (err1 == nil) != (err2 == nil) {
			t.Errorf("%s: Normalize = %q %v; the reference %q %v", u, got, err1, want, err2)
		}
	}
	if removedSome < 100 {
		t.Fatalf("only %d keys removed: the test asks too little", removedSome)
	}
}
