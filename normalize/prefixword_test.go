package normalize

import "testing"

// TestPrefixRegexpWord: the first positions that allow one byte, or a
// letter in either case, are read as one word (prefixRegexp.lits), so that
// normalize-url's "(?i)^utm_\w" tests "utm_" in one compare; a class of
// two other bytes, or of more, ends the word. TestPrefixRegexp holds what
// decide says with the word to package regexp.
func TestPrefixRegexpWord(t *testing.T) {
	for _, c := range []struct {
		expr string
		lits int
		word uint32
	}{
		{`(?i)^utm_\w`, 4, 'u' | 't'<<8 | 'm'<<16 | '_'<<24},
		{`^utm_\w`, 4, 'u' | 't'<<8 | 'm'<<16 | '_'<<24},
		{`^ab`, 2, 'a' | 'b'<<8},
		{`(?i)^k`, 1, 'k'}, // the Kelvin sign is not ASCII: the orbit's ASCII bytes are k and K
		{`^[aA]b[xy]`, 2, 'a' | 'b'<<8},
		{`^[ab]c`, 0, 0},
		{`^abcdef`, 4, 'a' | 'b'<<8 | 'c'<<16 | 'd'<<24},
		{`^$`, 0, 0},
	} {
		d := re21Prefix(t, c.expr)
		if d == nil {
			t.Fatalf("%s: no prefixRegexp", c.expr)
		}
		if d.lits != c.lits || d.word != c.word {
			t.Errorf("%s: lits %d, word %#x; want %d, %#x", c.expr, d.lits, d.word, c.lits, c.word)
		}
	}
}

// TestMatcherMayFirstByte: a matcher's prefilter (matcher.some, joined in
// the normalizer's keyFilter) lets through every name its regexps match
// (the unfiltered matcher's match), now that a regexp whose first piece
// matches ASCII runes only lets through the first bytes of that piece
// alone (firstBits): for the regexps TestPrefixRegexp takes, under "~" and
// "~*", with an exact name beside them, on re21Names and prefilterNames.
// And it rules out a name of the regexp's lengths that starts otherwise
// (normalize-url's "~*^utm_\w" and "fbclid1"), which it let through before.
func TestMatcherMayFirstByte(t *testing.T) {
	names := append(re21Names(t), prefilterNames(t)...)
	for _, expr := range []string{
		`^utm_\w`, `^$`, `^_ga$`, `^`, `\A`, `^k`, `^s$`, `^ks`, `^\x{212A}`, `^\x{017F}$`, `^é`, `^[ſ]`, `^[k-l]`,
		`^[^a]`, `^[a-cé]x`, `^.`, `(?s)^.$`, `^..$`, `^\w\d\s`, `^a{3}`, `^(ab)c`, `^a\z`, `^[^k]`, `^\pL`, `^\W`,
		`^\x00`, `^\x7f$`, `^ω`, `^Ω$`, `^(a|b)`, `^[^\x00-\x{10FFFF}]`, `^(?i:ab)c`, `^[A-Za-z]*session`,
	} {
		for _, src := range []string{"~" + expr, "~*" + expr} {
			fast, err := compileMatcher([]string{src, "fbclid"})
			if err != nil {
				t.Fatal(err)
			}
			ref, _ := compileMatcher([]string{src, "fbclid"})
			ref.unfilter()
			for _, name := range names {
				if ref.match(name) && !fast.may(name) {
					t.Errorf("%q: may(%q) = false, but it matches", src, name)
				}
			}
		}
	}
	m, _ := compileMatcher(MustLookup("normalize-url").Profile().Query.Remove[0].Patterns)
	for name, want := range map[string]bool{"utm_source": true, "UTM_x": true, "abcdef": false, "fbclid1": false, "\u212a_abc": false} {
		if got := m.may(name); got != want {
			t.Errorf("normalize-url: may(%q) = %v, want %v", name, got, want)
		}
	}
}
