package normalize

import (
	"slices"
	"strings"
)

// The parser follows the WHATWG URL Standard's basic URL parser (without
// state override and encoding override). Instead of feeding one code point
// at a time through the state machine it finds each component's extent and
// processes the component as a run, writing the serialization straight into
// URL.buf. Each function names the state(s) it implements; comments quote
// the standard where the mapping is not obvious.

// parser carries the scratch space one parse needs. It is reused across
// calls (see state) so steady-state parsing allocates nothing.
type parser struct {
	u         *URL
	base      *URL
	clean     []byte // input with ASCII tab/newline removed
	host      []byte // percent-decoded host
	reference bool   // take no fast path (Normalizer.useReference)
	authOnly  bool   // stop once the authority is read (Parser.ParseAuthority)
	why       failure

	// The verbatim scan of preInput, when the normalizer made it before
	// the parse (Normalizer.verbatimCanon): preYes with its offsets in pre,
	// preAuth (its scheme and authority only), or preNo; parse takes it and
	// resets preState.
	pre      verbatimURL
	preState uint8
	preInput string
}

const (
	preNone = iota
	preYes
	preAuth
	preNo
)

// Parse parses an absolute URL per the WHATWG URL Standard.
func Parse(raw string) (*URL, error) {
	return ParseRef(nil, raw)
}

// ParseRef parses raw against base (which may be nil) per the WHATWG URL
// Standard.
func ParseRef(base *URL, raw string) (*URL, error) {
	u := &URL{}
	var p parser
	if k := p.parse(u, raw, base); k != nil {
		return nil, newError("parse", raw, k, p.reason(raw, nil))
	}
	return u, nil
}

// parse parses input into u (reusing u's buffer). It returns nil on success
// or the kind of failure.
func (p *parser) parse(u *URL, input string, base *URL) *Kind {
	u.reset()
	p.u, p.base = u, base
	if !p.reference && base == nil && !p.authOnly {
		// The verbatim fast path (verbatim.go), with the normalizer's
		// scan of the same input when it made one.
		pre := p.preState
		p.preState = preNone
		switch p.verbatimState(input, pre) {
		case preYes:
			p.setVerbatim(input, &p.pre)
			return nil
		case preAuth:
			return p.verbatimAuthority(input, &p.pre)
		}
	}
	p.preState = preNone
	input = p.trim(input)

	// scheme start state / scheme state
	if n := p.scheme(input); n > 0 {
		scheme := u.Scheme()
		rest := input[n+1:]
		switch {
		case scheme == "file":
			if base != nil && base.Scheme() != "file" {
				p.base = nil // file state only looks at a base whose scheme is file
			}
			return p.file(rest)
		case u.special && base != nil && base.Scheme() == scheme:
			// special relative or authority state
			if strings.HasPrefix(rest, "//") {
				return p.authority(skipSlashes(rest))
			}
			return p.relative(rest)
		case u.special:
			// special authority slashes state, special authority ignore slashes state
			return p.authority(skipSlashes(rest))
		case strings.HasPrefix(rest, "//"):
			// path or authority state
			return p.authority(rest[2:])
		case strings.HasPrefix(rest, "/"):
			rest, k := p.path(rest[1:])
			if k != nil {
				return k
			}
			return p.queryFragment(rest)
		default:
			return p.opaquePath(rest)
		}
	}

	// no scheme state
	if base == nil {
		if input == "" {
			return p.fail(KindEmpty, "", "", "")
		}
		return p.fail(KindMissingScheme, "", "", "")
	}
	if base.opaque {
		if !strings.HasPrefix(input, "#") {
			return p.fail(KindMissingScheme, "", "", "")
		}
		u.buf = append(u.buf, base.buf[:base.pathStart]...)
		p.copyFields(base, true)
		u.opaque = true
		u.buf = append(u.buf, base.Path()...)
		u.pathEnd = len(u.buf)
		if q, ok := base.Query(); ok {
			u.buf = append(u.buf, '?')
			u.queryStart = len(u.buf)
			u.buf = append(u.buf, q...)
		}
		p.fragment(input[1:])
		return nil
	}
	u.buf = append(u.buf, base.buf[:base.schemeEnd+1]...)
	u.schemeEnd = base.schemeEnd
	u.special = base.special
	if base.Scheme() == "file" {
		return p.file(input)
	}
	return p.relative(input)
}

