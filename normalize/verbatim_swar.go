package normalize

import (
	"encoding/binary"
	"math/bits"
)

// The verbatim scans eight bytes a step (SWAR): the portable code, and the
// fallback of the SIMD build (verbatim_simd_amd64.go) on a CPU without
// AVX2 and for spanOK's tables other than vQuery and vFragment.

// hostSpanSWAR returns the length of the leading bytes of s that vHost takes
// (letters, digits, '-', '.', '_') and whether an uppercase letter is
// among them: eight bytes a step, with no table (a table costs seven
// instructions a byte).
func hostSpanSWAR(s string) (int, bool) {
	j, upper := 0, uint64(0)
	for ; j+8 <= len(s); j += 8 {
		w := binary.LittleEndian.Uint64([]byte(s[j : j+8]))
		x := w &^ high                           // the tests below want bytes below 0x80; w's high bits reject the others
		letter := inRange(x|0x20*ones, 'a', 'z') // b|0x20 is a lowercase letter when b is a letter
		ok := (letter | inRange(x, '-', '9')&^inRange(x, '/', '/') | inRange(x, '_', '_')) &^ w & high
		up := letter &^ (x << 2) // 0x20 clear: uppercase
		if ok != high {
			n := bits.TrailingZeros64(^ok&high) / 8 // the first byte not taken
			upper |= up & high & (1<<(8*n) - 1)
			return j + n, upper != 0
		}
		upper |= up & high
	}
	for ; j < len(s) && vHost[s[j]] != 0; j++ {
		upper |= uint64(vHost[s[j]] & vUpper)
	}
	return j, upper != 0
}

// spanOKSWAR returns the length of the leading bytes of s whose class in tab
// is vOK, eight bytes a test (span without the classes seen).
func spanOKSWAR(s string, tab *[256]uint8) int {
	j := 0
	for ; j+8 <= len(s); j += 8 {
		w := s[j : j+8]
		if tab[w[0]]&tab[w[1]]&tab[w[2]]&tab[w[3]]&tab[w[4]]&tab[w[5]]&tab[w[6]]&tab[w[7]] == 0 {
			break
		}
	}
	for j < len(s) && tab[s[j]] != 0 {
		j++
	}
	return j
}

// verbatimPathSWAR checks the path at s[i:] (which starts with '/') with the
// parser's path table (pathFast) and returns the index of the '?' or '#'
// that ends it (len(s) when none), or -1 when the path is not written as
// the serializer writes it: a byte of the path percent-encode set, '\', or
// a dot segment ("." "..", "%2e" in any case …). A segment that starts
// with '.' or '%' but is no dot segment (".well-known") is kept, but the
// path is not plain: the parser's run copy does not take it either.
func verbatimPathSWAR(s string, i int, v *verbatimURL) int {
	// Eight bytes a step while they are ordinary: no byte that the parser
	// changes, no '/' before a '.', '%' or '/'; the step that meets a '?'
	// or '#' ends the path there, and the last step overlaps the one
	// before it (a byte loop over the tail cost more than the words). The
	// byte loop below takes the rest, from the '/' before the word that is
	// not ordinary (a dot segment may start there).
	plain, tab, start := true, &vPathWord, i
	for i < len(s) {
		if i+8 > len(s) {
			if len(s)-8 < start {
				break // a path shorter than a word
			}
			i = len(s) - 8 // checked again: the tests below are the same for its first bytes
		}
		w := s[i : i+8]
		m := uint64(tab[w[0]]) | uint64(tab[w[1]])<<8 | uint64(tab[w[2]])<<16 | uint64(tab[w[3]])<<24 |
			uint64(tab[w[4]])<<32 | uint64(tab[w[5]])<<40 | uint64(tab[w[6]])<<48 | uint64(tab[w[7]])<<56
		end := 8
		if stop := m & (wStop * ones); stop != 0 {
			end = bits.TrailingZeros64(stop) / 8 // the first byte that ends the path or that the parser changes
			if pathFast[w[end]] != pfEnd {
				return -1 // a byte of the path percent-encode set or '\'
			}
			m &= 1<<(8*end) - 1 // the path's bytes
		}
		if (m&(wSlash*ones))<<(8+1)&(m&(wAfter*ones)) != 0 {
			if i > start {
				i-- // the byte before the word: a '/' would look at its first byte
			}
			break
		}
		if m&(wNote*ones) != 0 {
			plain = false
		}
		if end < 8 || i+8 == len(s) {
			v.pathEnd, v.plainPath = i+end, plain
			return i + end
		}
		if m>>56&wSlash != 0 && tab[s[i+8]]&wAfter != 0 {
			break // the byte loop starts at that '/'
		}
		i += 8
	}
	for tab := &pathFast; i < len(s); i++ {
		t := tab[s[i]]
		if t == 0 {
			continue
		}
		switch t {
		case pfSlash:
			if i+1 < len(s) {
				switch s[i+1] {
				case '/':
					plain = false
				case '.', '%':
					plain = false
					if dotSegment(s[i+1:]) {
						return -1
					}
				}
			}
		case pfNote:
			plain = false
		case pfEnd:
			v.pathEnd, v.plainPath = i, plain
			return i
		default:
			return -1
		}
	}
	v.pathEnd, v.plainPath = i, plain
	return i
}
