package normalize

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// idnaProfile is UTS #46 ToASCII with the URL Standard's "domain to ASCII"
// options for beStrict = false: CheckHyphens, UseSTD3ASCIIRules and
// VerifyDnsLength off; CheckBidi, CheckJoiners on; non-transitional.
// Option order matters: MapForLookup switches the strict options on.
var idnaProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.Transitional(false),
	idna.StrictDomainName(false),
	idna.CheckHyphens(false),
	idna.VerifyDNSLength(false),
)

// parseHost implements the host parser, appending the serialized host to
// u.buf and setting u.hostKind. opaque selects the opaque-host parser
// (non-special schemes).
func (p *parser) parseHost(s string, opaque bool) *Kind {
	u := p.u
	if s != "" && s[0] == '[' {
		if len(s) < 2 || s[len(s)-1] != ']' {
			return p.fail(KindIPv6, quoteValue(s), s, "no closing ']'")
		}
		var addr [8]uint16
		if !parseIPv6(s[1:len(s)-1], &addr) {
			return p.fail(KindIPv6, quoteValue(s), s, "not an IPv6 address")
		}
		u.buf = append(u.buf, '[')
		u.buf = appendIPv6(u.buf, &addr)
		u.buf = append(u.buf, ']')
		u.hostKind = HostIPv6
		return nil
	}
	if opaque {
		for i := 0; i < len(s); i++ {
			if class[s[i]]&forbiddenHost != 0 {
				return p.fail(KindHost, quoteByte(s[i]), s[i:], "")
			}
		}
		if s == "" {
			u.hostKind = HostEmpty
			return nil
		}
		u.buf = appendEncoded(u.buf, s, encC0)
		u.hostKind = HostOpaque
		return nil
	}
	if !p.reference && p.asciiHost(s) {
		if k := p.finishDomain(u.hostStart); k != nil {
			return p.notIPv4(k, s, u.str(u.hostStart, len(u.buf)))
		}
		return nil
	}
	domain := s
	if strings.IndexByte(s, '%') >= 0 {
		p.host = percentDecode(p.host[:0], s)
		domain = bstr(p.host)
	}
	start := len(u.buf)
	if isASCII(domain) {
		// ASCII fast path. For an ASCII domain, UTS #46 ToASCII with these
		// options is ASCII lowercasing, and the URL Standard's tests expect
		// ASCII "xn--" labels to pass through even when their Punycode is
		// not valid IDNA ("Domain is ASCII, but a label is invalid IDNA":
		// http://a.b.c.xn--pokxncvks, https://xn--/). Lowercasing is also
		// idempotent where x/net/idna is not (golang/go#81525).
		for i := 0; i < len(domain); i++ {
			c := domain[i]
			if class[c]&forbiddenDomain != 0 {
				u.buf = u.buf[:start]
				return p.badHostByte(s, domain, i, "")
			}
			u.buf = append(u.buf, lower(c))
		}
	} else {
		if !utf8.ValidString(domain) {
			// U+FFFD after UTF-8 decode is disallowed by UTS #46.
			return p.badHostByte(s, domain, invalidUTF8(domain), "invalid UTF-8")
		}
		ascii, err := p.toASCII(domain)
		if err != nil {
			return p.fail(KindHost, quoteValue(s), s, strings.TrimPrefix(err.Error(), "idna: "))
		}
		if ascii == "" {
			return p.fail(KindHost, quoteValue(s), s, "IDNA maps it to nothing")
		}
		for i := 0; i < len(ascii); i++ {
			if c := ascii[i]; class[c]&forbiddenDomain != 0 {
				return p.fail(KindHost, quoteValue(s), s, "IDNA maps it to "+quoteValue(ascii)+", with "+quoteByte(c))
			}
		}
		u.buf = append(u.buf, ascii...)
	}
	if start == len(u.buf) {
		return p.fail(KindHost, "empty host", s, "")
	}
	u.hostChars = charsOf(u.buf[start:])
	if k := p.finishDomain(start); k != nil {
		return p.notIPv4(k, s, u.str(start, len(u.buf)))
	}
	return nil
}

// badHostByte fails a domain at its byte i (of domain, the percent-decoded
// s), naming the byte as the input writes it.
func (p *parser) badHostByte(s, domain string, i int, why string) *Kind {
	if domain == s {
		return p.fail(KindHost, quoteByte(s[i]), s[i:], why)
	}
	j, what := encodedByte(s, i)
	return p.fail(KindHost, what, s[j:], why)
}

