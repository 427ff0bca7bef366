package normalize

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// re21Prefix returns the prefixRegexp of expr, nil for none.
func re21Prefix(t testing.TB, expr string) *prefixRegexp {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return prefixOf(re)
}

// re21Decide returns what the prefixRegexp of expr says of name (taken
// false when expr has none).
func re21Decide(t testing.TB, expr, name string) (match, ok, taken bool) {
	d := re21Prefix(t, expr)
	if d == nil {
		return false, false, false
	}
	m, ok := d.decide(name)
	return m, ok, true
}

// re21Names: names ASCII and not, with the Kelvin sign and the long s,
// empty and long, bytes that are not UTF-8, and the shipped corpus' keys.
func re21Names(t *testing.T) []string {
	long := strings.Repeat("utm_source", 20)
	return append(prefilterNames(t), "", "u", "ut", "utm", "utm_", "utm_a", "UTM_A", "utm__", "utm_-", "utm_é", "utm_\u212a",
		"utm_\u017f", "\u212a", "k", "K", "s", "S", "\u017f", "ks", "KS", "k\u017f", "\u212as", "\u212a\u017f", "ab", "abc", "Ab",
		"a\n", "\n", "\x00", "\x7f", "\xff", "a\xff", "\xffa", "é", "e", "ée", "\u2126", "ω", "Ω", long, "x"+long, long+"\xff",
		"_ga", "_GA", "_gax", "a_ga", "0", "9x", "a.b", "aéb", "@", "`", "é@")
}

// TestPrefixRegexp: wherever the byte decider of a regexp decides, it
// says what regexp.MatchString says, over regexps it takes (literals,
// classes, '.', (?i) with k and s, non-ASCII literals and class members,
// an empty class (no ASCII byte), \z) and regexps it must refuse
// (alternations, repeats, (?m), \b, unanchored, \z twice), × re21Names.
func TestPrefixRegexp(t *testing.T) {
	names := re21Names(t)
	for _, c := range []struct {
		expr  string
		taken bool
	}{
		{"(?i)^utm_\\w", true}, {"^$", true}, {"^_ga$", true}, {"(?i)^_ga$", true}, {"^", true}, {"\\A", true},
		{"(?i)^k", true}, {"(?i)^s$", true}, {"(?i)^ks", true}, {"^k$", true}, {"^\\x{212A}", true}, {"(?i)^\\x{212A}", true},
		{"(?i)^\\x{017F}$", true}, {"^é", true}, {"(?i)^é$", true}, {"^[ſ]", true}, {"(?i)^[k-l]", true}, {"^[^a]", true},
		{"^[a-cé]x", true}, {"^.", true}, {"(?s)^.$", true}, {"^..$", true}, {"^\\w\\d\\s", true}, {"^a{3}", true},
		{"^(ab)c", true}, {"^(?:ab){2}$", true}, {"^a\\z", true}, {"(?i)^[^k]", true}, {"^\\pL", true}, {"(?i)^\\W", true},
		{"^\\x00", true}, {"^\\x7f$", true}, {"^ω", true}, {"(?i)^ω", true}, {"(?i)^Ω$", true},
		{"^a|b", false}, {"^(a|b)", true}, {"^(ab|cd)", false}, {"^a*", false}, {"^a+", false}, {"^a?b", false},
		{"^a{2,3}", false}, {"(?m)^a", false}, {"(?m)^a$", false}, {"^a\\b", false}, {"utm_", false}, {"a^", false},
		{"^[^\\x00-\\x{10FFFF}]", true}, {"^a$b", false}, {"^$$", false}, {"^\\B", false}, {"^(?i:ab)c", true},
		{"^[A-Za-z]*session[A-Za-z]*$", false}, {"", false}, {"$", false},
	} {
		d, re := re21Prefix(t, c.expr), regexp.MustCompile(c.expr)
		if taken := d != nil; taken != c.taken {
			t.Fatalf("%q: taken %v, want %v", c.expr, taken, c.taken)
		}
		for _, name := range names {
			if d == nil {
				break
			}
			if m, ok := d.decide(name); ok && m != re.MatchString(name) {
				t.Errorf("%q on %q: decided %v, regexp.MatchString %v", c.expr, name, m, !m)
			}
		}
	}
}

