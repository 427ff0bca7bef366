package normalize

import (
	"os"
	"strings"
	"testing"
)

// TestKeyEndMatchesIndexByte: keyEnd's word steps and byte loop give
// IndexByte's answer (the first '=' of q[at:end], or end) for every piece
// bounds of queries of up to 40 bytes with an '=' or a '&' at each
// position: the '=' in the first, a later or the last word, past end (the
// next piece's), in the byte loop's tail, or none.
func TestKeyEndMatchesIndexByte(t *testing.T) {
	for size := range 41 {
		for _, fill := range []string{"a", "&", "=", "a=&"} {
			base := []byte(strings.Repeat(fill, size+1)[:size])
			for at := range size + 1 {
				for pos := range size {
					for _, c := range []byte{'=', '&', 'x'} {
						b := append([]byte(nil), base...)
						b[pos] = c
						q := string(b)
						end := len(q)
						if i := strings.IndexByte(q[at:], '&'); i >= 0 {
							end = at + i
						}
						want := end
						if i := strings.IndexByte(q[at:end], '='); i >= 0 {
							want = at + i
						}
						if got := keyEnd(q, at, end); got != want {
							t.Fatalf("keyEnd(%q, %d, %d) = %d, want %d", q, at, end, got, want)
						}
					}
				}
			}
		}
	}
}

// TestKeyFilterLetsEveryMatchThrough: keyFilter (mayRemove) lets through
// every key that pagination or a query.remove group of any host or path
// removes (removes), for every built-in profile and a profile with
// per-host and per-path tracking groups, pagination and a bounded regexp
// (clara's, unbounded, lets every key of 7 bytes or more through): the
// keys are the patterns' own names (exact, glob prefixes, in both cases)
// and the query keys of testdata's URLs.
func TestKeyFilterLetsEveryMatchThrough(t *testing.T) {
	keys := []string{"", "a", "p", "page", "PAGE", "pagenumber", "PageNumber", "xsess", "ref", "utm_", "utm_x", "UTM_SOURCE", "hostonlykey", "HostOnlyKey", "zpathonlykey12",
		"session", "xsessionx", "fbclid", "gclid", "_ga", "_gl", "sid", "jsessionid"}
	for _, u := range readTestURLs(t) {
		if _, q, ok := strings.Cut(u, "?"); ok {
			for _, piece := range strings.Split(q, "&") {
				k, _, _ := strings.Cut(piece, "=")
				keys = append(keys, k, strings.ToUpper(k))
			}
		}
	}
	p := MustLookup("default").Profile()
	p.Name = "host-groups"
	p.Query.Remove = []ParamGroup{{Reason: "tracking", Patterns: []string{"utm_*", "~^xsess$"}}}
	p.Pagination = &Pagination{Params: []string{"page", "pagenumber"}}
	p.Hosts = []HostRule{{Host: "a.example", Tracking: &ParamSet{Params: []string{"hostonlykey"}},
		Paths: []PathRule{{Match: "/p/*", Tracking: &ParamSet{Params: []string{"zpathonlykey12"}}}}}}
	custom, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	ns := []*Normalizer{custom}
	for _, name := range Names() {
		ns = append(ns, MustLookup(name))
	}
	for _, n := range ns {
		for _, k := range keys {
			for _, groups := range n.ruleSets() {
				if r, _ := n.removes(groups, k); r != "" && !n.mayRemove(k) {
					t.Errorf("%s: removes(%q) = %q, but mayRemove rules it out", n.Name(), k, r)
				}
			}
		}
	}
}

// readTestURLs returns testdata's kasztp URLs.
func readTestURLs(t *testing.T) []string {
	b, err := os.ReadFile("../testdata/urls/kasztp.txt")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(b), "\n")
}

// TestReferenceKeyFilter: the reference's keyFilter, joined after
// useReference unfilters the matchers, lets every key through, so that
// the reference matches every key (TestFastPathsMatchReference compares
// with it).
func TestReferenceKeyFilter(t *testing.T) {
	for _, name := range []string{"curiousnow-v0", "edge-gateway", "crawler-commons"} {
		ref, err := NewReference(MustLookup(name).Profile())
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"", "a", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "\xff"} {
			if !ref.mayRemove(k) {
				t.Errorf("%s reference: mayRemove(%q) is false", name, k)
			}
		}
	}
}