// trim removes leading and trailing C0 control or space and all ASCII tab
// or newline (URL Standard, basic URL parser steps 1–3).
func (p *parser) trim(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	s = s[i:j]
	if !p.reference && (!hasControl(s) || (strings.IndexByte(s, '\t') < 0 && strings.IndexByte(s, '\n') < 0 && strings.IndexByte(s, '\r') < 0)) {
		return s // fast path: nothing to remove
	}
	p.clean = p.clean[:0]
	for k := 0; k < len(s); k++ {
		if c := s[k]; c != '\t' && c != '\n' && c != '\r' {
			p.clean = append(p.clean, c)
		}
	}
	return bstr(p.clean)
}

// hasControl reports whether s contains a byte below 0x20, eight bytes at
// a time ("hasless" from Bit Twiddling Hacks: exact for n ≤ 128); the last
// word overlaps the one before it instead of a byte-by-byte tail.
func hasControl(s string) bool {
	n := len(s)
	if n < 8 {
		for i := 0; i < n; i++ {
			if s[i] < 0x20 {
				return true
			}
		}
		return false
	}
	for i := 0; i+8 < n; i += 8 {
		if controlIn8(s[i : i+8]) {
			return true
		}
	}
	return controlIn8(s[n-8:])
}

// controlIn8 reports whether one of the 8 bytes of b is below 0x20.
func controlIn8(b string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
	return (x-ones*0x20)&^x&highs != 0
}

// scheme appends the lowercase scheme and ':' of input to u.buf and
// returns the scheme's length, or returns 0 when input does not start with
// "scheme:". "https:" and "http:" are recognized without the general scan
// (a fast path).
func (p *parser) scheme(input string) int {
	u := p.u
	n := 0
	switch {
	case strings.HasPrefix(input, "https:") && !p.reference:
		n, u.special = 5, true
		u.buf = append(u.buf, "https:"...)
	case strings.HasPrefix(input, "http:") && !p.reference:
		n, u.special = 4, true
		u.buf = append(u.buf, "http:"...)
	default:
		if n = schemeLen(input); n == 0 {
			return 0
		}
		u.buf = appendLower(u.buf, input[:n+1])
		u.special = specialPort(bstr(u.buf[:n])) != -2
	}
	u.schemeEnd = n
	return n
}

// schemeLen returns the length of the scheme at the start of s when s
// starts with "scheme:", else 0.
func schemeLen(s string) int {
	if s == "" || !isAlpha(s[0]) {
		return 0
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case isAlpha(c) || isDigit(c) || c == '+' || c == '-' || c == '.':
		case c == ':':
			return i
		default:
			return 0
		}
	}
	return 0
}

func skipSlashes(s string) string {
	i := 0
	for i < len(s) && (s[i] == '/' || s[i] == '\\') {
		i++
	}
	return s[i:]
}

func (p *parser) isSlash(c byte) bool { return c == '/' || (c == '\\' && p.u.special) }

// copyFields copies base's authority offsets into u, whose buffer holds a
// copy of base's buffer up to base.authEnd.
func (p *parser) copyFields(base *URL, authority bool) {
	u := p.u
	u.schemeEnd = base.schemeEnd
	u.special = base.special
	if authority {
		u.userStart, u.userEnd = base.userStart, base.userEnd
		u.passStart, u.passEnd = base.passStart, base.passEnd
		u.hostStart, u.hostEnd = base.hostStart, base.hostEnd
		u.authEnd = base.authEnd
		u.port = base.port
		u.hostKind = base.hostKind
		u.hostChars = base.hostChars
	}
	u.pathStart = len(u.buf)
	u.pathEnd = len(u.buf)
}

