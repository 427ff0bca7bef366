package normalize

import (
	"regexp/syntax"
	"unicode"
)

// A prefixRegexp decides, for a name whose first bytes are ASCII, a
// regexp that is \A followed by single-character pieces only (literals,
// classes, '.'), with or without \z after them: normalize-url's
// "~*^utm_\w", crawler-commons' "~^$". Its match is then "the name starts
// with len(sets) characters, each in its set" (and, with \z, "has no
// more"), a byte test per position where package regexp's one-pass
// matcher costs about 50 instructions per byte plus its setup (about 240
// instructions per URL of web_dirty under normalize-url, nurl21's
// profile). The regexp stays the reference and the fallback: a name with
// a byte ≥ 0x80 among those positions runs it, since under (?i) 'k'
// matches the Kelvin sign (U+212A) and 's' the long s (U+017F), and a
// byte that is not UTF-8 is a rune of its own (U+FFFD).
type prefixRegexp struct {
	sets  [][2]uint64 // per position, the ASCII bytes it allows (bit b of sets[i][b>>6])
	exact bool        // \z after the pieces: the match is the whole name

	// The first lits positions (up to 4) as one word: each allows one
	// byte, or a byte and that byte with 0x20 flipped (a letter in either
	// case: "utm_" under (?i)), so that b|or == word in each byte of mask
	// (little-endian, from the name's first byte) is the sets' test
	// (wordOf).
	lits           int
	word, or, mask uint32

	// asciiFirst: the first piece matches ASCII runes only (not '.', not
	// a literal whose (?i) orbit leaves ASCII, the Kelvin sign's 'k'),
	// so that a name the regexp matches starts with a byte of sets[0]:
	// its first rune is no other (a byte ≥ 0x80 starts a rune that is
	// not ASCII, or U+FFFD). matcher.some then lets through only those
	// first bytes (firstBits).
	asciiFirst bool
}

// prefixOf returns the prefixRegexp of re (parsed with syntax.Perl and
// the pattern's flags), or nil when re is not \A followed by
// single-character pieces and an optional \z: alternations, repeats,
// (?m)'s ^ and $, \b, empty classes and unanchored regexps run the
// regexp.
func prefixOf(re *syntax.Regexp) *prefixRegexp {
	var pieces []*syntax.Regexp
	flatten(re.Simplify(), &pieces)
	if len(pieces) == 0 || pieces[0].Op != syntax.OpBeginText {
		return nil
	}
	d := &prefixRegexp{}
	for i, s := range pieces[1:] {
		switch s.Op {
		case syntax.OpEmptyMatch:
		case syntax.OpLiteral:
			if len(d.sets) == 0 {
				d.asciiFirst = asciiOrbit(s.Rune[0], s.Flags&syntax.FoldCase != 0)
			}
			for _, r := range s.Rune {
				d.sets = append(d.sets, literalSet(r, s.Flags&syntax.FoldCase != 0))
			}
		case syntax.OpCharClass:
			if len(d.sets) == 0 {
				d.asciiFirst = len(s.Rune) > 0 && s.Rune[len(s.Rune)-1] < 0x80 // the ranges are sorted
			}
			d.sets = append(d.sets, classSet(s.Rune))
		case syntax.OpAnyCharNotNL:
			d.sets = append(d.sets, classSet([]rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}))
		case syntax.OpAnyChar:
			d.sets = append(d.sets, classSet([]rune{0, unicode.MaxRune}))
		case syntax.OpEndText:
			if i != len(pieces)-2 {
				return nil // \z before more pieces: refused, not worth deciding
			}
			d.exact = true
		default:
			return nil
		}
	}
	d.wordOf()
	return d
}

// wordOf sets d's lits, word, or and mask from its first sets.
func (d *prefixRegexp) wordOf() {
	for ; d.lits < min(len(d.sets), 4); d.lits++ {
		var in []byte // the bytes the position allows
		for b := range 128 {
			if d.sets[d.lits][b>>6]>>(b&63)&1 != 0 {
				in = append(in, byte(b))
			}
		}
		sh := 8 * d.lits
		switch {
		case len(in) == 1:
		case len(in) == 2 && in[0]^0x20 == in[1]:
			d.or |= 0x20 << sh
		default:
			return
		}
		d.word |= uint32(in[0]|byte(d.or>>sh)) << sh
		d.mask |= 0xFF << sh
	}
}