// notIPv4 fails a host (as parsed: lowercase, punycode) that ends in a
// number but does not parse as an IPv4 address; at is the input from the
// host on.
func (p *parser) notIPv4(k *Kind, at, host string) *Kind {
	return p.fail(k, quoteValue(host), at, "ends in a number but is not an IPv4 address")
}

// invalidUTF8 returns the offset of the first byte of s that is not valid
// UTF-8.
func invalidUTF8(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return i
			}
		}
	}
	return 0
}

// Host character classes, for profiles that restrict a domain's charset.
const (
	csDNS     = 1 << iota // letters, digits, '-', '_', '.'
	csRFC3986             // RFC 3986 reg-name: unreserved and sub-delims
)

// hostClass holds the charset classes of each byte (csDNS, csRFC3986).
var hostClass [256]uint8

// hostTab is the table of the ASCII domain loop, one load per byte: the
// byte's lowercase form in the low 8 bits and its classes in the high 8,
// or 0 when the byte needs the full host parser (non-ASCII, '%',
// forbidden domain code point).
var hostTab [256]uint16

func init() {
	for i := 0; i < 0x80; i++ {
		c := byte(i)
		if dnsChar[lower(c)] {
			hostClass[c] |= csDNS
		}
		if unreserved[c] || strings.IndexByte("!$&'()*+,;=", c) >= 0 {
			hostClass[c] |= csRFC3986
		}
		if class[c]&forbiddenDomain == 0 {
			hostTab[c] = uint16(lower(c)) | uint16(hostClass[c])<<8
		}
	}
}

func charsOf(b []byte) uint8 {
	cs := uint8(csDNS | csRFC3986)
	for _, c := range b {
		cs &= hostClass[c]
	}
	return cs
}

// asciiHost is the host parser's fast path for a domain made of ASCII
// bytes other than '%' and forbidden domain code points: one pass
// lowercases it into the buffer and classifies its characters. For such a
// domain, UTS #46 ToASCII with the URL Standard's options is ASCII
// lowercasing (see the comment in parseHost).
func (p *parser) asciiHost(s string) bool {
	u := p.u
	start := len(u.buf)
	u.buf = slices.Grow(u.buf, len(s))[:start+len(s)]
	n, cs := lowerDomain(u.buf[start:], s)
	if n < len(s) || len(s) == 0 {
		u.buf = u.buf[:start]
		return false
	}
	u.hostChars = cs
	return true
}

// lowerDomain writes the lowercase form of the leading bytes of s that
// may appear in an ASCII domain (not '%', not a forbidden domain code
// point) to b, which is at least as long as s. It returns how many there
// were and the charset classes they all share.
func lowerDomain(b []byte, s string) (int, uint8) {
	b = b[:len(s)] // same length: lets the compiler drop the bounds checks
	cs := uint16(csDNS|csRFC3986) << 8
	for i, c := range []byte(s) {
		v := hostTab[c]
		if v == 0 {
			return i, uint8(cs >> 8)
		}
		b[i] = byte(v)
		cs &= v
	}
	return len(s), uint8(cs >> 8)
}

// finishDomain turns the domain at u.buf[start:] into an IPv4 address when
// it "ends in a number" (URL Standard, host parser step 8).
func (p *parser) finishDomain(start int) *Kind {
	u := p.u
	host := u.str(start, len(u.buf))
	if !endsInNumber(host, !p.reference) {
		u.hostKind = HostDomain
		return nil
	}
	v, ok := parseIPv4(host)
	if !ok {
		return KindIPv4 // the callers say why: they have the host as written
	}
	u.buf = appendIPv4(u.buf[:start], v)
	u.hostKind = HostIPv4
	return nil
}

// maxIDNLabel bounds a label that needs UTS #46 processing. x/net/idna's
// Punycode encoder is quadratic in a label's distinct code points (a 48 KB
// label of distinct CJK characters took 4 s: a denial of service for a SQL
// query). A DNS label is at most 63 bytes in its ASCII form, so 252 bytes
// of UTF-8 (63 × 4) loses no host that can exist; the URL Standard itself
// sets no limit, which is a documented deviation of the whatwg profile.
const maxIDNLabel = 252

