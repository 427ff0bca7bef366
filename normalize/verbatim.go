package normalize

import (
	"encoding/binary"
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

// Most web URLs are already written the way the URL Standard's serializer
// writes them (ada's lesson): "https://example.com/a/b?q=1". For such an
// input the parse is a validation: one pass that checks that the
// serialization of the input is the input and records where each
// component starts, then one copy into URL.buf (or, when the profile's
// rules leave the URL as it is, no copy at all: Normalizer.verbatimCanon).
// An uppercase letter in the scheme or the host is taken too (the copy
// lowercases them; verbatimURL.lower), as web_dirty has them in half of
// its URLs, and so is the scheme's default port (the copy leaves it out;
// verbatimURL.cut; 10 % of web_dirty). Anything else (a non-ASCII host
// byte, an IPv4 host, a zero-padded port, userinfo, a dot segment, a
// byte that the serializer percent-encodes, '\', tab or newline, a
// path-less authority) fails the check and takes the general parser,
// from the start.

// verbatimURL holds the offsets of a verbatim input, in the input: the
// serialization is the input, lowercased up to hostEnd when lower is set,
// without input[hostEnd:hostEnd+cut] (a default port) when cut > 0.
type verbatimURL struct {
	schemeEnd, hostStart, hostEnd, authEnd, pathEnd int
	queryStart, fragStart                           int // -1 when null
	port                                            int32
	plainPath                                       bool // no '%', ';' or "//" and no segment that starts with '.' (URL.plainPath)
	lower                                           bool // the scheme or the host has an uppercase letter
	cut                                             int  // the length of ":80" or ":443", the scheme's default port, after the host
	auth                                            bool // the scheme and the authority are verbatim, up to authEnd, where '/' starts the path (even when the rest is not)
}

// Word-at-a-time byte tests (SWAR): with every byte of x below 0x80,
// x + (0x80-lo)*ones sets a byte's high bit exactly when the byte is at
// least lo, without a carry into the next byte.
const (
	ones = 0x0101010101010101
	high = 0x80 * ones
)

// atLeast returns, in the high bit of each byte, whether that byte of x
// (bytes below 0x80) is lo or more (the other bits are noise).
func atLeast(x uint64, lo byte) uint64 { return x + uint64(0x80-lo)*ones }

// inRange returns, in the high bit of each byte, whether that byte of x
// (bytes below 0x80) is within [lo, hi] (the other bits are noise).
func inRange(x uint64, lo, hi byte) uint64 { return atLeast(x, lo) &^ atLeast(x, hi+1) }

// lowerASCII lowercases the letters of b, whose bytes are all below 0x80,
// eight at a step (the last step overlaps the one before it: lowercasing
// twice is lowercasing once).
func lowerASCII(b []byte) {
	if len(b) < 8 {
		for i, c := range b {
			b[i] = lower(c)
		}
		return
	}
	for i := 0; ; i += 8 {
		if i+8 > len(b) {
			i = len(b) - 8
		}
		w := binary.LittleEndian.Uint64(b[i:])
		binary.LittleEndian.PutUint64(b[i:], w|inRange(w, 'A', 'Z')&high>>2)
		if i+8 == len(b) {
			return
		}
	}
}

// vQuery and vFragment mark (vOK) the bytes that a special URL's query
// and a fragment keep as they are.
var vQuery, vFragment [256]uint8

func init() {
	for c := 0; c < 256; c++ {
		if class[c]&encSpecialQ == 0 {
			vQuery[c] = vOK
		}
		if class[c]&encFragment == 0 {
			vFragment[c] = vOK
		}
	}
}

// vHost classifies the bytes of a verbatim host: vOK for lowercase
// letters, digits, '-', '.' and '_', which the parser keeps as they are
// (plainAuthority) and which are in both host charsets (csDNS,
// csRFC3986); vOK|vUpper for uppercase letters, which it lowercases; 0 for
// the others. An ASCII "xn--" label is kept as it is too (see
// parseHost), so it needs no test here.
var vHost [256]uint8

const (
	vOK    = 1 << iota // the byte is taken
	vUpper             // and is an uppercase letter
)

func init() {
	for c := 0; c < 256; c++ {
		switch b := byte(c); {
		case b >= 'a' && b <= 'z' || isDigit(b) || b == '-' || b == '.' || b == '_':
			vHost[c] = vOK
		case b >= 'A' && b <= 'Z':
			vHost[c] = vOK | vUpper
		}
	}
}

// scanVerbatim reports whether s is an http or https URL whose
// serialization is s itself, and fills v with its offsets. It is a pure
// function of s: Normalizer.verbatimCanon calls it before taking any state.
func scanVerbatim(s string, v *verbatimURL) bool {
	v.auth = false
	i := scanAuthority(s, v)
	if i < 0 || i == len(s) || s[i] != '/' {
		return false // '?', '#' (no path: the serializer adds "/"), or a byte plainAuthority does not take
	}
	v.authEnd, v.auth = i, true
	i = verbatimPath(s, i, v)
	return i >= 0 && scanQueryFragment(s, i, v)
}

// scanQueryFragment reads the query and the fragment of a special URL at
// s[i:], where the path ends ('?', '#' or the end of s), into v and
// reports whether the serializer writes them as they are.
func scanQueryFragment(s string, i int, v *verbatimURL) bool {
	v.queryStart, v.fragStart = -1, -1
	if i < len(s) && s[i] == '?' {
		// The special-query percent-encode set includes '#', which ends the query.
		i++
		v.queryStart = i
		i = spanOKAt(s, i, &vQuery)
		if i < len(s) && s[i] != '#' {
			return false
		}
	}
	if i < len(s) {
		// s[i] is '#'.
		i++
		v.fragStart = i
		i = spanOKAt(s, i, &vFragment)
		if i < len(s) {
			return false
		}
	}
	return true
}

// scanAuthority (verbatim_simd_amd64.go, verbatim_nosimd.go) reads the
// scheme and the authority of s when s is an http or https URL whose
// scheme and authority are written as the serializer writes them (an
// uppercase letter and the scheme's default port aside: v.lower, v.cut),
// fills v's scheme, host and port, and returns the index of the byte after
// the authority, or -1: schemeStart, hostSpan's scan (inline in the SIMD
// build), then afterHost, or endAuthority when afterHost answers hostTail.

// The first 8 bytes of a URL starting with "https://" or "http://" as a
// little-endian word (the latter in its first 7 bytes, first7Bytes):
// schemeStart's and lowerSchemeStart's (parts_simd_amd64.go) compares.
const (
	httpsWord   = 'h' | 't'<<8 | 't'<<16 | 'p'<<24 | 's'<<32 | ':'<<40 | '/'<<48 | '/'<<56
	httpWord    = 'h' | 't'<<8 | 't'<<16 | 'p'<<24 | ':'<<32 | '/'<<40 | '/'<<48
	first7Bytes = 1<<56 - 1
)

// schemeStart returns the index of the host of s when s starts with
// "http://" or "https://" in any case (and whether a letter of the scheme
// is uppercase), or -1.
func schemeStart(s string) (start int, folded bool) {
	if len(s) < 8 {
		return -1, false // too short for a scheme, a host and a path
	}
	// The scheme in one word: b|0x20 is a lowercase letter l exactly when
	// b is l or its uppercase form.
	const (
		fold5 = 0x2020202020 // the letters of "https"
		fold4 = 0x20202020
	)
	// The word read in place (len(s) >= 8): []byte(s[:8]) cost a branch
	// for an empty string's pointer.
	switch w := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Pointer(unsafe.StringData(s)))[:]); {
	case w|fold5 == httpsWord:
		return 8, w != httpsWord
	case w&first7Bytes|fold4 == httpWord:
		return 7, w&first7Bytes != httpWord
	}
	return -1, false
}

