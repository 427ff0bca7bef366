package normalize_test

import (
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// reorderSeeds are verbatim URLs on each boundary of issue 18's two
// shortcuts (verbatim.go: a kept query written in the profile's order,
// appendKept; trailing slashes cut before a query or a fragment).
var reorderSeeds = []string{
	"https://example.com/a/b?id=5&bench=1",      // sqlbench's row: bench=k after the URL's own query
	"HTTPS://EXAMPLE.COM/a/b/?id=5&bench=1#top", // sqlbench's row, every change at once
	"https://example.com/a/b/?bench=1",          // a trailing slash before a query
	"https://example.com/a/b//?b=1",             // two trailing slashes
	"https://example.com/a/b/#f",                // a trailing slash before a fragment
	"https://example.com/a/b/?b=2&a=1#f",        // both, and a fragment
	"https://example.com/?b=2&a=1",              // a root path
	"https://example.com//?b=2&a=1",             // "//": the root and an empty segment
	"https://example.com//#f",                   //
	"https://example.com/a/?",                   // an empty query after the slash
	"https://example.com/a/?#",                  //
	"https://www.example.com:443/a/?b=1&a=2",    // a www label and the default port
	"https://example.com/?b=1&a=2&a=1&a=3",      // duplicates: the sort is stable
	"https://example.com/?a=2&b=1&a=1&a",        // duplicates, "k" and "k=" (key_value)
	"https://example.com/?b=1&&a=2",             // "&&": an empty parameter
	"https://example.com/?b=1&a=2&",             // an empty last parameter
	"https://example.com/?b=&a=",                // empty values (bare_empty_value)
	"https://example.com/?b&a",                  // no values (explicit_empty_value)
	"https://example.com/?b=1=2&a=1",            // '=' in a value (form encoding)
	"https://example.com/?b=a+b&a=%41",          // a '+' and an escape
	"https://example.com/?b=%7e&a=1",            //
	"https://example.com/?b=1;2&a=1",            // a byte form encoding encodes
	"https://example.com/?b=1&A=2",              // query.lowercase
	"https://example.com/?utm_source=x&b=1&a=2", // a removed key first
	"https://example.com/?b=1&a=2&utm_source=x", // a removed key last
	"https://example.com/?b=1&page=2&a=2",       // pagination
	"https://example.com/?p=1&o=2&n=3&m=4&l=5&k=6&j=7&i=8&h=9&g=10&f=11&e=12&d=13&c=14&b=15&a=16&_=17", // more than the stack list
	"https://example.com/a/?b=" + strings.Repeat("x", 40) + "&a=1",                                     // longer than max_length after an upgrade?
}

// TestReorderShortcut: the shortcuts answer the shapes they were made for
// (no parse), with the output of the general code, and leave the others
// to it.
func TestReorderShortcut(t *testing.T) {
	for _, c := range []struct {
		profile, in, want string
		shortcut          bool
	}{
		// default sorts by key and removes trailing slashes and fragments.
		{"default", "https://example.com/a/b?id=5&bench=1", "https://example.com/a/b?bench=1&id=5", true},      // issue 18: reordered
		{"default", "https://example.com/a/b/?bench=1", "https://example.com/a/b?bench=1", true},               // issue 18: slash before a query
		{"default", "HTTPS://EXAMPLE.COM/a/b/?id=5&bench=1#top", "https://example.com/a/b?bench=1&id=5", true}, // sqlbench's row
		{"default", "https://example.com/?b=1&a=2&a=1&a=3", "https://example.com?a=1&a=2&a=3&b=1", true},       // key_value order; the root's slash goes too
		{"default", "https://example.com/x?b=1&&a=2", "https://example.com/x?a=2&b=1", false},                  // an empty parameter: the general path drops it
		{"default", "https://example.com/x?b=%7e&a=1", "https://example.com/x?a=1&b=~", false},                 // an escape: the percent rules
		{"crawler-commons", "https://example.com/x?b=1&a=2&a=1", "https://example.com/x?a=2&a=1&b=1", true},    // key order: stable, equal keys keep their order
		{"normalize-url", "https://example.com/x?b=1&utm_source=2&a=1", "https://example.com/x?a=1&b=1", true}, // a removed key: left out (appendKept)
		{"normalize-url", "https://example.com/?utm_source=2", "https://example.com", false},                   // all removed after the root: remove_lone_root reads it, the general path
		{"clara", "https://example.com/x?utm_source=2#f", "https://example.com/x", true},                       // all removed: no '?' (drop_empty)
		{"default", "https://example.com/a/b/?bench=1#f", "https://example.com/a/b?bench=1", true},             // slash, query, dropped fragment
		// whatwg has no rule: the query and the slash stay.
		{"whatwg", "https://example.com/a/b/?id=5&bench=1", "https://example.com/a/b/?id=5&bench=1", true},
	} {
		n := normalize.MustLookup(c.profile)
		ref, err := normalize.NewReference(n.Profile())
		if err != nil {
			t.Fatal(err)
		}
		got, err := n.Normalize(c.in)
		want, werr := ref.Normalize(c.in)
		if err != nil || got != c.want || werr != nil || want != c.want {
			t.Errorf("%s: Normalize(%q) = %q, %v; reference %q, %v; want %q", c.profile, c.in, got, err, want, werr, c.want)
		}
		if b, err := n.AppendNormalized([]byte("x"), c.in); err != nil || string(b) != "x"+c.want {
			t.Errorf("%s: AppendNormalized(%q) = %q, %v", c.profile, c.in, b, err)
		}
		if h, err := n.Hash(c.in); err != nil || h != n.HashCanonical(c.want) {
			t.Errorf("%s: Hash(%q) = %q, %v; want the hash of %q", c.profile, c.in, h, err, c.want)
		}
		if got := normalize.VerbatimAnswers(n, c.in); got != c.shortcut {
			t.Errorf("%s: verbatimCanon answers %q: %v, want %v", c.profile, c.in, got, c.shortcut)
		}
	}
}

// TestReorderSeedsMatchReference: every profile of TestFastPathsMatchReference
// on the seeds, written with Normalize, AppendNormalized and Hash.
func TestReorderSeedsMatchReference(t *testing.T) {
	matchReference(t, referenceProfiles(t), reorderSeeds)
}

// TestReorderNoAlloc: AppendNormalized (the SQL adapters' call) writes a
// reordered query and cuts a slash before a query without an allocation.
func TestReorderNoAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	n := normalize.MustLookup("default")
	buf := make([]byte, 0, 256)
	for _, in := range []string{"https://example.com/a/b?id=5&bench=1", "https://example.com/a/b/?bench=1", "HTTPS://EXAMPLE.COM/a/b/?id=5&bench=1#top"} {
		if got := testing.AllocsPerRun(20, func() { buf, _ = n.AppendNormalized(buf[:0], in) }); got != 0 {
			t.Errorf("default: AppendNormalized(%q) allocates %v times", in, got)
		}
	}
}

