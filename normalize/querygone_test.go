package normalize_test

import (
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// queryGoneSeeds are verbatim URLs with every kind of query a profile that
// removes every query (a group "*" and drop_empty: safebrowsing) cuts on
// the fast path, and the fragments it cuts with them: empty queries and
// pieces, a piece without a key or a value, escapes good and bad (which
// the percent rules would read if the query stayed), a text directive,
// and the lengths either side of limits.max_params (which still refuses).
var queryGoneSeeds = []string{
	"https://example.com/p?",                  // an empty query
	"https://example.com/p?&",                 // empty pieces only
	"https://example.com/p?&&a=1&&",           // empty pieces around one
	"https://example.com/p?=v",                // no key
	"https://example.com/p?a",                 // no value
	"https://example.com/p?a=%FF&b=%zz&c=%25", // escapes: bad UTF-8, stray, an escaped '%'
	"https://example.com/p?a=%25%32%35",       // decoded again and again
	"https://example.com/p/?a=1",              // a trailing slash before the query
	"https://example.com/?a=1",                // the root
	"https://example.com?a=1",                 // no path written
	"https://example.com:443/p?a=1",           // and a port to cut
	"https://www.example.com/p?utm_source=x#f",
	"https://example.com/p?a=1#",          // an empty fragment
	"https://example.com/p?a=1#:~:text=x", // a text directive
	"https://example.com/p?a=1#%25%32%35", // a fragment the percent rules would read
	"https://example.com/p#%41",           // a fragment without a query
	"http://example.com/p?a=1#f",          // a scheme to upgrade
	"https://example.com/p?" + strings.Repeat("a&", 499) + "a",
	"https://example.com/p?" + strings.Repeat("a&", 500) + "a",
	"https://example.com/p?" + strings.Repeat("&", 999),
	"https://example.com/p?" + strings.Repeat("&", 1000),
}

// TestQueryGoneMatchesReference: the built-in that removes every query
// (safebrowsing) and whatwg with the rules on each side of the cut's
// conditions (query.keep, pagination, a host rule, no drop_empty, a kept
// fragment, fragment rules that read it) give the reference's output and
// error on the seeds and their case and trailing-slash variants.
func TestQueryGoneMatchesReference(t *testing.T) {
	every := []normalize.ParamGroup{{Reason: "query", Patterns: []string{"*"}}}
	gone := normalize.QueryRules{DropEmpty: true, DropEmptyPairs: true, Remove: every}
	ns := whatwgWith(t, []profileEdit{
		{"v-gone", func(p *normalize.Profile) { p.Query, p.Fragment.Remove = gone, true }},
		{"v-gone-fragment-kept", func(p *normalize.Profile) { p.Query = gone }},
		{"v-gone-decode", func(p *normalize.Profile) {
			p.Query, p.Fragment.Remove, p.Percent.DecodeRepeatedly = gone, true, true
			p.Fragment.StripTextDirective = true
		}},
		{"v-gone-decode-fragment-kept", func(p *normalize.Profile) { p.Query, p.Percent.DecodeRepeatedly = gone, true }},
		{"v-gone-without-drop-empty", func(p *normalize.Profile) {
			p.Query, p.Fragment.Remove = normalize.QueryRules{Remove: every}, true
		}},
		{"v-gone-keep", func(p *normalize.Profile) {
			p.Query, p.Fragment.Remove = gone, true
			p.Query.Keep = []string{"a"}
		}},
		{"v-gone-pagination", func(p *normalize.Profile) {
			p.Query, p.Fragment.Remove = gone, true
			p.Pagination = &normalize.Pagination{Params: []string{"a"}}
		}},
		{"v-gone-host-rule", func(p *normalize.Profile) {
			p.Query, p.Fragment.Remove = gone, true
			p.Hosts = []normalize.HostRule{{Host: "example.com", Tracking: &normalize.ParamSet{Params: []string{"b"}}}}
		}},
		{"v-gone-limits", func(p *normalize.Profile) {
			p.Query, p.Fragment.Remove = gone, true
			p.Limits.MaxParams = 3
			p.Scheme.Upgrade = map[string]string{"http": "https"}
			p.Path.TrailingSlash = normalize.SlashRemove
		}},
	})
	ns = append(ns, normalize.MustLookup("safebrowsing"))
	var inputs []string
	for _, s := range queryGoneSeeds {
		inputs = append(inputs, s, "HTTPS://EXAMPLE.COM"+s[len("https://example.com"):], strings.Replace(s, "/p", "/p/", 1))
	}
	matchReference(t, ns, inputs)
	// The cut is taken: safebrowsing answers a URL with a query and a
	// fragment without the general path.
	if got := normalize.RowPath(normalize.MustLookup("safebrowsing"), "https://example.com/p?a=1#f"); got != "same" {
		t.Errorf("safebrowsing takes the %s path for a query and a fragment, want same", got)
	}
}

// upperHostSeeds are verbatim URLs whose hosts the host rules look up
// (clara's host.map and languages, a config's per-host rules) or whose
// www label a rule strips (normalize-url, edge-gateway's config), written
// in lowercase: TestUppercaseHostsMatchReference writes their hosts in
// uppercase, which verbatimCanon refuses for those profiles (hostChanges:
// the general path lowercases them; a copy lowercased on the stack was
// tried, and cost those rows 10-15 % more than the general path).
var upperHostSeeds = []string{
	"https://boe.es/buscar?tipo=leyes",
	"https://www.boe.es/a/",
	"https://sepe.es/HomeSepe/",
	"https://www.sepe.es/HomeSepe/Personas/",
	"https://comunidad.madrid/servicios",
	"https://xoe.es/x",
	"https://www.example.com/a?b=1#f",
	"https://www.co.uk/",
	"https://www.www.example.com/",
	"https://www2.example.com/",
	"https://localhost/x",
	"https://www.example.com:443/a",
	"https://" + strings.Repeat("a", 60) + ".com/",
	"https://www." + strings.Repeat("a", 57) + ".com/",
}

// TestUppercaseHostsMatchReference: every profile of the reference tests
// gives the reference's output and error on hosts written in uppercase,
// in part or whole.
func TestUppercaseHostsMatchReference(t *testing.T) {
	var inputs []string
	for _, s := range upperHostSeeds {
		i := len("https://")
		j := i + strings.IndexAny(s[i:], ":/")
		inputs = append(inputs, s, s[:i]+strings.ToUpper(s[i:j])+s[j:], s[:i]+strings.ToUpper(s[i:i+1])+s[i+1:],
			"HTTPS"+s[5:i]+strings.ToUpper(s[i:]))
	}
	matchReference(t, referenceProfiles(t), inputs)
}

// queryRemovedSeeds are verbatim URLs whose queries the removal rules
// (query.remove, pagination, query.keep) cut in part or whole: in order or
// not, removed first, last or between, all removed (then '?' goes under
// drop_empty), after a trailing slash or the root, before a fragment.
// verbatimCanon leaves the removed parameters out (queryKept marks up to
// 64 of them, appendKept skips them), or refuses the URL: a removed
// parameter past the 64th, or one that remove_lone_root would read.
var queryRemovedSeeds = []string{
	"https://example.com/p?utm_source=x",
	"https://example.com/p?utm_source=x&utm_medium=y",
	"https://example.com/p?a=1&utm_source=x",
	"https://example.com/p?utm_source=x&a=1",
	"https://example.com/p?b=2&utm_source=x&a=1",
	"https://example.com/p?a=1&utm_source=x&b=2#f",
	"https://example.com/p/?utm_source=x",
	"https://example.com/p/?utm_source=x#f",
	"https://example.com/?utm_source=x",
	"https://example.com?utm_source=x",
	"https://example.com/?utm_source=x#f",
	"https://example.com/p?page=2&id=1&utm_source=x",
	"https://example.com/p?id=7&ida=1",
	"https://example.com/p?fbclid=1&gclid=2",
	"https://example.com/p?utm_source",
	"https://example.com/p?utm_source=",
	"https://example.com/p?UTM_SOURCE=x",
	"https://example.com/p?utm_source=%41",
	"https://example.com/p?" + strings.Repeat("a=1&", 63) + "utm_source=x&b=2", // the 64th parameter removed
	"https://example.com/p?" + strings.Repeat("a=1&", 64) + "utm_source=x&b=2", // the 65th: past the mask
	"https://example.com/p?utm_source=x&" + strings.Repeat("b=1&", 70) + "a=2",
}

// TestQueryRemovedMatchesReference: the built-ins and whatwg with removal
// rules and the rules that read what the removal leaves (drop_empty or
// not, remove_lone_root, trailing slashes, an order, pagination and
// query.keep) give the reference's output and error on the seeds and
// their case and trailing-slash variants.
func TestQueryRemovedMatchesReference(t *testing.T) {
	utm := []normalize.ParamGroup{{Reason: "tracking", Patterns: []string{"utm_*", "fbclid", "gclid", "id*"}}}
	ns := whatwgWith(t, []profileEdit{
		{"v-rm", func(p *normalize.Profile) { p.Query = normalize.QueryRules{DropEmpty: true, Remove: utm} }},
		{"v-rm-without-drop-empty", func(p *normalize.Profile) { p.Query = normalize.QueryRules{Remove: utm} }},
		{"v-rm-lone-root", func(p *normalize.Profile) {
			p.Query = normalize.QueryRules{DropEmpty: true, Remove: utm}
			p.Path.RemoveLoneRoot = true
		}},
		{"v-rm-slash-order", func(p *normalize.Profile) {
			p.Query = normalize.QueryRules{DropEmpty: true, Remove: utm, Order: normalize.OrderKey}
			p.Path.TrailingSlash = normalize.SlashRemove
			p.Fragment.Remove = true
		}},
		{"v-rm-page-keep", func(p *normalize.Profile) {
			p.Query = normalize.QueryRules{DropEmpty: true, Remove: utm, Keep: []string{"id"}, Order: normalize.OrderPair}
			p.Pagination = &normalize.Pagination{Params: []string{"page"}}
		}},
	})
	for _, name := range normalize.Names() {
		ns = append(ns, normalize.MustLookup(name))
	}
	var inputs []string
	for _, s := range queryRemovedSeeds {
		inputs = append(inputs, s, "HTTPS://EXAMPLE.COM"+s[len("https://example.com"):], strings.Replace(s, "/p", "/p/", 1))
	}
	matchReference(t, ns, inputs)
}

// TestTextDirectiveMatchesReference: fragments that
// fragment.strip_text_directive cuts (":~:text" in any case; an empty
// fragment goes with its '#') and ones it leaves (no ":~:", or ":~:"
// without "text"), which verbatimCanon keeps as they are, on every
// reference profile.
func TestTextDirectiveMatchesReference(t *testing.T) {
	var inputs []string
	for _, f := range []string{"", "section-1", ":~:text=x", "a:~:text=x", "a:~:TEXT=x", ":~", "a:~:", "a:~:tex", "top:~:text=a,b&text=c", "%41:~:text=x"} {
		inputs = append(inputs, "https://example.com/p#"+f, "https://example.com/p/?b=1&a=2#"+f, "https://www.example.com/#"+f)
	}
	matchReference(t, referenceProfiles(t), inputs)
	if got := normalize.RowPath(normalize.MustLookup("normalize-url"), "https://example.com/p#section-1"); got != "same" {
		t.Errorf("normalize-url takes the %s path for a fragment without a directive, want same", got)
	}
}