// afterHost ends scanAuthority: the host is s[start:i] (vHost's bytes),
// lower says whether the scheme or the host has an uppercase letter. It
// returns hostTail for an empty host, a host that ends in a byte of
// numberEnd (6 % of web's) and a port, for which the caller calls
// endAuthority: with no call of its own it is inline (its call cost 37
// instructions per URL of web; url_query 379 → 368).
func afterHost(s string, start, i int, lower bool, v *verbatimURL) int {
	if i == start || numberEnd[s[i-1]] || i < len(s) && s[i] == ':' {
		return hostTail
	}
	v.setHost(start, i, lower)
	return i
}

// hostTail is afterHost's answer when endAuthority must decide.
const hostTail = -2

// setHost fills v's scheme, host and port: the host is s[start:i] of an
// http or https URL s, without a port.
func (v *verbatimURL) setHost(start, i int, lower bool) {
	v.schemeEnd, v.hostStart, v.hostEnd = start-3, start, i
	v.lower, v.cut, v.port = lower, 0, -1
}

// endAuthority ends scanAuthority as afterHost does, for any host.
func endAuthority(s string, start, i int, lower bool, v *verbatimURL) int {
	// The last label is not a number (an IPv4 address, or an error). Most
	// hosts end in a letter past 'f' other than 'x' ("com"), which no
	// number does: no call (numberEnd, endsInNumber's quick answer).
	if i == start || numberEnd[s[i-1]] && endsInNumber(s[start:i], true) {
		return -1 // an empty host, or a number
	}
	v.setHost(start, i, lower)
	if i < len(s) && s[i] == ':' {
		return verbatimPort(s, i+1, v)
	}
	return i
}