var errLongLabel = errors.New("IDN label longer than 252 bytes")

// checkLabels rejects a domain with a label over maxIDNLabel bytes that
// Punycode would process: a non-ASCII label or an "xn--" label. Labels end
// at '.' and at the full stops UTS #46 maps to '.' (U+3002, U+FF0E,
// U+FF61). Long ASCII labels only cost linear time and pass.
func checkLabels(domain string) error {
	for domain != "" {
		end, next := len(domain), len(domain)
		for i := 0; i < len(domain); i++ {
			if domain[i] == '.' {
				end, next = i, i+1
				break
			}
			if rest := domain[i:]; strings.HasPrefix(rest, "\u3002") || strings.HasPrefix(rest, "\uff0e") || strings.HasPrefix(rest, "\uff61") {
				end, next = i, i+3
				break
			}
		}
		label := domain[:end]
		if len(label) > maxIDNLabel && (!isASCII(label) || hasPrefixFold(label, "xn--")) {
			return errLongLabel
		}
		domain = domain[next:]
	}
	return nil
}

// idnCache remembers the ASCII form of recent non-ASCII domains, for
// the whole process: UTS #46 ToASCII (x/net/idna) costs a few hundred
// nanoseconds and several allocations a domain (11 % of whatwg's time on
// web_dirty, where 3.6 % of the URLs have an IDN host), and a column of
// URLs repeats its hosts. ToASCII is a pure function of the domain, so a
// hit answers what a miss would. It is direct-mapped (idnSlots entries,
// each an immutable pair that a miss replaces whole, so a reader sees an
// old pair or a new one, never half of each) and holds domains of at most
// idnMaxKey bytes: at most idnSlots × (idnMaxKey + its ASCII form) bytes.
// A stream of distinct IDN hosts pays for ToASCII, as without it, and for
// one pair a host. Errors are not remembered (they are rare, and their
// text is built per call).
var idnCache [idnSlots]atomic.Pointer[idnPair]

const (
	idnSlots  = 512
	idnMaxKey = 128
)

type idnPair struct{ domain, ascii string }

// toASCII is the function toASCII through idnCache (the reference, and a
// domain longer than idnMaxKey, skip it).
func (p *parser) toASCII(domain string) (string, error) {
	if p.reference || len(domain) > idnMaxKey {
		return toASCII(domain)
	}
	slot := &idnCache[idnSlot(domain)]
	if e := slot.Load(); e != nil && e.domain == domain {
		return e.ascii, nil
	}
	ascii, err := toASCII(domain)
	if err == nil {
		// domain may be the parser's pooled buffer (a percent-decoded
		// host), and ascii a piece of it: both are copied.
		slot.Store(&idnPair{strings.Clone(domain), strings.Clone(ascii)})
	}
	return ascii, err
}

// idnSlot is the slot of domain in idnCache: FNV-1a of its bytes.
func idnSlot(domain string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(domain); i++ {
		h = (h ^ uint32(domain[i])) * 16777619
	}
	return (h ^ h>>16) % idnSlots
}

// toASCII runs UTS #46 ToASCII on a non-ASCII (or punycode) domain.
func toASCII(domain string) (string, error) {
	if err := checkLabels(domain); err != nil {
		return "", err
	}
	// Unicode 15.1 changed U+1E9E LATIN CAPITAL LETTER SHARP S to map to
	// U+00DF (kept as ß, non-transitional) instead of "ss". Go 1.26's
	// x/net/idna tables are Unicode 15.0; apply the newer mapping so that
	// "FAẞ.de" gives xn--fa-hia.de as the URL Standard's tests expect.
	if strings.Contains(domain, "\u1e9e") {
		domain = strings.ReplaceAll(domain, "\u1e9e", "\u00df")
	}
	return idnaProfile.ToASCII(domain)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// percentDecode appends the percent-decoding of s to dst.
func percentDecode(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			c = unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
		}
		dst = append(dst, c)
	}
	return dst
}