// BenchmarkReorder18: the rows of issue 18's reorder round, AppendNormalized
// under default on one URL in a loop.
func BenchmarkReorder18(b *testing.B) {
	n := normalize.MustLookup("default")
	for _, c := range []struct{ name, in string }{
		{"kept", "https://example.com/a/b?bench=1"},
		{"reordered", "https://example.com/a/b?id=5&bench=1"},
		{"slash", "https://example.com/a/b/?bench=1"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				buf, _ = n.AppendNormalized(buf[:0], c.in)
			}
		})
	}
}

// TestReorderMaxLength: limits.max_length counts the output without the
// slashes cut before a query: an upgrade that adds a byte where a cut
// removes one stays within the limit, and the shortcut answers (with the
// reference's output); one byte more fails as on the general path.
func TestReorderMaxLength(t *testing.T) {
	p := normalize.MustLookup("whatwg").Profile()
	p.Name, p.Scheme.Upgrade, p.Limits.MaxLength = "upgrade-max", map[string]string{"http": "https"}, 30
	p.Path.TrailingSlash, p.Query.Order = normalize.SlashRemove, normalize.OrderKey
	fast, ref := fastAndReference(t, p)
	for _, c := range []struct {
		in       string
		shortcut bool
	}{
		{"http://example.com/abcd/?b&a=1", true},  // 30 bytes, 30 written
		{"http://example.com/abcd/#fragm", true},  // a fragment after the slash
		{"http://example.com/abcde?b&a=1", false}, // 31 written: the general path fails
		{"http://example.com/abcd//?b&a=", true},  // two slashes cut
	} {
		got, gerr := fast.Normalize(c.in)
		want, werr := ref.Normalize(c.in)
		if got != want || errString(gerr) != errString(werr) {
			t.Errorf("Normalize(%q) = %q, %v; reference %q, %v", c.in, got, gerr, want, werr)
		}
		if a := normalize.VerbatimAnswers(fast, c.in); a != c.shortcut {
			t.Errorf("verbatimCanon answers %q: %v, want %v", c.in, a, c.shortcut)
		}
	}
}