// numberEnd marks the bytes that end a host whose last label may be a
// number: digits, hex letters, 'x' and 'X' ("0x"), and '.' (endsInNumber
// reads the label before a trailing dot). endsInNumber answers false for
// the others: most hosts ("com").
var numberEnd = func() (t [256]bool) {
	for c := range 256 {
		b := byte(c) | 0x20
		t[c] = isDigit(byte(c)) || b >= 'a' && b <= 'f' || b == 'x' || c == '.'
	}
	return t
}()

// verbatimPort reads the port digits from s[i:] into v and returns the
// index after them, or -1 unless the serializer writes them as they are:
// 1 to 5 digits without a leading zero ("0" itself is fine), at most
// 65535; or, exactly "80" for http or "443" for https, leaves them out
// (the scheme's default port is null: v.cut).
func verbatimPort(s string, i int, v *verbatimURL) int {
	j, p := i, int32(0)
	for j < len(s) && j-i < 6 && isDigit(s[j]) {
		p = p*10 + int32(s[j]-'0')
		j++
	}
	switch {
	case j == i, j-i > 5, s[i] == '0' && j-i > 1, p > 65535:
		return -1
	case p == 80 && v.schemeEnd == 4, p == 443 && v.schemeEnd == 5:
		v.cut = j - (i - 1) // ':' and the digits
		return j
	}
	v.port = p
	return j
}

// vPathWord classifies path bytes for verbatimPath's word loop: wStop
// for the bytes that end the path or that the parser changes (pathFast:
// pfEnd, pfSlow), wNote for '%' and ';' (the path is not plain), wSlash
// for '/', wAfter for what makes the segment after a '/' need a look: '.'
// and '%' (a dot segment?), '/' (an empty segment). wAfter is wSlash's
// bit shifted left by one, so that a shift of 9 lines a '/' up with the
// next byte.
var vPathWord [256]uint8

const (
	wStop = 1 << iota
	wSlash
	wAfter
	wNote
)