// copyAuthority appends base's "//userinfo@host:port" (when it has a host)
// to u, which holds the scheme and ':' only.
func (p *parser) copyAuthority(base *URL) {
	u := p.u
	if base.hostKind != HostNone {
		u.buf = append(u.buf[:u.schemeEnd+1], base.buf[base.schemeEnd+1:base.authEnd]...)
	}
	p.copyFields(base, base.hostKind != HostNone)
	if base.hostKind == HostNone {
		u.authEnd = len(u.buf)
	}
}

// relative implements the relative state: s is the input after the scheme
// (if any); u's scheme is base's.
func (p *parser) relative(s string) *Kind {
	u, base := p.u, p.base
	if s != "" && p.isSlash(s[0]) {
		return p.relativeSlash(s[1:])
	}
	p.copyAuthority(base)
	u.buf = append(u.buf, base.Path()...)
	u.pathEnd = len(u.buf)
	if s == "" || s[0] == '#' {
		return p.baseQuery(s)
	}
	if s[0] == '?' {
		return p.queryFragment(s)
	}
	p.shorten()
	rest, k := p.path(s)
	if k != nil {
		return k
	}
	return p.queryFragment(rest)
}

// baseQuery ends a reference that is empty or only a fragment: the URL
// keeps base's query ("url's query to base's query") and gets the
// fragment, if any.
func (p *parser) baseQuery(s string) *Kind {
	u := p.u
	if q, ok := p.base.Query(); ok {
		u.buf = append(u.buf, '?')
		u.queryStart = len(u.buf)
		u.buf = append(u.buf, q...)
	}
	if s != "" {
		p.fragment(s[1:])
	}
	return p.finish()
}

// relativeSlash implements the relative slash state; s follows the first
// slash.
func (p *parser) relativeSlash(s string) *Kind {
	if s != "" && p.isSlash(s[0]) {
		if p.u.special {
			return p.authority(skipSlashes(s))
		}
		return p.authority(s[1:])
	}
	p.copyAuthority(p.base)
	rest, k := p.path(s)
	if k != nil {
		return k
	}
	return p.queryFragment(rest)
}

// authority implements the authority, host and port states. s starts after
// the "//" (and, for special URLs, after any further slashes).
func (p *parser) authority(s string) *Kind {
	u := p.u
	if u.special && !p.reference {
		if k, ok := p.plainAuthority(s); ok {
			return k
		}
	}
	// One scan finds the end of the authority, the last '@' (userinfo
	// ends there) and the first ':' after it outside brackets (the port).
	end, at, colon := len(s), -1, -1
	inBrackets := false
scan:
	for i := 0; i < len(s); i++ {
		// Skip ordinary bytes in a tight loop: the switch costs more.
		for authByte[s[i]] == 0 {
			if i++; i == len(s) {
				break scan
			}
		}
		switch authByte[s[i]] {
		case aEnd:
			end = i
			break scan
		case aBackslash:
			if u.special {
				end = i
				break scan
			}
		case aAt:
			at, colon, inBrackets = i, -1, false
		case aColon:
			if colon < 0 && !inBrackets {
				colon = i
			}
		case aOpen:
			inBrackets = true
		case aClose:
			inBrackets = false
		}
	}
	rest := s[end:]
	u.buf = append(u.buf, '/', '/')
	u.userStart = len(u.buf)
	u.userEnd, u.passStart, u.passEnd = u.userStart, u.userStart, u.userStart
	hostStart := 0
	if at >= 0 {
		// "If atSignSeen is true, then prepend "%40" to buffer" and the
		// first ':' separates the password: every other '@' and ':' is
		// encoded by the userinfo percent-encode set.
		if at+1 == end {
			return p.emptyHost(s[end:])
		}
		p.userinfo(s[:at])
		hostStart = at + 1
	}

	// host state: a ':' outside brackets starts the port.
	host, port, hasPort := s[hostStart:end], "", false
	if colon >= 0 {
		host, port, hasPort = s[hostStart:colon], s[colon+1:end], true
	}
	if host == "" && (hasPort || u.special) {
		return p.emptyHost(s[hostStart:])
	}
	u.hostStart = len(u.buf)
	if k := p.parseHost(host, !u.special); k != nil {
		return k
	}
	return p.afterHost(port, rest)
}

