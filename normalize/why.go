package normalize

import (
	"strconv"
	"unsafe"
)

// failure says why the parser or a profile rule refused an input: the
// Reason of the Error, in the style of net/url's messages, which name the
// bad character. It is written on the failure path only (nothing is
// recorded on success), and always whole (see fail), so nothing of an
// earlier failure survives into a later one.
//
// The reason reads "what[ at byte N][: why]":
//
//	'"' at byte 8                           a byte the URL Standard forbids
//	'"' (%22) at byte 8                     … once percent-decoded
//	port 99999 at byte 19: over 65535       a value, and what is wrong with it
//	'!' in host "a!b.com": host.charset dns the profile rule that refused
//
// N is the 0-based byte offset in the input as given (before trimming,
// tab and newline removal, or an assumed scheme).
type failure struct {
	what  string // the offending byte or value, quoted
	at    string // the input from the offending byte on ("" when not in the input)
	end   bool   // the offence is at the end of the input
	why   string // what is wrong, or the profile rule that refused
	input string // the rewritten URL the failure is in ("" for the input itself)
}

// fail records why the input is refused and returns k.
func (p *parser) fail(k *Kind, what, at, why string) *Kind {
	p.why = failure{what: what, at: at, why: why}
	return k
}

// failAtEnd records a failure at the end of the input.
func (p *parser) failAtEnd(k *Kind, what, why string) *Kind {
	p.why = failure{what: what, end: true, why: why}
	return k
}

// reason returns the failure as text for raw, the input of the failed
// call; tmp holds raw with an assumed scheme, if any.
func (p *parser) reason(raw string, tmp []byte) string {
	f := &p.why
	in := raw
	if f.input != "" {
		in = f.input
	}
	s := f.what
	if i := offset(in, f.at, tmp, p.clean); i >= 0 || f.end {
		if f.end {
			i = len(in)
		}
		s += " at byte " + strconv.Itoa(i)
		if f.input != "" {
			s += " of the rewritten URL " + quoteValue(f.input)
		}
	}
	if f.why != "" {
		if s != "" {
			s += ": "
		}
		s += f.why
	}
	return s
}

// offset returns the offset in raw of the first byte of at, or -1. at is a
// piece of raw; of tmp, which ends with raw's tail after an assumed scheme;
// or of clean, the trimmed input (raw or tmp) without tab and newline.
func offset(raw, at string, tmp, clean []byte) int {
	if at == "" {
		return -1
	}
	if i := within(at, raw); i >= 0 {
		return i
	}
	if i := within(at, bstr(tmp)); i >= 0 {
		return len(raw) - (len(tmp) - i) // the same distance from the end
	}
	i := within(at, bstr(clean))
	if i < 0 {
		return -1
	}
	// Walk back from raw's end: skip the trailing C0 controls and spaces
	// trim removed, then count the bytes clean kept after at.
	j := len(raw)
	for j > 0 && raw[j-1] <= ' ' {
		j--
	}
	for keep := len(clean) - i; keep > 0 && j > 0; {
		j--
		if c := raw[j]; c != '\t' && c != '\n' && c != '\r' {
			keep--
		}
	}
	return j
}

// within returns the offset of at's first byte in s, or -1 when at does
// not point into s.
func within(at, s string) int {
	if s == "" {
		return -1
	}
	a, b := uintptr(unsafe.Pointer(unsafe.StringData(at))), uintptr(unsafe.Pointer(unsafe.StringData(s)))
	if a < b || a >= b+uintptr(len(s)) {
		return -1
	}
	return int(a - b)
}

// quoteValue quotes a value in a reason: a host, a scheme, up to 40 bytes
// (the input itself is quoted, up to 80, in front of the reason).
func quoteValue(s string) string { return quoteN(s, 40) }

// quoteByte quotes one byte of input: '"', ' ', '\x00', '\xff'.
func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	const hex = "0123456789abcdef"
	return string([]byte{'\'', '\\', 'x', hex[c>>4], hex[c&15], '\''})
}

// encodedByte returns, for the byte percentDecode(s) writes at i, its
// offset in s and how it is written there: the byte quoted, followed by
// its escape when it was one ('"' (%22)).
func encodedByte(s string, i int) (int, string) {
	for j := 0; j < len(s); j++ {
		esc := s[j] == '%' && j+2 < len(s) && isHex(s[j+1]) && isHex(s[j+2])
		if i == 0 {
			if esc {
				c := unhex(s[j+1])<<4 | unhex(s[j+2])
				return j, quoteByte(c) + " (" + s[j:j+3] + ")"
			}
			return j, quoteByte(s[j])
		}
		if esc {
			j += 2
		}
		i--
	}
	return -1, ""
}
