package normalize_test

import (
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// rowSeeds are the SQL rows' shapes (sqlRow) on the boundaries of
// canon.append's copies and queryKept's '%' search: an uppercase scheme
// and host alone and with each cut after it (a default port, a www label,
// a trailing slash before a query, a sorted query, a fragment), an upgrade
// (clara, v-pct-upgrade) with an uppercase scheme and a default port,
// and a '%' anywhere in a query that the rules split (escapes, a stray
// '%', "%%", '%' as a key, first, last) next to '+', '&' and '='.
var rowSeeds = []string{
	"HTTPS://EXAMPLE.COM/a?x=1&bench=1",
	"HTTPS://EXAMPLE.COM/a?x=1&bench=1#f2",
	"HTTP://EXAMPLE.COM:80/a?bench=1",
	"HTTPS://EXAMPLE.COM:443/a/?bench=1#f",
	"HTTPS://EXAMPLE.COM:8080/a?bench=1",
	"HTTP://WWW.EXAMPLE.COM/a?bench=1",
	"HTTP://www.example.com:80/a/b/?z=1&bench=1#f",
	"http://www.example.com/a/b/?z=1&bench=1#f",
	"HTTPS://EXAMPLE.COM/A/B/?Z=1&BENCH=1",
	"HTTPS://EXAMPLE.COM?bench=1",
	"HTTPS://EXAMPLE.COM/?bench=1#f3",
	"https://example.com/a/?x=1&bench=1",
	"https://example.com/a?x=1&bench=1#f3",
	"https://example.com/a?z=1&bench=1#f3",
	"Http://Example.com:80/",
	"http://example.com:80/a?b=1&a=2#f",
	"hTTp://example.com/a",
	"https://example.com/a?x=%41&bench=1",
	"https://example.com/a?x=1&bench=%",
	"https://example.com/a?%=1&bench=1",
	"https://example.com/a?x=%%&bench=1",
	"https://example.com/a?x=%7e",
	"https://example.com/a?%",
	"https://example.com/a?b=1&a=%2B+x#f%41",
	"https://example.com/a?a=1&b=x+y&c==",
	"HTTPS://EXAMPLE.COM/a?B=%41&a=1",
	// the rules that read a piece's key (queryKept's keyless): a key
	// removed or paginated before and after bench=, "k", "k=", a value's '='
	"https://example.com/a?fbclid=1&bench=1", "https://example.com/a?bench=1&fbclid=1", "https://example.com/a?fbclid&bench=1",
	"https://example.com/a?page=2&bench=1", "https://example.com/a?bench=1&page=2", "https://example.com/a?page&bench=1",
	"https://example.com/a?a&b", "https://example.com/a?b&a", "https://example.com/a?a=&b=", "https://example.com/a?a=b=c&d=1",
}

// rowProfiles are whatwg with order pair (the order that reads no key)
// and each rule that reads a key besides it.
func rowProfiles(t testing.TB) []*normalize.Normalizer {
	pair := func(q normalize.QueryRules) normalize.QueryRules { q.Order = normalize.OrderPair; return q }
	return whatwgWith(t, []profileEdit{
		{"v-pair", func(p *normalize.Profile) { p.Query = pair(normalize.QueryRules{DropEmptyPairs: true}) }},
		{"v-pair-remove", func(p *normalize.Profile) {
			p.Query = pair(normalize.QueryRules{Remove: []normalize.ParamGroup{{Reason: "tracking", Patterns: []string{"fbclid"}}}})
		}},
		{"v-pair-page", func(p *normalize.Profile) {
			p.Query = pair(normalize.QueryRules{})
			p.Pagination = &normalize.Pagination{Params: []string{"page"}}
		}},
		{"v-pair-host-remove", func(p *normalize.Profile) { // a per-host group only (splitQuery's groups)
			p.Query = pair(normalize.QueryRules{})
			strip := true
			p.Hosts = []normalize.HostRule{{Host: "example.com", Tracking: &normalize.ParamSet{Strip: &strip, Params: []string{"fbclid"}}}}
		}},
		{"v-pair-explicit", func(p *normalize.Profile) { p.Query = pair(normalize.QueryRules{ExplicitEmptyValue: true}) }},
		{"v-pair-bare", func(p *normalize.Profile) { p.Query = pair(normalize.QueryRules{BareEmptyValue: true}) }},
		{"v-pair-form", func(p *normalize.Profile) { p.Query = pair(normalize.QueryRules{FormEncoding: true}) }},
	})
}

// TestRowSeedsMatchReference: on rowSeeds and on the SQL rows made from
// them (sqlRow's four shapes), every profile of TestFastPathsMatchReference
// (rowProfiles among them) and of TestCanonCheckMatchesReference gives the
// reference's output and error (matchReference).
func TestRowSeedsMatchReference(t *testing.T) {
	inputs := append([]string(nil), rowSeeds...)
	for i := range 9 * len(rowSeeds) {
		inputs = append(inputs, sqlRow(rowSeeds, i))
	}
	matchReference(t, append(referenceProfiles(t), canonCheckProfiles(t)...), inputs)
}

// matchReference checks that each of ns gives its reference's output and
// error on each input through Normalize, AppendNormalized (after bytes
// already in the buffer: canon.append lowercases from where it starts) and
// Hash.
func matchReference(t *testing.T, ns []*normalize.Normalizer, inputs []string) {
	t.Helper()
	for _, n := range ns {
		ref, err := normalize.NewReference(n.Profile())
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range inputs {
			got, gerr := n.Normalize(in)
			want, werr := ref.Normalize(in)
			if got != want || errString(gerr) != errString(werr) {
				t.Errorf("%s: Normalize(%q)\n fast      %q, %v\n reference %q, %v", n.Name(), in, got, gerr, want, werr)
				continue
			}
			if werr != nil {
				continue
			}
			if b, err := n.AppendNormalized([]byte("PREFIX "), in); err != nil || string(b) != "PREFIX "+want {
				t.Errorf("%s: AppendNormalized(%q) = %q, %v; want %q", n.Name(), in, b, err, "PREFIX "+want)
			}
			if h, err := n.Hash(in); err != nil || h != ref.HashCanonical(want) {
				t.Errorf("%s: Hash(%q) = %q, %v; want the hash of %q", n.Name(), in, h, err, want)
			}
		}
	}
}

// TestRowShapesTakeShortcut: under default, the SQL rows' shapes are
// answered by the verbatim shortcut (RowPath), not the parser: the path
// benchmarks/README.md "Issue 18: rows that are not canonical" measures.
func TestRowShapesTakeShortcut(t *testing.T) {
	n := normalize.MustLookup("default")
	for _, c := range []struct{ in, path string }{
		{"https://example.com/a?a=1", "same"},
		{"https://example.com/a?a=1&bench=1", "same"},
		{"HTTPS://EXAMPLE.COM/a?a=1&bench=1", "edit"},
		{"https://example.com/a?a=1&bench=1#f3", "same"}, // a prefix of the row
		{"https://example.com/a/?a=1&bench=1", "edit"},
		{"https://example.com/a?z=1&bench=1", "sort"},
		{"https://example.com/a?x=%41&bench=1", "refused"}, // '%': the percent rules decide
		{"https://example.com/./a?bench=1", "auth"},
	} {
		if got := normalize.RowPath(n, c.in); got != c.path {
			t.Errorf("RowPath(default, %q) = %s, want %s", c.in, got, c.path)
		}
	}
}