// plainAuthority is authority's fast path for a special URL whose
// authority is a plain ASCII domain and an optional port: no userinfo, no
// '%', no IPv6 literal, nothing for IDNA. One pass lowercases the host into
// u.buf while finding its end, where authority would scan the input twice
// (most web URLs take this path). ok is false, with u.buf as it was, for
// any other authority.
func (p *parser) plainAuthority(s string) (k *Kind, ok bool) {
	u := p.u
	start := len(u.buf)
	u.buf = slices.Grow(u.buf, len(s)+2)
	u.buf = append(u.buf, '/', '/')
	h0 := len(u.buf)
	i, cs := lowerDomain(u.buf[h0:h0+len(s)], s) // within the capacity grown above
	end, port := i, ""
	if i < len(s) {
		switch s[i] {
		case '/', '?', '#', '\\':
		case ':':
			// Only digits up to the end of the authority: "host:80/p".
			// "user:pass@host" and "host:80@x" take the general path.
			j := i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			if j < len(s) && s[j] != '/' && s[j] != '?' && s[j] != '#' && s[j] != '\\' {
				i = 0
				break
			}
			end, port = j, s[i+1:j]
		default:
			i = 0 // '@', '%', '[', a non-ASCII or forbidden byte
		}
	}
	if i == 0 {
		u.buf = u.buf[:start]
		return nil, false
	}
	u.buf = u.buf[:h0+i]
	u.userStart, u.userEnd, u.passStart, u.passEnd = h0, h0, h0, h0
	u.hostStart, u.hostChars = h0, cs
	if k := p.finishDomain(h0); k != nil {
		return p.notIPv4(k, s, u.str(h0, len(u.buf))), true
	}
	return p.afterHost(port, s[end:]), true
}

// emptyHost fails an authority whose host is empty where rest starts.
func (p *parser) emptyHost(rest string) *Kind {
	if rest == "" {
		return p.failAtEnd(KindMissingHost, "empty host", "")
	}
	return p.fail(KindMissingHost, "empty host", rest, "")
}

// afterHost ends the authority once the host is in u.buf: the port state
// for the digits after ':' ("" when none), then the path start state on
// rest.
func (p *parser) afterHost(port, rest string) *Kind {
	u := p.u
	u.hostEnd = len(u.buf)
	if k := p.port(port); k != nil {
		return k
	}
	u.authEnd = len(u.buf)
	u.pathStart, u.pathEnd = u.authEnd, u.authEnd
	if p.authOnly {
		return nil // nothing after the port can fail (ParseAuthority)
	}
	return p.pathStart(rest)
}

// port implements the port state for the digits after ':' (none: no port).
func (p *parser) port(port string) *Kind {
	u := p.u
	if port == "" {
		return nil
	}
	v := int32(0)
	for i := 0; i < len(port); i++ {
		if !isDigit(port[i]) {
			return p.fail(KindPort, quoteByte(port[i]), port[i:], "")
		}
		v = v*10 + int32(port[i]-'0')
		if v > 65535 {
			j := i
			for j < len(port) && j < 20 && isDigit(port[j]) {
				j++
			}
			return p.fail(KindPort, "port "+port[:j], port, "over 65535")
		}
	}
	if int(v) != specialPort(u.Scheme()) {
		u.port = v
		u.buf = append(u.buf, ':')
		u.buf = appendPort(u.buf, v)
	}
	return nil
}

