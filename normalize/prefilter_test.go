package normalize

import (
	"os"
	"strings"
	"testing"
)

// TestRegexpPrefilter: a regexp pattern with its prefilter matches exactly
// the names the regexp alone matches (the prefilter is a fast path; the
// regexp is its reference), for the built-ins' regexps and others on each
// boundary of required and maxBytes, over the query keys of the shipped
// corpus and names on the prefilter's edges.
func TestRegexpPrefilter(t *testing.T) {
	names := append(prefilterNames(t), "\xff", "\xff\xff\xff", "ééé", "éé", "ababx", "abab", "ababcx", "d", "abc", "sessio", "SESSIO")
	srcs := []string{
		"~^$", "~*^utm_\\w", "~*^[A-Za-z]*session[A-Za-z]*$", // crawler-commons, normalize-url, clara
		"~*k", "~*^s$", "~*ks", "~K", "~^k$", // (?i) 'k' is the Kelvin sign, 's' the long s
		"~^a|b$", "~^(ab)+$", "~^a{2,3}$", "~^(?:ab){0,2}c?$", "~^.$", "~^[ſ]$", "~^é$", "~*^é$",
		"~x*", "~^x*y+$", "~ab(cd)?ef", "~(ab)+cd", "~^(?i:AB)c$", "~^\\bab\\b$", "~^$|x",
		"~^a{0}b$", "~^(a|bc)d$", "~^\\x{212A}$",
		"~(ab){2,}c?x+", "~^\\x{FFFD}$", "~^.{3}$", "~^(abc|d)$", "~*session", // minRunes: a byte not UTF-8 is one rune
	}
	for _, src := range srcs {
		p, err := compilePattern(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for _, name := range names {
			if got, want := p.match(name, asciiLower(name)), p.re.MatchString(name); got != want {
				t.Errorf("%s (need %q, maxLen %d): match(%q) = %v, the regexp says %v", src, p.pre.need, p.pre.maxLen, name, got, want)
			}
		}
	}
}

// TestPrefilterOf pins what prefilterOf reads from the built-ins' regexps:
// without it each key of a query runs them.
func TestPrefilterOf(t *testing.T) {
	for _, c := range []struct {
		expr           string
		need           string
		minLen, maxLen int
	}{
		{"^$", "", 0, 0},                                      // crawler-commons: an empty name
		{"(?i)^utm_\\w", "utm_", 5, -1},                       // normalize-url: not anchored at the end
		{"(?i)^[A-Za-z]*session[A-Za-z]*$", "session", 7, -1}, // clara: unbounded
		{"^gclid[0-9]$", "gclid", 6, 6},                       // an ASCII literal with its case, an ASCII class: a byte a rune
		{"(?i)^ab$", "ab", 2, 8},                              // under (?i) a rune may match 4 bytes
		{"^(ab|c)$", "", 1, 2},                                // an alternation requires no literal
		{"^[0-9k]$", "", 1, 1},                                // an ASCII class: a byte
		{"(?i)^[0-9k]$", "", 1, 4},                            // (?i) adds the Kelvin sign to it
		{"(ab){2,}c?x+", "ab", 5, -1},                         // repeats, quest, plus
		{"é", "", 1, -1},                                      // a rune of two bytes counts one: regexp matches a byte that is not UTF-8 as U+FFFD
	} {
		f := prefilterOf(c.expr)
		if f.need != c.need || f.minLen != c.minLen || f.maxLen != c.maxLen {
			t.Errorf("prefilterOf(%q) = %q, %d, %d; want %q, %d, %d", c.expr, f.need, f.minLen, f.maxLen, c.need, c.minLen, c.maxLen)
		}
	}
}

// prefilterNames returns names on the prefilters' edges and the query keys
// of the shipped corpus, as written and uppercased.
func prefilterNames(t *testing.T) []string {
	names := []string{"", "a", "b", "ab", "abab", "aaa", "aa", "c", "abc", "ababc", "k", "K", "\u212a", "s", "S", "\u017f",
		"ks", "k\u017f", "\u212as", "session", "SESSION", "sessionid", "mysession", "\u017fession", "sess1on", "utm_", "UTM_x",
		"utm_source", "xutm_a", "é", "e", "x", "y", "xy", "xxy", "abef", "abcdef", "abcef", "abcd", "ababcd", "ABc", "abC",
		"ab ab", "bd", "bcd", "ad", "abcd", "\u212a\u212a"}
	b, err := os.ReadFile("../testdata/urls/kasztp.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		_, q, _ := strings.Cut(line, "?")
		for _, kv := range strings.Split(q, "&") {
			k, _, _ := strings.Cut(kv, "=")
			names = append(names, k, strings.ToUpper(k))
		}
	}
	return names
}

// TestMatcherPrefilter: a matcher with its length and first-byte filter
// (and its regexps') matches what the unfiltered one does (the reference:
// matcher.unfilter), for every built-in's lists and lists on the filter's
// edges: a glob with an empty prefix, a star that matches nothing, names
// of 63 bytes and more.
func TestMatcherPrefilter(t *testing.T) {
	long := strings.Repeat("x", 63)
	lists := [][]string{{"*"}, {"*id"}, {"a*"}, {"ab*cd"}, {"utm_*", "fbclid"}, {long, long + "y"}, {long + "*"}, {"K", "s"}, {"~^a", "b"}}
	for _, name := range Names() {
		p := MustLookup(name).Profile()
		lists = append(lists, p.Query.Keep)
		if p.Pagination != nil {
			lists = append(lists, p.Pagination.Params)
		}
		for _, g := range append(p.Query.Remove, p.Path.RemoveParams...) {
			lists = append(lists, g.Patterns)
		}
	}
	names := append(prefilterNames(t), long, long+"y", long+"Y", long+"yy", "cd", "abcd", "ABXCD", "abc", "ID", "xid", "fbclid1", "FBCLID")
	for _, l := range lists {
		fast, err := compileMatcher(l)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := compileMatcher(l)
		ref.unfilter()
		for _, name := range names {
			if got, want := fast.match(name), ref.match(name); got != want {
				t.Errorf("%q: match(%q) = %v, unfiltered %v", l, name, got, want)
			}
		}
	}
}

// FuzzPatternPrefilter: for any pattern list and name, the matcher with
// its prefilters matches what the unfiltered one does, and its may lets
// through what that one matches.
//
//	go test ./normalize -run '^$' -fuzz FuzzPatternPrefilter -fuzztime 3m
func FuzzPatternPrefilter(f *testing.F) {
	for _, s := range [][2]string{
		{"~^$", ""}, {"~*^utm_\\w", "UTM_x"}, {"~*^k", "\u212a"}, {"~*^[A-Za-z]*session[A-Za-z]*$", "\u017fession"}, {"~*k", "\u212a"},
		{"utm_*", "utm_"}, {"*", ""}, {"a*b*c", "abc"}, {"fbclid", "FBCLID"}, {"~^a{2,3}$", "aaaa"}, {"~^(?i:AB)c$", "abc"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, src, name string) {
		fast, err := compileMatcher([]string{src, "x" + src})
		if err != nil {
			return
		}
		ref, _ := compileMatcher([]string{src, "x" + src})
		ref.unfilter()
		if got, want := fast.match(name), ref.match(name); got != want {
			t.Errorf("%q: match(%q) = %v, unfiltered %v", src, name, got, want)
		}
		if ref.match(name) && !fast.may(name) {
			t.Errorf("%q: may(%q) = false, but it matches", src, name) // the prefilter in front of match (matcher.some)
		}
	})
}