// endsInNumber implements the "ends in a number checker". quick allows
// the quick reject (a fast path; the reference passes false).
func endsInNumber(s string, quick bool) bool {
	if strings.HasSuffix(s, ".") {
		if len(s) == 1 {
			return false
		}
		s = s[:len(s)-1]
	}
	// Quick answer: a number that does not end in a digit is "0x" and hex
	// digits ("0x1f", "0x"; parseIPv4Number). Most domains end in a letter
	// past 'f' ("com", "org"); the others ("de", "cafe") are told by their
	// last bytes.
	if c := lower(s[len(s)-1]); quick && !isDigit(c) {
		return (c >= 'a' && c <= 'f' || c == 'x') && hexNumberEnd(s)
	}
	last := s[strings.LastIndexByte(s, '.')+1:]
	if last == "" {
		return false
	}
	allDigits := true
	for i := 0; i < len(last); i++ {
		if !isDigit(last[i]) {
			allDigits = false
			break
		}
	}
	if allDigits {
		return true
	}
	_, ok := parseIPv4Number(last)
	return ok
}

// hexNumberEnd reports whether the last label of s (no trailing dot) is
// "0x" or "0X" and hex digits only: it reads the hex digits at the end
// and the two bytes before them.
func hexNumberEnd(s string) bool {
	j := len(s) - 1
	for j >= 0 && isHex(s[j]) {
		j--
	}
	return j >= 1 && s[j]|0x20 == 'x' && s[j-1] == '0' && (j == 1 || s[j-2] == '.')
}

// ipv4Overflow saturates IPv4 numbers: anything above it is out of range
// for every part position.
const ipv4Overflow = 1 << 33

// parseIPv4Number implements the IPv4 number parser (without reporting
// the validation error).
func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	radix := uint64(10)
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s, radix = s[2:], 16
	} else if len(s) >= 2 && s[0] == '0' {
		s, radix = s[1:], 8
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d uint64
		switch {
		case isDigit(c):
			d = uint64(c - '0')
		case radix == 16 && isHex(c):
			d = uint64(unhex(c))
		default:
			return 0, false
		}
		if d >= radix {
			return 0, false
		}
		if v < ipv4Overflow {
			v = v*radix + d
		}
	}
	return v, true
}

// parseIPv4 implements the IPv4 parser.
func parseIPv4(s string) (uint32, bool) {
	if strings.HasSuffix(s, ".") && len(s) > 1 {
		s = s[:len(s)-1]
	}
	var nums [4]uint64
	n := 0
	for {
		part := s
		i := strings.IndexByte(s, '.')
		if i >= 0 {
			part = s[:i]
		}
		if n == 4 {
			return 0, false
		}
		v, ok := parseIPv4Number(part)
		if !ok {
			return 0, false
		}
		nums[n] = v
		n++
		if i < 0 {
			break
		}
		s = s[i+1:]
	}
	for i := 0; i < n-1; i++ {
		if nums[i] > 255 {
			return 0, false
		}
	}
	if nums[n-1] >= 1<<(8*(5-n)) {
		return 0, false
	}
	ipv4 := nums[n-1]
	for i := 0; i < n-1; i++ {
		ipv4 += nums[i] << (8 * (3 - i))
	}
	return uint32(ipv4), true
}

func appendIPv4(dst []byte, v uint32) []byte {
	for i := 3; i >= 0; i-- {
		dst = strconv.AppendUint(dst, uint64(v>>(8*i)&0xff), 10)
		if i > 0 {
			dst = append(dst, '.')
		}
	}
	return dst
}

// parseIPv6 implements the IPv6 parser.
func parseIPv6(s string, addr *[8]uint16) bool {
	piece, compress := 0, -1
	i := 0
	if i < len(s) && s[i] == ':' {
		if len(s) < 2 || s[1] != ':' {
			return false
		}
		i += 2
		piece++
		compress = piece
	}
	for i < len(s) {
		if piece == 8 {
			return false
		}
		if s[i] == ':' {
			if compress >= 0 {
				return false
			}
			i++
			piece++
			compress = piece
			continue
		}
		value, length := 0, 0
		for length < 4 && i < len(s) && isHex(s[i]) {
			value = value<<4 | int(unhex(s[i]))
			i++
			length++
		}
		if i < len(s) && s[i] == '.' {
			if length == 0 {
				return false
			}
			i -= length
			if piece > 6 {
				return false
			}
			seen := 0
			for i < len(s) {
				v := -1
				if seen > 0 {
					if s[i] == '.' && seen < 4 {
						i++
					} else {
						return false
					}
				}
				if i >= len(s) || !isDigit(s[i]) {
					return false
				}
				for i < len(s) && isDigit(s[i]) {
					d := int(s[i] - '0')
					switch v {
					case -1:
						v = d
					case 0:
						return false
					default:
						v = v*10 + d
					}
					if v > 255 {
						return false
					}
					i++
				}
				addr[piece] = addr[piece]<<8 | uint16(v)
				seen++
				if seen == 2 || seen == 4 {
					piece++
				}
			}
			if seen != 4 {
				return false
			}
			break
		} else if i < len(s) && s[i] == ':' {
			i++
			if i >= len(s) {
				return false
			}
		} else if i < len(s) {
			return false
		}
		addr[piece] = uint16(value)
		piece++
	}
	if compress >= 0 {
		swaps := piece - compress
		piece = 7
		for piece != 0 && swaps > 0 {
			addr[piece], addr[compress+swaps-1] = addr[compress+swaps-1], addr[piece]
			piece--
			swaps--
		}
	} else if piece != 8 {
		return false
	}
	return true
}