// userinfo appends the username and password (userinfo percent-encode
// set; the first ':' separates them).
func (p *parser) userinfo(userinfo string) {
	u := p.u
	user, pass, hasPass := strings.Cut(userinfo, ":")
	u.buf = appendEncoded(u.buf, user, encUserinfo)
	u.userEnd = len(u.buf)
	if hasPass && pass != "" {
		u.buf = append(u.buf, ':')
		u.passStart = len(u.buf)
		u.buf = appendEncoded(u.buf, pass, encUserinfo)
	} else {
		u.passStart = len(u.buf)
	}
	u.passEnd = len(u.buf)
	if u.userEnd > u.userStart || u.passEnd > u.passStart {
		u.buf = append(u.buf, '@')
	} else {
		u.userEnd, u.passStart, u.passEnd = u.userStart, u.userStart, u.userStart
	}
}

// authByte classifies the bytes the authority scan stops at.
var authByte [256]uint8

const (
	aEnd = 1 + iota
	aBackslash
	aAt
	aColon
	aOpen
	aClose
)

func init() {
	authByte['/'], authByte['?'], authByte['#'] = aEnd, aEnd, aEnd
	authByte['\\'] = aBackslash
	authByte['@'] = aAt
	authByte[':'] = aColon
	authByte['['] = aOpen
	authByte[']'] = aClose
}

// pathStart implements the path start state after an authority.
func (p *parser) pathStart(s string) *Kind {
	u := p.u
	switch {
	case u.special:
		if s != "" && (s[0] == '/' || s[0] == '\\') {
			s = s[1:]
		}
	case s == "" || s[0] == '?' || s[0] == '#':
		return p.queryFragment(s)
	case s[0] == '/':
		s = s[1:]
	}
	rest, k := p.path(s)
	if k != nil {
		return k
	}
	return p.queryFragment(rest)
}

// path implements the path state. s starts at the first code point of the
// first segment (its leading slash, if any, already consumed). It appends
// the segments to u's path and returns the input from '?' or '#' on.
func (p *parser) path(s string) (string, *Kind) {
	u := p.u
	if u.pathStart == 0 {
		// entered without an authority ("sc:/p", "file:p" without host)
		u.authEnd = len(u.buf)
		u.pathStart, u.pathEnd = len(u.buf), len(u.buf)
	}
	// Fast path: no segment can be a dot segment (none starts with '.' or
	// '%'), nothing needs percent-encoding, no '\' in a special URL and no
	// file drive letters: the path is copied as one run.
	if !p.reference && (!u.special || u.Scheme() != "file") {
		tbl := &pathFast
		if !u.special {
			tbl = &pathFastOpaque
		}
		i, plain := 0, len(s) == 0 || s[0] != '/' // "//": an empty first segment
		if len(s) == 0 || (s[0] != '.' && s[0] != '%') {
			for ; i < len(s); i++ {
				t := tbl[s[i]]
				if t == 0 {
					continue
				}
				if t == pfEnd {
					break
				}
				if t == pfNote {
					plain = false
					continue
				}
				if t == pfSlash && (i+1 == len(s) || (s[i+1] != '.' && s[i+1] != '%')) {
					if i+1 < len(s) && s[i+1] == '/' {
						plain = false // an empty segment: "//"
					}
					continue
				}
				i = -1 // needs the segment-by-segment path
				break
			}
			if i >= 0 {
				// Known plain only when these are the path's first
				// segments (not after a base URL's, in a relative reference).
				u.plainPath = plain && len(u.buf) == u.pathStart
				u.buf = append(u.buf, '/')
				u.buf = append(u.buf, s[:i]...)
				u.pathEnd = len(u.buf)
				return s[i:], nil
			}
		}
	}
	return p.pathSegments(s)
}

