package normalize

import (
	"slices"
	"unsafe"
)

// Byte classes, one bit per set, looked up in a single table so that the
// parser's inner loops cost one load and one test per byte.
const (
	// WHATWG percent-encode sets (URL Standard §1.3). Each set contains the
	// previous one, as in the standard.
	encC0           = 1 << iota // C0 control percent-encode set: C0 controls and > U+007E
	encFragment                 // + space " < > `
	encQuery                    // C0 + space " # < >
	encSpecialQ                 // query + '
	encPath                     // query + ? ^ ` { }
	encUserinfo                 // path + / : ; = @ [ \ ] ^ |
	forbiddenHost               // forbidden host code points
	forbiddenDomain             // forbidden domain code points
)

// unreserved marks RFC 3986 §2.3 unreserved characters: ALPHA DIGIT - . _ ~
var unreserved [256]bool

// dnsChar marks the characters a canonical DNS host may contain once
// lowercased and punycoded: letters, digits, '-', '.', and '_' (real hosts
// use it, e.g. singapore_aberdeen.tripod.com).
var dnsChar [256]bool

var class [256]uint8

func init() {
	for i := 0; i < 256; i++ {
		b := byte(i)
		var c uint8
		if b < 0x20 || b > 0x7e {
			c |= encC0 | encFragment | encQuery | encSpecialQ | encPath | encUserinfo
		}
		switch b {
		case ' ', '"', '<', '>':
			c |= encFragment | encQuery | encSpecialQ | encPath | encUserinfo
		case '`':
			c |= encFragment | encPath | encUserinfo
		case '#':
			c |= encQuery | encSpecialQ | encPath | encUserinfo
		case '\'':
			c |= encSpecialQ
		case '?', '{', '}', '^':
			c |= encPath | encUserinfo
		case '/', ':', ';', '=', '@', '[', '\\', ']', '|':
			c |= encUserinfo
		}
		switch b {
		case 0, '\t', '\n', '\r', ' ', '#', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|':
			c |= forbiddenHost | forbiddenDomain
		}
		if b <= 0x1f || b == '%' || b == 0x7f {
			c |= forbiddenDomain
		}
		class[i] = c
		unreserved[i] = isAlpha(b) || isDigit(b) || b == '-' || b == '.' || b == '_' || b == '~'
		dnsChar[i] = (b >= 'a' && b <= 'z') || isDigit(b) || b == '-' || b == '.' || b == '_'
	}
}

func isAlpha(b byte) bool { return (b|0x20) >= 'a' && (b|0x20) <= 'z' }
func isDigit(b byte) bool { return b >= '0' && b <= '9' }
func isHex(b byte) bool   { return isDigit(b) || ((b|0x20) >= 'a' && (b|0x20) <= 'f') }

func lower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + ('a' - 'A')
	}
	return b
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - ('a' - 'A')
	}
	return b
}

func unhex(b byte) byte {
	switch {
	case b >= '0' && b <= '9':
		return b - '0'
	case b >= 'a' && b <= 'f':
		return b - 'a' + 10
	case b >= 'A' && b <= 'F':
		return b - 'A' + 10
	}
	return 0
}

const upperHex = "0123456789ABCDEF"

// appendEncoded appends s to dst, percent-encoding every byte in set.
// Bytes of s are handled one at a time, so a byte of invalid UTF-8 is
// encoded as itself (%XX) rather than replaced.
func appendEncoded(dst []byte, s string, set uint8) []byte {
	start, sized := 0, false
	for i := 0; i < len(s); i++ {
		if class[s[i]]&set == 0 {
			continue
		}
		if !sized && len(s)-i >= 4096 {
			// A long run with escapes (raised limits): count them and
			// grow once; appends allocate 5× the final size of a long
			// slice while it grows (issue 16.11).
			sized = true
			dst = slices.Grow(dst, len(s)+2*countIn(s[i:], set))
		}
		dst = append(dst, s[start:i]...)
		dst = append(dst, '%', upperHex[s[i]>>4], upperHex[s[i]&15])
		start = i + 1
	}
	return append(dst, s[start:]...)
}

// countIn returns the number of bytes of s in set.
func countIn(s string, set uint8) int {
	k := 0
	for i := 0; i < len(s); i++ {
		if class[s[i]]&set != 0 {
			k++
		}
	}
	return k
}

// appendLower appends the ASCII-lowercased s to dst.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		dst = append(dst, lower(s[i]))
	}
	return dst
}

// lowerWord returns w with its bytes A-Z lowercased, the others as they
// are: lowerASCII's word step (inRange) on any bytes, a byte of 0x80 or
// more kept out of the test by its top bit.
func lowerWord(w uint64) uint64 {
	return w | inRange(w&^high, 'A', 'Z')&^w&high>>2
}

// le32 returns s's first 4 bytes as a little-endian word (len(s) ≥ 4).
func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// hasUpperASCII reports whether s contains A-Z.
func hasUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lower(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

func equalFold(a, b string) bool {
	return len(a) == len(b) && hasPrefixFold(a, b)
}

// bstr views b as a string without copying, for lookups and comparisons
// in the scratch buffers of one call: the string is valid only while b's
// bytes stay as they are (not across an append that may move them, nor
// after the call's state returns to the pool).
func bstr(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