// TestPrefixRegexpDecides pins that the decider decides where it must
// (else the fast path is gone and the tests above still pass): ASCII
// names, and a non-ASCII byte after the positions or after a rejected one.
func TestPrefixRegexpDecides(t *testing.T) {
	for _, c := range []struct {
		expr, name string
		match      bool
	}{
		{"(?i)^utm_\\w", "UTM_source", true}, {"(?i)^utm_\\w", "utm_", false}, {"(?i)^utm_\\w", "utm_-", false},
		{"(?i)^utm_\\w", "utm_aé", true}, {"(?i)^utm_\\w", "xtm_é", false}, {"(?i)^utm_\\w", "ut", false},
		{"(?i)^utm_\\w", "utm_K", true}, {"(?i)^utm_\\w", "utm-\xff\xff", false}, {"^$", "", true}, {"^$", "a", false},
		{"^$", "é", false}, {"^_ga$", "_ga", true}, {"^_ga$", "_GA", false}, {"(?i)^_ga$", "_GA", true}, {"^_ga$", "_gaé", false},
		{"(?i)^\\x{212A}", "k", true}, {"(?i)^\\x{212A}", "K", true}, {"^\\x{212A}", "k", false}, {"(?i)^\\x{017F}$", "S", true},
		{"^é", "e", false}, {"^.", "\n", false}, {"(?s)^.", "\n", true}, {"(?i)^[^k]", "K", false}, {"(?i)^[^k]", "j", true},
	} {
		m, ok, taken := re21Decide(t, c.expr, c.name)
		if !taken || !ok || m != c.match {
			t.Errorf("%q on %q: decided %v (ok %v, taken %v), want %v decided", c.expr, c.name, m, ok, taken, c.match)
		}
	}
	// A non-ASCII byte among the positions before a rejected one: the regexp.
	for _, c := range [][2]string{{"(?i)^utm_\\w", "utm_\u212a"}, {"(?i)^k", "\u212a"}, {"(?i)^s", "\u017fx"}, {"^_ga$", "_gé"}} {
		if _, ok, _ := re21Decide(t, c[0], c[1]); ok {
			t.Errorf("%q on %q: decided, want the regexp", c[0], c[1])
		}
	}
}

// TestPrefixRegexpBuiltins: the shipped regexps the decider is for take
// it, through compilePattern (the hook: prefilterOf).
func TestPrefixRegexpBuiltins(t *testing.T) {
	for src, want := range map[string]bool{"~*^utm_\\w": true, "~^$": true, "~*^[A-Za-z]*session[A-Za-z]*$": false} {
		p, err := compilePattern(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.pre.prefix != nil; got != want {
			t.Errorf("%s: prefix decider %v, want %v", src, got, want)
		}
	}
}

// re21Pieces is FuzzPrefixRegexp's alphabet of regexp pieces, and
// re21Runes its alphabet of name characters.
var (
	re21Pieces = []string{"^", "$", "a", "K", "k", "s", "S", "_", "\\w", "\\W", "[a-c]", "[^k]", ".", "(?i)", "(?s)", "(?m)",
		"|", "*", "+", "?", "{2}", "(", ")", "\\x{212A}", "ſ", "é", "\\z", "\\A", "\\b", "[é-ê]", "\\d", "(?:", "(?i:", "[^\\x00-\\x{10FFFF}]"}
	re21Runes = []string{"a", "A", "k", "K", "s", "S", "_", "\u212a", "\u017f", "é", "\n", "\xff", "x", "0", "-", "b", "c"}
)

// FuzzPrefixRegexp: for a regexp made of re21Pieces and a name (as given
// and made of re21Runes), the decider, wherever it decides, says what
// regexp.MatchString says.
//
//	go test ./normalize -run '^$' -fuzz FuzzPrefixRegexp -fuzztime 1m -parallel 1
func FuzzPrefixRegexp(f *testing.F) {
	f.Add([]byte{0, 13, 2, 7, 8}, "utm_x")
	f.Add([]byte{13, 0, 4, 1}, "\u212a")
	f.Add([]byte{0, 1}, "")
	f.Add([]byte{0, 12, 12, 1}, "a\n")
	f.Fuzz(func(t *testing.T, src []byte, name string) {
		var expr, alpha strings.Builder
		for _, b := range src {
			expr.WriteString(re21Pieces[int(b)%len(re21Pieces)])
		}
		for i := 0; i < len(name); i++ {
			alpha.WriteString(re21Runes[int(name[i])%len(re21Runes)])
		}
		re, err := regexp.Compile(expr.String())
		if err != nil {
			return
		}
		for _, n := range []string{name, alpha.String()} {
			if m, ok, _ := re21Decide(t, expr.String(), n); ok && m != re.MatchString(n) {
				t.Errorf("%q on %q: decided %v, regexp.MatchString %v", expr.String(), n, m, !m)
			}
		}
	})
}

// TestPrefixRegexpHook: pattern.match and matcher.match ask the decider
// before the regexp (the fast path is taken): with the regexp swapped for
// one that matches nothing, an ASCII name is still decided, and a name
// the decider leaves to the regexp is not matched.
func TestPrefixRegexpHook(t *testing.T) {
	never := regexp.MustCompile(`x\Ay`)
	p, err := compilePattern("~*^utm_\\w")
	if err != nil {
		t.Fatal(err)
	}
	p.re = never
	m, err := compileMatcher([]string{"~*^utm_\\w"})
	if err != nil {
		t.Fatal(err)
	}
	m.other[0].re = never
	for name, want := range map[string]bool{"UTM_source": true, "utm_": false, "utm_\u212a": false, "x": false} {
		if got := p.match(name, asciiLower(name)); got != want {
			t.Errorf("pattern.match(%q) = %v, want %v", name, got, want)
		}
		if got := m.match(name); got != want {
			t.Errorf("matcher.match(%q) = %v, want %v", name, got, want)
		}
	}
}