// pathFast classifies bytes for the fast path of a special URL: pfEnd ends
// the path, pfSlash separates segments, pfSlow needs the full path state
// ('\\' and the path percent-encode set).
var pathFast, pathFastOpaque [256]uint8

const (
	pfSlow  = 1 + iota
	pfSlash // '/'
	pfEnd   // '?', '#'
	pfNote  // '%', ';': copied, but URL.plainPath is false (as for "//")
)

func init() {
	for i := 0; i < 256; i++ {
		if class[i]&encPath != 0 {
			pathFast[i], pathFastOpaque[i] = pfSlow, pfSlow
		}
	}
	pathFast['\\'] = pfSlow
	for _, t := range []*[256]uint8{&pathFast, &pathFastOpaque} {
		t['/'] = pfSlash
		t['?'] = pfEnd
		t['#'] = pfEnd
		t['%'] = pfNote
		t[';'] = pfNote
	}
}

// segSpecial and segOpaque classify path bytes for pathSegments, one load
// a byte: segEnd for the bytes that end a segment ('/', '?', '#', and '\\'
// in a special URL), segEnc for those of the path percent-encode set.
var segSpecial, segOpaque [256]uint8

const (
	segEnd = 1 << iota
	segEnc
)

func init() {
	for c := range 256 {
		if class[c]&encPath != 0 {
			segSpecial[c], segOpaque[c] = segEnc, segEnc
		}
	}
	for _, c := range "/?#" {
		segSpecial[c], segOpaque[c] = segEnd, segEnd
	}
	segSpecial['\\'] = segEnd
}

// pathSegments is the path state, one segment at a time.
func (p *parser) pathSegments(s string) (string, *Kind) {
	u := p.u
	isFile := u.Scheme() == "file"
	tab := &segOpaque
	if u.special {
		tab = &segSpecial
	}
	for {
		end, enc := len(s), uint8(0)
		for i := 0; i < len(s); i++ {
			t := tab[s[i]]
			if t&segEnd != 0 {
				end = i
				break
			}
			enc |= t
		}
		seg := s[:end]
		last := end == len(s) || s[end] == '?' || s[end] == '#'
		switch {
		case len(seg) > 0 && len(seg) <= 6 && (seg[0] == '.' || seg[0] == '%') && isDoubleDot(seg):
			p.shorten()
			if last {
				u.buf = append(u.buf, '/')
			}
		case len(seg) > 0 && len(seg) <= 3 && (seg[0] == '.' || seg[0] == '%') && isSingleDot(seg):
			if last {
				u.buf = append(u.buf, '/')
			}
		case isFile && len(u.buf) == u.pathStart && isDriveLetter(seg):
			u.buf = append(u.buf, '/', seg[0], ':')
		case enc != 0:
			u.buf = append(u.buf, '/')
			u.buf = appendEncoded(u.buf, seg, encPath)
		default:
			u.buf = append(u.buf, '/')
			u.buf = append(u.buf, seg...)
		}
		u.pathEnd = len(u.buf)
		if last {
			return s[end:], nil
		}
		s = s[end+1:]
	}
}

// shorten implements "shorten a URL's path".
func (p *parser) shorten() {
	u := p.u
	path := u.buf[u.pathStart:u.pathEnd]
	if len(path) == 0 {
		return
	}
	if len(path) == 3 && u.Scheme() == "file" && isAlpha(path[1]) && path[2] == ':' {
		return // a normalized Windows drive letter stays
	}
	i := len(path) - 1
	for i > 0 && path[i] != '/' {
		i--
	}
	u.buf = u.buf[:u.pathStart+i]
	u.pathEnd = len(u.buf)
}

func isSingleDot(s string) bool {
	return s == "." || equalFold(s, "%2e")
}

