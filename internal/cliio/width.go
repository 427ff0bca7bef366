package cliio

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// DisplayWidth is the number of terminal columns s takes: two for East
// Asian wide and fullwidth characters (UAX #11: CJK ideographs, kana,
// Hangul, fullwidth forms, most emoji), none for combining marks and
// format characters (U+0301, U+200D …), one for the others, invalid
// UTF-8 bytes included (shown as U+FFFD). Control characters are
// counted as one; tableText escapes them before they are measured.
func DisplayWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch {
	case r == 0xAD: // SOFT HYPHEN: format, but shown as a hyphen
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}