// appendIPv6 implements the IPv6 serializer (without brackets).
func appendIPv6(dst []byte, addr *[8]uint16) []byte {
	compress, best := -1, 1
	for i := 0; i < 8; {
		if addr[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && addr[j] == 0 {
			j++
		}
		if j-i > best {
			compress, best = i, j-i
		}
		i = j
	}
	for i := 0; i < 8; i++ {
		if i == compress {
			if i == 0 {
				dst = append(dst, ':', ':')
			} else {
				dst = append(dst, ':')
			}
			i += best - 1
			continue
		}
		dst = strconv.AppendUint(dst, uint64(addr[i]), 16)
		if i != 7 {
			dst = append(dst, ':')
		}
	}
	return dst
}

// hostChangesUpper is hostChanges for a verbatim host h with uppercase
// letters: the lookups read it lowercased, in a copy on the stack (the
// general path looks up the host it has lowercased; a verbatim host is
// ASCII). Where hostChanges refused every such host, which sent clara's
// URLs with an uppercase scheme or host, 14,115 of web_dirty's 59,440,
// to the general path (issue 18). A host longer than the copy is
// refused.
func (n *Normalizer) hostChangesUpper(h string) bool {
	var buf [64]byte
	if len(h) > len(buf) {
		return true
	}
	b := buf[:len(h)]
	copy(b, h)
	lowerASCII(b)
	return n.hostChanges(bstr(b), false)
}

// hostEnds is verbatimCanon's first test of a verbatim host against the
// keys of the host maps (host.map, hosts, language: hostLookups): bit b of
// tab[l] is set when a key whose length is l modulo 64 ends in a byte
// whose lowercase form is b modulo 64. One load and a bit test, inline,
// on the host as it is written: its length, and its last byte or-ed with
// 0x20, which lowercases a letter and leaves a digit, '-' and '.' as they
// are ('_' becomes 0x7F, in a key as in a host), so that a host with
// uppercase letters is tested without a copy. 3 % of web's verbatim
// hosts pass it for clara (hostKeys then tests the first byte too). Where
// hostKeys' hash of length, first and last bytes was tested first, and
// every URL with an uppercase letter in its scheme or host took hostCut
// and a lowercased copy (hostChangesUpper), 26 % of web_dirty's rows:
// clara 845 → 831 instructions per URL of web, 2,111 → 2,041 of
// web_dirty (issue 18).
type hostEnds struct {
	any bool // the profile looks hosts up
	tab [64]uint64
}

// mayAt reports whether the verbatim host s[i:j] (not empty) passes e.
func (e *hostEnds) mayAt(s string, i, j int) bool {
	return e.tab[uint(j-i)&63]>>((s[j-1]|0x20)&63)&1 != 0
}

// compileHostEnds fills n.hostEnds with the keys of the host maps.
func (n *Normalizer) compileHostEnds() {
	e := &n.hostEnds
	*e = hostEnds{any: n.hostLookups()}
	addHostEnds(e, n.hostTo.m)
	addHostEnds(e, n.hosts.m)
	addHostEnds(e, n.lang.m)
}

// addHostEnds lets the keys of m through e.
func addHostEnds[V any](e *hostEnds, m map[string]V) {
	for h := range m {
		if h != "" {
			e.tab[len(h)&63] |= 1 << ((h[len(h)-1] | 0x20) & 63)
		}
	}
}