func isDoubleDot(s string) bool {
	switch len(s) {
	case 2:
		return s == ".."
	case 4:
		return equalFold(s, ".%2e") || equalFold(s, "%2e.")
	case 6:
		return equalFold(s, "%2e%2e")
	}
	return false
}

// isDriveLetter reports whether s is a Windows drive letter ("C:" or "C|").
func isDriveLetter(s string) bool {
	return len(s) == 2 && isAlpha(s[0]) && (s[1] == ':' || s[1] == '|')
}

// startsWithDriveLetter implements "starts with a Windows drive letter".
func startsWithDriveLetter(s string) bool {
	if len(s) < 2 || !isDriveLetter(s[:2]) {
		return false
	}
	if len(s) == 2 {
		return true
	}
	switch s[2] {
	case '/', '\\', '?', '#':
		return true
	}
	return false
}

// opaquePath implements the opaque path state.
func (p *parser) opaquePath(s string) *Kind {
	u := p.u
	u.opaque = true
	u.authEnd = len(u.buf)
	u.pathStart = len(u.buf)
	end := len(s)
	for i := 0; i < len(s); i++ {
		if s[i] == '?' || s[i] == '#' {
			end = i
			break
		}
	}
	path := s[:end]
	// "If c is U+0020 SPACE: if remaining starts with ? or #, append %20,
	// otherwise append a space" — only a trailing space can be followed by
	// ? or #, so only it is encoded.
	if end < len(s) && strings.HasSuffix(path, " ") {
		u.buf = appendEncoded(u.buf, path[:len(path)-1], encC0)
		u.buf = append(u.buf, "%20"...)
	} else {
		u.buf = appendEncoded(u.buf, path, encC0)
	}
	u.pathEnd = len(u.buf)
	return p.queryFragment(s[end:])
}

// queryFragment implements the query and fragment states; s is empty or
// starts with '?' or '#'.
func (p *parser) queryFragment(s string) *Kind {
	u := p.u
	if s != "" && s[0] == '?' {
		end := strings.IndexByte(s, '#')
		if end < 0 {
			end = len(s)
		}
		set := uint8(encQuery)
		if u.special {
			set = encSpecialQ
		}
		u.buf = append(u.buf, '?')
		u.queryStart = len(u.buf)
		u.buf = appendEncoded(u.buf, s[1:end], set)
		s = s[end:]
	}
	if s != "" && s[0] == '#' {
		p.fragment(s[1:])
	}
	return p.finish()
}

// fragment implements the fragment state.
func (p *parser) fragment(s string) {
	u := p.u
	u.buf = append(u.buf, '#')
	u.fragStart = len(u.buf)
	u.buf = appendEncoded(u.buf, s, encFragment)
}

// finish applies the serializer's "/." rule: a URL without host whose path
// starts with an empty segment would otherwise serialize as "//…" and
// re-parse with a host.
func (p *parser) finish() *Kind {
	u := p.u
	if u.hostKind == HostNone && !u.opaque && u.pathEnd-u.pathStart > 1 &&
		u.buf[u.pathStart] == '/' && u.buf[u.pathStart+1] == '/' {
		u.buf = append(u.buf, 0, 0)
		copy(u.buf[u.pathStart+2:], u.buf[u.pathStart:len(u.buf)-2])
		u.buf[u.pathStart], u.buf[u.pathStart+1] = '/', '.'
		u.pathStart += 2
		u.pathEnd += 2
		if u.queryStart >= 0 {
			u.queryStart += 2
		}
		if u.fragStart >= 0 {
			u.fragStart += 2
		}
	}
	return nil
}