func init() {
	for c := 0; c < 256; c++ {
		switch pathFast[c] {
		case pfSlow, pfEnd:
			vPathWord[c] = wStop
		case pfNote:
			vPathWord[c] = wNote
		}
	}
	vPathWord['/'] = wSlash | wAfter
	vPathWord['.'] = wAfter
	vPathWord['%'] |= wAfter
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

// verbatimState scans input (or takes the scan Normalizer.verbatimCanon
// made of it: pre) into p.pre and says how much of it is verbatim: all of
// it (preYes: setVerbatim fills the URL, as the general parser would;
// TestVerbatimMatchesParser), its scheme and authority only (preAuth: a dot
// segment, a byte to encode … after them; verbatimAuthority), or not even
// those (preNo: the general parser starts from the beginning).
func (p *parser) verbatimState(input string, pre uint8) uint8 {
	if pre != preNone && input == p.preInput {
		return pre
	}
	switch {
	case scanVerbatim(input, &p.pre):
		return preYes
	case p.pre.auth:
		return preAuth
	}
	return preNo
}

// verbatimAuthority fills p.u's scheme and authority from input, which
// scanVerbatim read up to v.authEnd (v.auth), and parses the rest from the
// path start state. input starts with a letter and its scheme and
// authority have no tab, newline or space, so trimming the rest (trailing
// C0 control or space, tab and newline anywhere) is trimming input.
func (p *parser) verbatimAuthority(input string, v *verbatimURL) *Kind {
	p.setAuthority(input, v)
	return p.pathStart(p.trim(input[v.authEnd:]))
}

// setAuthority fills p.u's scheme and authority from input, which
// scanVerbatim read up to v.authEnd (v.auth): the buffer ends with the
// authority, where the path starts.
func (p *parser) setAuthority(input string, v *verbatimURL) {
	u := p.u
	d := v.cut // offsets after the host move back by the default port's length
	if d == 0 {
		u.buf = append(u.buf[:0], input[:v.authEnd]...) // one copy: most URLs have no default port
	} else {
		u.buf = append(u.buf[:0], input[:v.hostEnd]...)
		u.buf = append(u.buf, input[v.hostEnd+d:v.authEnd]...)
	}
	if v.lower {
		lowerASCII(u.buf[:v.hostEnd]) // scheme, "://" and host: ASCII (scanAuthority)
	}
	u.setAuthority(v)
}

// setVerbatim fills p.u from input, which scanVerbatim accepted into v.
func (p *parser) setVerbatim(input string, v *verbatimURL) {
	p.setAuthority(input, v)
	u := p.u
	d := v.cut
	u.buf = append(u.buf, input[v.authEnd:]...)
	u.pathEnd = v.pathEnd - d
	u.queryStart, u.fragStart = v.queryStart, v.fragStart
	if d > 0 {
		if u.queryStart >= 0 {
			u.queryStart -= d
		}
		if u.fragStart >= 0 {
			u.fragStart -= d
		}
	}
	u.plainPath = v.plainPath
}

// compileVerbatim decides whether Normalizer.verbatimCanon may answer for the
// profile: every rule is one verbatimCanon tests per URL, or has nothing to
// do on a verbatim URL (userinfo.remove: it has none; scheme.assume: it
// starts with a scheme). The test is a list of what is allowed, so that a
// rule added later turns the shortcut off until verbatimCanon learns it.
func (n *Normalizer) compileVerbatim(p *Profile) error {
	q := *p
	q.Name, q.Version, q.Description, q.Source, q.Notes, q.Hash = "", "", "", "", nil, ""
	q.Scheme = SchemeRules{}
	q.Host = HostRules{}
	q.Userinfo = UserinfoRules{}
	q.Port = PortRules{}
	q.Path.TrailingSlash, q.Path.EmptyPathSlash, q.Path.RemoveLoneRoot = "", false, false
	q.Path.CollapseSlashes, q.Path.KeepSchemeSlashes, q.Path.RemoveParams, q.Path.RemoveCookieless = false, false, nil, nil
	q.Percent = PercentRules{}                // a '%' anywhere: verbatimCanon leaves the URL to the rules (pctAny)
	q.Query, q.Pagination = QueryRules{}, nil // verbatimCanon: no rule on the query, or queryKept (compileQueryKept)
	q.Fragment = FragmentRules{}
	q.Hosts, q.Language = nil, nil // verbatimCanon: the host has no per-host rule or language
	q.Limits = Limits{}
	n.same = reflect.DeepEqual(q, Profile{})
	id := *p
	id.Name, id.Version, id.Description, id.Source, id.Notes, id.Hash, id.Limits = "", "", "", "", nil, "", Limits{}
	n.identity = n.same && reflect.DeepEqual(id, Profile{})
	for i, scheme := range []string{"http", "https"} {
		n.vSchemes[i].to, _ = n.upgraded(scheme)
		n.vSchemes[i].refused = len(n.allowed) > 0 && !slices.Contains(n.allowed, scheme)
	}
	n.compileQueryKept(p)
	n.compileKeyFilter()
	n.compileHostEnds()
	return nil
}

// compileQueryKept decides whether verbatimCanon may ask queryKept about a
// query that the rules split into parameters, and which bytes queryKept
// takes. Like compileVerbatim, the test is a list of the query rules
// queryKept knows.
func (n *Normalizer) compileQueryKept(p *Profile) {
	r := p.Query
	r.Order, r.DropEmpty, r.DropEmptyPairs, r.BareEmptyValue, r.ExplicitEmptyValue = "", false, false, false, false
	r.FormEncoding, r.FormRaw, r.FormSpace, r.SortDecoded, r.Lowercase, r.Keep = false, "", "", false, false, nil
	// query.remove and pagination: queryKept asks them about each key
	// (removal), and a key they remove sends the URL to the general path,
	// which asks again. On web that costs less than it saves (clara,
	// curiousnow-v0, edge-gateway, crawler-commons, normalize-url −36 to
	// −76 instructions/URL), on web_dirty, where tracking parameters are
	// common, it costs more (+16 to +171). A group with the pattern "*"
	// (safebrowsing: the query goes) removes every key: the test would fail
	// on the first key of every query, so it is not made.
	r.Remove = nil
	n.queryAsIs = n.same && reflect.DeepEqual(r, QueryRules{}) && !removesEvery(p.Query.Remove)
	// A group "*" removes every parameter, and drop_empty the empty query
	// that is left (safebrowsing: the query goes), unless query.keep,
	// pagination or a host's rules keep one: verbatimCanon cuts the query
	// as it cuts a fragment, where every URL with a query took the general
	// path (48 % of web_dirty's rows for safebrowsing).
	n.queryGone = n.same && removesEvery(p.Query.Remove) && p.Query.DropEmpty && len(p.Query.Keep) == 0 &&
		p.Pagination == nil && len(p.Hosts) == 0
	// The bytes the query rules keep as they are, in a query that the
	// verbatim scan took: '&' and '=', which delimit; no '%'; under
	// query.form_encoding those it writes raw, and '+' when it writes a
	// space '+' and sort_decoded does not read it as a space.
	q := &p.Query
	plus := !q.FormEncoding || n.k.form.space == "+" && !q.SortDecoded
	n.formEq = q.FormEncoding && !n.k.form.value['=']
	n.keylessQ = n.keyless()
	// The bytes form encoding and query.lowercase write as they are
	// (appendQuery's direct split): under form encoding '&' and '=', which
	// delimit, the raw bytes, and '+' (a space) when a space is written
	// '+'; under lowercase no uppercase letter.
	n.directScan = q.FormEncoding || q.Lowercase
	for c := range n.directTab {
		b := byte(c)
		form := !q.FormEncoding || b == '&' || b == '=' || b == '+' && n.k.form.space == "+" || n.k.form.value[c]
		if form && !(q.Lowercase && b >= 'A' && b <= 'Z') {
			n.directTab[c] = vOK
		}
	}
	for c := range n.queryTab {
		switch b := byte(c); {
		case b == '%', q.Lowercase && b >= 'A' && b <= 'Z':
		case b == '&' || b == '=' || b == '+' && plus || !q.FormEncoding && vQuery[c] == vOK || q.FormEncoding && n.k.form.value[c]:
			n.queryTab[c] = vOK
		}
	}
	n.querySet = makeNibbleSet(func(c byte) bool { return n.queryTab[c] == vOK })
	n.directSet = makeNibbleSet(func(c byte) bool { return n.directTab[c] == vOK })
}

// removesEvery reports whether one of groups has the pattern "*", which
// matches every key.
func removesEvery(groups []ParamGroup) bool {
	for _, g := range groups {
		if slices.Contains(g.Patterns, "*") {
			return true
		}
	}
	return false
}

// canon is the canonical form of a verbatim URL s as pieces of s:
// scheme (s's, or the one scheme.upgrade gives) + s[schemeEnd:a] +
// s[b:slash] + s[rest:end], where s[a:b] is a www label or a port that a
// rule removes (a == b when none), s[slash:rest] the trailing slashes
// that a rule removes before a query or a fragment, or the port when
// s[a:b] is a www label (slash == rest when none), and s[end:] the
// trailing slash, fragment … that rules remove; the bytes of the output
// before lowerTo are lowercased (the scheme and the
// host of an input that has them in uppercase). When sort is set, the
// query s[rest+1:q1] (s[rest] is its '?') is written with its parameters
// in the profile's order, without those the rules remove (removed:
// sort.appendKept).
type canon struct {
	scheme string
	end    int
	// The offsets in 32 bits (a verbatim URL is at most limits.max_length,
	// maxLimitLength), so that canon, which verbatimCanon returns for
	// every URL, is small: 72 bytes with removed (its 8 bytes measured
	// within 2 instructions per URL of default's web_dirty).
	schemeEnd, a, b, slash, rest, q1 int32
	lowerTo                          int32
	same                             bool // the output is s[:end]
	upgrade                          bool // scheme is not s's (scheme.upgrade): else s[:schemeEnd] is written, lowercased with the host (lowerTo)
	sort                             *Normalizer
	removed                          uint64     // the query's parameters that sort.appendKept leaves out (bit i: parameter i)
	kept                             keptPieces // the query's pieces in order, when queryKept sorted them
}

// size is the length of the canonical form.
func (c *canon) size() int {
	return len(c.scheme) + int(c.a-c.schemeEnd) + c.end - int(c.b) - int(c.rest-c.slash)
}

// string returns the canonical form: s itself or a prefix of it when
// nothing else changes (no allocation; the result shares s's memory, as
// s itself would), else one allocation.
func (c *canon) string(s string) string {
	if c.same {
		return s[:c.end]
	}
	b := c.append(make([]byte, 0, c.size()), s)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// append appends the canonical form to dst in as few copies as its cuts
// allow: s's own scheme is written with what follows it (lowercased
// below), and s[schemeEnd:a] only when a cut follows it, so that a URL
// that changes only in case or at its end (the SQL rows: an uppercase
// host, a fragment) is one copy.
func (c *canon) append(dst []byte, s string) []byte {
	start, from := len(dst), int32(0) // s[from:] is written next
	if c.upgrade {
		dst = append(dst, c.scheme...)
		from = c.schemeEnd
	}
	if c.a != c.b {
		if c.a <= 8 && from == 0 {
			// s[:a] is "http://" or "https://" (a www label follows):
			// one word of s's first 8 bytes, then cut to a, where a
			// copy is a call to memmove (normalize-url, web: 18
			// instructions per URL).
			dst = binary.LittleEndian.AppendUint64(dst, le64(s))[:start+int(c.a)]
		} else {
			dst = append(dst, s[from:c.a]...)
		}
		from = c.b
	}
	switch {
	case c.sort != nil:
		dst = append(dst, s[from:c.slash]...)
		dst = c.sort.appendKept(dst, s[c.rest+1:c.q1], c.removed, &c.kept)
		dst = append(dst, s[c.q1:c.end]...)
	case c.slash != c.rest:
		dst = append(dst, s[from:c.slash]...)
		dst = append(dst, s[c.rest:c.end]...)
	default:
		dst = append(dst, s[from:c.end]...)
	}
	if c.lowerTo > 0 { // a call less for most URLs
		lowerASCII(dst[start : start+int(c.lowerTo)]) // the scheme and the host: ASCII (scanAuthority)
	}
	return dst
}

// verbatimCanon returns the canonical form of s without parsing it into
// a URL, when s is verbatim (scanVerbatim, which fills v; an uppercase
// scheme or host is lowercased) and the profile's rules do at most what
// canon can say: upgrade the scheme, drop a www label, the port or both,
// trailing slashes (before a query or a fragment too), the fragment, and
// sort a query whose parameters are written as they are. ok is false when
// a rule may do more (the general code decides; c is then only partly
// filled) or s is not verbatim (vOK false).
func (n *Normalizer) verbatimCanon(s string, v *verbatimURL) (c canon, ok, vOK bool) {
	ok, vOK = n.canonInto(&c, s, v)
	return c, ok, vOK
}

// canonInto is verbatimCanon writing into c, which is zero: Normalize and
// AppendNormalized keep c on their stack and pass it, the copy of a
// 72-byte result less (verbatimCanon inlines into its callers as this
// call).
func (n *Normalizer) canonInto(c *canon, s string, v *verbatimURL) (ok, vOK bool) {
	if !n.same || len(s) > n.maxLen || !scanVerbatim(s, v) {
		return false, false
	}
	if n.identity && !v.lower && v.cut == 0 && (v.queryStart < 0 || len(s)-v.queryStart < n.maxParams) {
		// No rule at all (whatwg): only limits.max_params could refuse it.
		c.end, c.same = len(s), true
		return true, true
	}
	scheme := "https"[:v.schemeEnd] // lowercase
	c.scheme, c.schemeEnd = scheme, int32(v.schemeEnd)
	vs := &n.vSchemes[v.schemeEnd-4]
	// A '%' for the percent rules (the test inline, the search in a call).
	if vs.refused || n.pctAny && (!v.plainPath || v.queryStart >= 0 && !n.needParams || v.fragStart >= 0 && !n.fragment) && n.pctKept(s, v) {
		return false, true
	}
	sameScheme := true
	if vs.to != "" {
		if v.port >= 0 || specialPort(vs.to) < 0 {
			return false, true // the port could be to's default (asParsed)
		}
		c.scheme, sameScheme = vs.to, vs.to == scheme
		c.upgrade = !sameScheme
	}
	c.a, c.b = int32(v.hostStart), int32(v.hostStart)
	if n.host.StripTrailingDot && s[v.hostEnd-1] == '.' {
		return false, true
	}
	// host.require_dot (edge-gateway): the 8 bytes that end the host, read
	// as one word, have a dot in most hosts (a top-level label of up to 6
	// letters and its dot); the search, and "localhost", only when they
	// have none. The word starts before the host in a host of fewer than 8
	// bytes: s[:hostStart] is "http://" or "https://", without a dot, and
	// hostEnd ≥ 8. Inline, where hostChanges' call and hasDot's, and
	// stripWWW's call that returned at once, cost edge-gateway 96
	// instructions per URL of web (issue 18).
	if n.host.RequireDot && dotBytes(le64(s[v.hostEnd-8:v.hostEnd])) == 0 && noDot(s[v.hostStart:v.hostEnd]) {
		return false, true
	}
	// A call less for default, whatwg, edge-gateway … (no www to strip, no
	// host lookups). For clara and the other profiles with host lookups,
	// hostEnds read in place, on the host in any case: most hosts are in
	// no host map, and for clara (maps, no www to strip) the slice of the
	// host and the cut's sum cost 12 instructions per URL of web.
	if n.k.www != wwwKeep || n.hostEnds.any && n.hostEnds.mayAt(s, v.hostStart, v.hostEnd) {
		cut, ok := n.hostCut(s[v.hostStart:v.hostEnd], v.lower)
		if !ok {
			return false, true
		}
		c.b += int32(cut) // the www label and its dot
	}
	if v.lower {
		c.lowerTo = int32(len(c.scheme)+v.hostEnd-v.schemeEnd) - (c.b - c.a)
	}
	if v.cut > 0 || v.port >= 0 && n.portChanges(scheme, int(v.port)) {
		if c.a == c.b {
			c.a, c.b = int32(v.hostEnd), int32(v.authEnd)
		} else {
			// The www label is cut: the port is cut as s[slash:rest]
			// (rest is authEnd), which the trailing slashes before a
			// query or a fragment and a reordered query then cannot
			// take (2 % of web_dirty's rows have a www label and the
			// scheme's default port, normalize-url's general path).
			c.slash, c.rest = int32(v.hostEnd), int32(v.authEnd)
		}
	}
	if (!v.plainPath || len(n.k.cookieless) > 0) && n.pathChanges(s[v.authEnd:v.pathEnd], v.plainPath) {
		return false, true
	}
	// What follows the path in the output: the query as it is (no rule
	// may touch it, or queryKept says the rules leave it), the fragment as
	// it is or nothing.
	c.end = v.pathEnd
	q := "" // a query the rules split, which queryKept reads last (the dearest test)
	if v.queryStart >= 0 {
		q = v.query(s)
		switch {
		case n.queryGone && len(q) < n.maxParams && (v.fragStart < 0 || n.fragment):
			q = "" // cut with the fragment: c.end stays at the path's end (limits.max_params still refuses a long one)
		case q == "" && n.query.DropEmpty || len(q) >= n.maxParams || n.needParams && !n.queryAsIs:
			return false, true
		default:
			c.end = v.queryStart + len(q)
			if !n.needParams {
				q = ""
			}
		}
	}
	if v.fragStart >= 0 {
		switch {
		case n.fragment: // removed: no rule reads it
		case n.k.fragAny && (n.pct.DecodeRepeatedly || v.fragStart == len(s) || strings.Contains(s[v.fragStart:], ":~:")):
			// The rules may change it; fragment.strip_text_directive alone
			// changes only a fragment that is empty or has ":~:".
			return false, true
		default:
			c.end = len(s)
		}
	}
	end := v.pathEnd
	switch n.slash {
	case slashRemove:
		for end > v.authEnd && s[end-1] == '/' {
			end--
		}
	case slashRemoveExceptRoot:
		for end > v.authEnd+1 && s[end-1] == '/' {
			end--
		}
	}
	if end == v.authEnd && n.emptyDir {
		end++ // the root's slash, which s has
	}
	switch {
	case end == v.pathEnd:
	case c.end == v.pathEnd:
		c.end = end // nothing follows the slash
	case c.slash != c.rest:
		return false, true // the port's cut holds s[slash:rest]
	default:
		c.slash, c.rest = int32(end), int32(v.pathEnd) // a query or a fragment follows the slash
	}
	if n.k.loneRoot && c.end == v.authEnd+1 {
		c.end = v.authEnd // path.remove_lone_root: nothing follows the root
	}
	if !sameScheme && c.size() > n.maxLen {
		return false, true // an upgrade made it longer than limits.max_length (finishURL); the other rules only cut
	}
	if q != "" {
		ok, rewrite, removed := n.queryKept(q, &c.kept)
		if !ok || removed != 0 && n.k.loneRoot && end <= v.authEnd+1 {
			return false, true // or remove_lone_root, which reads what follows the root, and the query may go
		}
		if rewrite {
			if c.rest == int32(v.authEnd) {
				return false, true // the port's cut holds s[slash:rest], where sort wants the query's '?'
			}
			c.sort, c.q1, c.removed = n, int32(v.queryStart+len(q)), removed
			if c.slash == c.rest {
				c.slash, c.rest = int32(v.pathEnd), int32(v.pathEnd)
			}
		}
	}
	c.same = c.lowerTo == 0 && c.a == c.b && sameScheme && c.slash == c.rest && c.sort == nil
	return true, true
}

// query returns the query of the verbatim URL s without '?' (v.queryStart
// ≥ 0): up to the '#' of a fragment, or to the end.
func (v *verbatimURL) query(s string) string {
	if v.fragStart >= 0 {
		return s[v.queryStart : v.fragStart-1]
	}
	return s[v.queryStart:]
}

// pathChanges reports whether a path rule may change the verbatim path
// (plain: v.plainPath), where canon cannot say it.
func (n *Normalizer) pathChanges(path string, plain bool) bool {
	return !plain && (n.collapse && strings.Contains(path, "//") || len(n.pathGroups) > 0 && strings.IndexByte(path, ';') >= 0) ||
		len(n.k.cookieless) > 0 && strings.IndexByte(path, '(') >= 0
}

// pctKept reports whether the verbatim URL s has a '%' that verbatimCanon
// must leave to the percent rules: in the path, the query or the fragment,
// unless a later test reads that part anyway or it does not reach the
// output. A plain path has none (verbatimPath found no '%': v.plainPath); a
// query the rules split goes to queryKept, whose byte test (queryTab)
// refuses a '%'; a fragment that fragment.remove drops is not written
// (and under percent.decode_repeatedly, fragAny, any fragment takes the
// general path). So default, which sorts the query and drops the
// fragment, searches nothing on most URLs; a search is one more pass over
// bytes the scans have read.
func (n *Normalizer) pctKept(s string, v *verbatimURL) bool {
	if !v.plainPath && strings.IndexByte(s[v.authEnd:v.pathEnd], '%') >= 0 {
		return true
	}
	if v.queryStart >= 0 && !n.needParams && strings.IndexByte(v.query(s), '%') >= 0 {
		return true
	}
	return v.fragStart >= 0 && !n.fragment && strings.IndexByte(s[v.fragStart:], '%') >= 0
}

// portChanges reports whether a rule removes the port of a verbatim URL
// (never its scheme's default: the serializer writes none).
func (n *Normalizer) portChanges(scheme string, port int) bool {
	if n.k.noPorts {
		return true
	}
	d, ok := n.defaults[scheme]
	return ok && d == port
}

// hostCut is canonInto's host step for the profiles that strip www or
// look hosts up: the length of the www label and its dot that
// host.strip_www removes from h (wwwCut), and ok false when a host rule
// may change what remains (hostChanges). Its own function, not inlined:
// in canonInto, this code made the DuckDB extension's normalize_url row
// (default, which never runs it) about 10 % slower at the same
// instructions per row (150 → 163–169 ns, sqlbench, one thread; 150
// again out of line), by how the compiler laid out canonInto's registers
// and blocks around it; the call costs the profiles that run it a few
// instructions.
//
//go:noinline
func (n *Normalizer) hostCut(h string, lower bool) (cut int, ok bool) {
	if n.k.www != wwwKeep && h[0]|0x20 == 'w' { // wwwLabel's first test, inline: 4 hosts in 10 of web have no www label
		cut = n.wwwCutVerbatim(h, lower)
	}
	if n.hostLookups() && n.hostChanges(h[cut:], lower) {
		return 0, false
	}
	return cut, true
}

// hostLookups reports whether the profile looks hosts up: host.map,
// per-host rules, languages.
func (n *Normalizer) hostLookups() bool { return n.hostKeyLens() != 0 }

// hostKeyLens is the union of the length filters of those lookups' keys.
func (n *Normalizer) hostKeyLens() uint64 { return n.hostTo.lens | n.hosts.lens | n.lang.lens }

// hostChanges reports whether a rule may change or refuse the verbatim
// host h (letters, digits, '-', '.', '_': within every charset), once
// host.strip_www is applied, where canon cannot say it (a trailing dot
// that host.strip_trailing_dot removes, a host without a dot that
// host.require_dot refuses: verbatimCanon), for a profile that looks
// hosts up (hostLookups; verbatimCanon asks no other, which spares
// normalize-url the call: 30 instructions per URL of web). A host with
// uppercase letters (upper) is looked up lowercased, in a copy
// (hostChangesUpper; host.strip_www reads it in any case: wwwCut).
func (n *Normalizer) hostChanges(h string, upper bool) bool {
	if upper {
		return n.hostChangesUpper(h)
	}
	if !n.hostKeys.may(h) { // the three maps' keys together: most hosts are in none
		return false
	}
	_, mapped := n.hostTo.get(h)
	_, rule := n.hosts.get(h)
	_, lang := n.lang.get(h)
	return mapped || rule || lang
}

// noDot reports whether the host h has no dot and is not "localhost", in
// any case: host.require_dot refuses it (the general path, on the
// lowercased host, after host.strip_www, which leaves a host with a dot
// or none as it found it: what it strips leaves two labels or more,
// stripWWW).
func noDot(h string) bool {
	return strings.IndexByte(h, '.') < 0 && !equalFold(h, "localhost")
}

// preFrom hands the parser the verbatim scan of raw that verbatimCanon made
// (scanned: it ran; ok: raw is verbatim, v its offsets; v.auth: its scheme
// and authority are), so that parse does not scan raw again.
func (p *parser) preFrom(raw string, v *verbatimURL, ok, scanned bool) {
	switch {
	case ok:
		p.pre, p.preState, p.preInput = *v, preYes, raw
	case scanned && v.auth:
		p.pre, p.preState, p.preInput = *v, preAuth, raw
	case scanned:
		p.preState, p.preInput = preNo, raw
	default:
		p.preState = preNone
	}
}
