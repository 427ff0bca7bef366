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