// flatten appends to pieces the sequence re is made of, through
// concatenations and captures (a capture does not change what matches).
func flatten(re *syntax.Regexp, pieces *[]*syntax.Regexp) {
	switch re.Op {
	case syntax.OpConcat:
		for _, s := range re.Sub {
			flatten(s, pieces)
		}
	case syntax.OpCapture:
		flatten(re.Sub[0], pieces)
	default:
		*pieces = append(*pieces, re)
	}
}

// literalSet returns the ASCII runes the literal r matches: r itself and,
// under (?i), its case-folding orbit as package regexp folds it
// (unicode.SimpleFold), so the Kelvin sign allows 'k' and 'K'.
func literalSet(r rune, fold bool) [2]uint64 {
	var set [2]uint64
	f := r
	for {
		if f < 0x80 {
			set[f>>6] |= 1 << (f & 63)
		}
		if !fold {
			return set
		}
		if f = unicode.SimpleFold(f); f == r {
			return set
		}
	}
}

// asciiOrbit reports whether the literal r matches ASCII runes only: r
// and, under (?i), its case-folding orbit (literalSet).
func asciiOrbit(r rune, fold bool) bool {
	for f := r; f < 0x80; {
		if !fold {
			return true
		}
		if f = unicode.SimpleFold(f); f == r {
			return true
		}
	}
	return false
}

// firstBits returns the first-byte bits (firstsFilter: bit b&63 for a
// byte b) of the names d may match, all ones unless asciiFirst.
func (d *prefixRegexp) firstBits() uint64 {
	if !d.asciiFirst || len(d.sets) == 0 {
		return ^uint64(0)
	}
	var bits uint64
	for b := range 128 {
		if d.sets[0][b>>6]>>(b&63)&1 != 0 {
			bits |= 1 << (b & 63)
		}
	}
	return bits
}

// classSet returns the ASCII runes of a class (ranges lo, hi as in
// syntax.Regexp.Rune; the parser has added the folds of (?i) to them).
func classSet(ranges []rune) [2]uint64 {
	var set [2]uint64
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= min(ranges[i+1], 0x7f); r++ {
			set[r>>6] |= 1 << (r & 63)
		}
	}
	return set
}

// decide reports whether the regexp matches name, with ok false when it
// cannot tell (a byte ≥ 0x80 before the first position it rejects): the
// regexp decides then. A name shorter than the pieces has fewer runes
// than they need; past them, the runes matched are the first len(sets)
// bytes, so \z holds when the name ends there.
func (d *prefixRegexp) decide(name string) (match, ok bool) {
	if len(name) < len(d.sets) {
		return false, true
	}
	i := 0
	if d.lits > 0 && len(name) >= 4 {
		w := le32(name)
		switch {
		case (w|d.or)&d.mask == d.word:
			i = d.lits // ASCII bytes, each in its set
		case w&d.mask&0x80808080 == 0:
			return false, true // ASCII bytes, one not in its set
		} // else a byte ≥ 0x80, maybe before the one rejected: the loop from 0
	}
	for ; i < len(d.sets); i++ {
		set := &d.sets[i]
		b := name[i]
		if b >= 0x80 {
			return false, false
		}
		if set[b>>6]&(1<<(b&63)) == 0 {
			return false, true
		}
	}
	return !d.exact || len(name) == len(d.sets), true
}

// reMatch reports whether p's regexp matches name: by its prefixRegexp
// when it has one, else (or when that cannot tell) by p's prefilter and
// the regexp. The prefixRegexp goes first, in place of the prefilter: it
// tests the bytes where the prefilter would look for the required literal
// in all the name (normalize-url's "utm_", containsFoldOrHigh: 2,810 →
// 2,755 instructions per URL of web_dirty). Not inlined (the prefilter
// alone costs 77 of the budget of 80): a call per key of a regexp's
// lengths, which clara's session regexp (a prefilter, no prefixRegexp)
// pays, +0 to +5 instructions per URL.
func (p *pattern) reMatch(name string) bool {
	if d := p.pre.prefix; d != nil {
		if m, ok := d.decide(name); ok {
			return m
		}
	}
	return p.pre.may(name) && p.re.MatchString(name)
}