// file implements the file state. s follows "file:" (or is the whole input
// when the scheme came from a file base).
func (p *parser) file(s string) *Kind {
	u, base := p.u, p.base
	u.special = true
	if s != "" && (s[0] == '/' || s[0] == '\\') {
		return p.fileSlash(s[1:])
	}
	u.buf = append(u.buf, '/', '/')
	u.userStart, u.userEnd, u.passStart, u.passEnd = len(u.buf), len(u.buf), len(u.buf), len(u.buf)
	u.hostStart, u.hostEnd = len(u.buf), len(u.buf)
	u.hostKind = HostEmpty
	if base != nil {
		// file state with a file base: copy host, path and query.
		u.buf = append(u.buf, base.Host()...)
		u.hostEnd = len(u.buf)
		u.hostKind = base.hostKind
		u.hostChars = base.hostChars
		u.authEnd = len(u.buf)
		u.pathStart = len(u.buf)
		u.buf = append(u.buf, base.Path()...)
		u.pathEnd = len(u.buf)
		if s == "" || s[0] == '#' {
			return p.baseQuery(s)
		}
		if s[0] == '?' {
			return p.queryFragment(s)
		}
		if startsWithDriveLetter(s) {
			u.buf = u.buf[:u.pathStart]
			u.pathEnd = u.pathStart
		} else {
			p.shorten()
		}
	} else {
		u.authEnd = len(u.buf)
		u.pathStart, u.pathEnd = len(u.buf), len(u.buf)
	}
	rest, k := p.path(s)
	if k != nil {
		return k
	}
	return p.queryFragment(rest)
}

// fileSlash implements the file slash state; s follows the first slash.
func (p *parser) fileSlash(s string) *Kind {
	u, base := p.u, p.base
	if s != "" && (s[0] == '/' || s[0] == '\\') {
		return p.fileHost(s[1:])
	}
	u.buf = append(u.buf, '/', '/')
	u.userStart, u.userEnd, u.passStart, u.passEnd = len(u.buf), len(u.buf), len(u.buf), len(u.buf)
	u.hostStart = len(u.buf)
	u.hostKind = HostEmpty
	if base != nil {
		u.buf = append(u.buf, base.Host()...)
		u.hostKind = base.hostKind
		u.hostChars = base.hostChars
	}
	u.hostEnd = len(u.buf)
	u.authEnd = len(u.buf)
	u.pathStart, u.pathEnd = len(u.buf), len(u.buf)
	if base != nil && !startsWithDriveLetter(s) {
		bp := base.Path()
		if len(bp) >= 3 && isAlpha(bp[1]) && bp[2] == ':' && (len(bp) == 3 || bp[3] == '/') {
			u.buf = append(u.buf, bp[:3]...)
			u.pathEnd = len(u.buf)
		}
	}
	rest, k := p.path(s)
	if k != nil {
		return k
	}
	return p.queryFragment(rest)
}

// fileHost implements the file host state; s follows "//".
func (p *parser) fileHost(s string) *Kind {
	u := p.u
	end := len(s)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '/' || c == '\\' || c == '?' || c == '#' {
			end = i
			break
		}
	}
	host := s[:end]
	u.buf = append(u.buf, '/', '/')
	u.userStart, u.userEnd, u.passStart, u.passEnd = len(u.buf), len(u.buf), len(u.buf), len(u.buf)
	u.hostStart = len(u.buf)
	u.hostKind = HostEmpty
	if isDriveLetter(host) {
		// "This is a (platform-independent) Windows drive letter quirk.
		// buffer is not reset here and instead used in the path state."
		u.hostEnd, u.authEnd = len(u.buf), len(u.buf)
		u.pathStart, u.pathEnd = len(u.buf), len(u.buf)
		rest, k := p.path(s)
		if k != nil {
			return k
		}
		return p.queryFragment(rest)
	}
	if host != "" {
		if k := p.parseHost(host, false); k != nil {
			return k
		}
		if u.str(u.hostStart, len(u.buf)) == "localhost" {
			u.buf = u.buf[:u.hostStart]
			u.hostKind = HostEmpty
		}
	}
	u.hostEnd, u.authEnd = len(u.buf), len(u.buf)
	u.pathStart, u.pathEnd = len(u.buf), len(u.buf)
	return p.pathStart(s[end:])
}
