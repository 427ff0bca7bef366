package normalize

import "strings"

// Most web URLs are already written the way the URL Standard's serializer
// writes them (ada's lesson): "https://example.com/a/b?q=1". For such an
// input the parse is a validation: one pass that checks that the
// serialization of the input is the input and records where each
// component starts, then one copy into URL.buf (or, when the profile's
// rules leave the URL as it is, no copy at all: Normalizer.unchanged).
// Anything else (an uppercase or non-ASCII host byte, an IPv4 host, a
// default or zero-padded port, userinfo, a dot segment, a byte that the
// serializer percent-encodes, '\', tab or newline, a path-less authority)
// fails the check and takes the general parser, from the start.

// verbatimURL holds the offsets of a verbatim input, in the input (which
// is also the serialization).
type verbatimURL struct {
	schemeEnd, hostStart, hostEnd, authEnd, pathEnd int
	queryStart, fragStart                           int // -1 when null
	port                                            int32
	plainPath                                       bool // no '%', ';' or "//" and no segment that starts with '.' (URL.plainPath)
	pct                                             bool // a '%' after the authority
}

// vHost marks the bytes of a verbatim host: lowercase letters, digits,
// '-', '.' and '_'. The parser keeps them as they are (plainAuthority),
// and they are in both host charsets (csDNS, csRFC3986). An ASCII "xn--"
// label is kept as it is too (see parseHost), so it needs no test here.
var vHost [256]bool

func init() {
	for c := 0; c < 256; c++ {
		b := byte(c)
		vHost[c] = b >= 'a' && b <= 'z' || isDigit(b) || b == '-' || b == '.' || b == '_'
	}
}

// scanVerbatim reports whether s is an http or https URL whose
// serialization is s itself, and fills v with its offsets. It is a pure
// function of s: Normalizer.unchanged calls it before taking any state.
func scanVerbatim(s string, v *verbatimURL) bool {
	var i int
	switch {
	case strings.HasPrefix(s, "https://"):
		v.schemeEnd, i = 5, 8
	case strings.HasPrefix(s, "http://"):
		v.schemeEnd, i = 4, 7
	default:
		return false
	}
	v.hostStart = i
	for i < len(s) && vHost[s[i]] {
		i++
	}
	if i == v.hostStart || i == len(s) {
		return false // an empty host; no path (the serializer adds "/")
	}
	// The last label is not a number (an IPv4 address, or an error).
	v.hostEnd = i
	if endsInNumber(s[v.hostStart:i], true) {
		return false
	}
	v.port = -1
	if s[i] == ':' {
		if i = verbatimPort(s, i+1, v); i < 0 {
			return false
		}
	}
	if i == len(s) || s[i] != '/' {
		return false // '?', '#' (no path: the serializer adds "/"), or a byte plainAuthority does not take
	}
	v.authEnd = i
	if i = verbatimPath(s, i, v); i < 0 {
		return false
	}
	v.queryStart, v.fragStart = -1, -1
	if i < len(s) && s[i] == '?' {
		// The special-query percent-encode set includes '#', which ends the query.
		i++
		v.queryStart = i
		for i < len(s) && class[s[i]]&encSpecialQ == 0 {
			i++
		}
		if i < len(s) && s[i] != '#' {
			return false
		}
	}
	if i < len(s) {
		// s[i] is '#'.
		i++
		v.fragStart = i
		for i < len(s) && class[s[i]]&encFragment == 0 {
			i++
		}
		if i < len(s) {
			return false
		}
	}
	v.pct = strings.IndexByte(s[v.authEnd:], '%') >= 0
	return true
}

// verbatimPort reads the port digits from s[i:] into v and returns the
// index after them, or -1 unless the serializer writes them as they are:
// 1 to 5 digits without a leading zero ("0" itself is fine), at most
// 65535, not the scheme's default port.
func verbatimPort(s string, i int, v *verbatimURL) int {
	j, p := i, int32(0)
	for j < len(s) && j-i < 6 && isDigit(s[j]) {
		p = p*10 + int32(s[j]-'0')
		j++
	}
	switch {
	case j == i, j-i > 5, s[i] == '0' && j-i > 1, p > 65535, int(p) == specialPort(s[:v.schemeEnd]):
		return -1
	}
	v.port = p
	return j
}

// verbatimPath checks the path at s[i:] (which starts with '/') with the
// parser's path table (pathFast) and returns the index of the '?' or '#'
// that ends it (len(s) when none), or -1 when the path is not written as
// the serializer writes it: a byte of the path percent-encode set, '\', or
// a dot segment ("." "..", "%2e" in any case …). A segment that starts
// with '.' or '%' but is no dot segment (".well-known") is kept, but the
// path is not plain: the parser's run copy does not take it either.
func verbatimPath(s string, i int, v *verbatimURL) int {
	plain := true
	for ; i < len(s); i++ {
		switch pathFast[s[i]] {
		case 0:
			continue
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

// dotSegment reports whether the path segment at the start of s (up to
// '/', '?', '#' or the end) is a single- or double-dot segment.
func dotSegment(s string) bool {
	end := 0
	for end < len(s) && end <= 6 && s[end] != '/' && s[end] != '?' && s[end] != '#' {
		end++
	}
	return isSingleDot(s[:end]) || isDoubleDot(s[:end])
}

// verbatim is the parser's fast path: when the serialization of input is
// input itself, one copy fills u.buf and the scan's offsets fill the
// fields, as the general parser would (TestVerbatimMatchesParser).
func (p *parser) verbatim(input string) bool {
	var v verbatimURL
	if !scanVerbatim(input, &v) {
		return false
	}
	p.setVerbatim(input, &v)
	return true
}

// setVerbatim fills p.u from input, which scanVerbatim accepted into v.
func (p *parser) setVerbatim(input string, v *verbatimURL) {
	u := p.u
	u.buf = append(u.buf[:0], input...)
	u.schemeEnd, u.special = v.schemeEnd, true
	u.userStart, u.userEnd, u.passStart, u.passEnd = v.hostStart, v.hostStart, v.hostStart, v.hostStart
	u.hostStart, u.hostEnd, u.authEnd = v.hostStart, v.hostEnd, v.authEnd
	u.hostKind, u.hostChars = HostDomain, csDNS|csRFC3986
	u.port = v.port
	u.pathStart, u.pathEnd = v.authEnd, v.pathEnd
	u.queryStart, u.fragStart = v.queryStart, v.fragStart
	u.plainPath = v.plainPath
}
