package normalize

import (
	"iter"
	"math"
	"math/bits"
	"strings"
	"unsafe"
)

// The parts of a URL that analysts group by beyond the components the
// parser records (url.go): the registrable domain and its neighbours, the
// file extension, the path segments and the query's name=value pairs as
// forms decode them. Each is read from the serialization on demand; none
// is stored in URL.

// Extension returns the file extension of the last path segment without
// the dot ("gz" of "/a/b.tar.gz"), as serialized (percent-encoded, case
// kept). It is "" when the URL has an opaque path, when the last segment
// has no dot or only a leading one ("/.htaccess": a hidden file, not an
// extension), or nothing after its last dot. Path parameters are not part
// of it: "/a.jsp;jsessionid=1" has "jsp" (RFC 3986 §3.3: ';' delimits a
// segment's parameters).
//
// One call, inline: to the SIMD build's scan or the bytes' (extension,
// parts_simd_amd64.go, parts_nosimd.go), which take the opaque path
// (the opaque test and two calls in Extension cost 17 instructions per
// URL of web).
func (u *URL) Extension() string { return u.extension() }

// extensionOf is Extension of a path that is a list (plain: it has no
// ';'), by bytes: the portable build's, and the reference that the SIMD
// build's scan (extension) is tested against.
func extensionOf(path string, plain bool) string {
	seg := path[lastIndexByte(path, '/')+1:]
	if !plain {
		if i := strings.IndexByte(seg, ';'); i >= 0 {
			seg = seg[:i]
		}
	}
	i := lastIndexByte(seg, '.')
	j := 0
	for j < i && seg[j] == '.' {
		j++
	}
	if j >= i { // no dot (i = -1), or only dots before the last one
		return ""
	}
	return seg[i+1:]
}

// lastIndexByte is strings.LastIndexByte eight bytes a step (Go's is a
// loop over bytes: the part functions read the last path segment with it).
func lastIndexByte(s string, c byte) int {
	i := len(s)
	for ; i >= 8; i -= 8 {
		if m := eqBytes(le64(s[i-8:i]), c); m != 0 {
			return i - 8 + (63-bits.LeadingZeros64(m))>>3
		}
	}
	for i--; i >= 0 && s[i] != c; i-- {
	}
	return i
}

// PathSegments returns the URL Standard's path list: the segments between
// the slashes, as serialized ("/a/b/" has "a", "b" and ""; "/" has one
// empty segment; an empty path none), so that joining them with "/" after
// a "/" gives the path back. ok is false for an opaque path ("mailto:x"),
// which is not a list.
func (u *URL) PathSegments() (segs []string, ok bool) {
	if u.opaque {
		return nil, false
	}
	return u.AppendPathSegments(make([]string, 0, strings.Count(u.Path(), "/")))
}

// AppendPathSegments appends the segments PathSegments returns to dst, so
// that a caller that reads the list of one URL after another can reuse one
// slice. The strings share u's memory, as PathSegments'. ok is false for
// an opaque path, and dst is returned unchanged.
func (u *URL) AppendPathSegments(dst []string) (segs []string, ok bool) {
	for s := range u.AllPathSegments() {
		dst = append(dst, s)
	}
	return dst, !u.opaque
}

// AllPathSegments yields the segments PathSegments returns, in order,
// without a list: what a caller that writes each one on (the SQL function
// url_path_segments, per row) needs. It yields none for an opaque path
// (see OpaquePath) or an empty one.
func (u *URL) AllPathSegments() iter.Seq[string] {
	return func(yield func(string) bool) {
		p := u.Path()
		if u.opaque || p == "" {
			return
		}
		if simdScans {
			// The slashes after the first, 32 bytes of the path a step: one
			// mask, then a segment per bit, where strings.IndexByte cost a
			// call and its setup per segment (20 instructions per URL of
			// web). Without AVX2 the calls cost less than a mask of eight
			// bytes a step (+60).
			start := 1
			for off := 1; off < len(p); off += 32 {
				// The mask of p[off:off+32]: when that is the path's last
				// 32 bytes or fewer and the URL's buffer has 32 bytes up
				// to the path's end (most URLs), those 32 bytes read in
				// place (slashesAt, inline) and shifted, the shift count
				// masked (one instruction), where slashes' load of a
				// short string takes a branch on its length that the
				// paths of the web take either way (mispredicted) and
				// u.str's test, slashes' call and frame cost 62
				// instructions per URL of web. Here rather than in a
				// method of its own (pathSlashes, not inlined: 25 more
				// per URL of web, 523 against 548).
				var m uint32
				if n := len(p) - off; n <= 32 && u.pathEnd >= 32 {
					m = uint32(uint64(slashesAt(u.buf, u.pathEnd-32)) >> (uint(32-n) & 63))
				} else {
					m = slashes(p[off:])
				}
				for ; m != 0; m &= m - 1 {
					end := off + bits.TrailingZeros32(m)
					if !yield(p[start:end]) {
						return
					}
					start = end + 1
				}
			}
			yield(p[start:])
			return
		}
		for p = p[1:]; ; p = p[1:] {
			i := strings.IndexByte(p, '/')
			if i < 0 {
				yield(p)
				return
			}
			if !yield(p[:i]) {
				return
			}
			p = p[i:]
		}
	}
}

// QueryParam is one name=value pair of a query, decoded as HTML forms and
// URLSearchParams decode it.
type QueryParam struct {
	Name, Value string
}

// QueryParams returns the query's name=value pairs in order, decoded with
// the URL Standard's application/x-www-form-urlencoded parser (what
// URLSearchParams gives): pairs split at '&', empty ones skipped, name and
// value split at the first '=' (none: the value is ""), '+' read as a space,
// percent-escapes decoded, bytes that are not UTF-8 replaced by U+FFFD. It
// is nil when the URL has no query.
func (u *URL) QueryParams() []QueryParam {
	q, ok := u.Query()
	if !ok {
		return nil
	}
	out := []QueryParam{} // an empty query has no pairs but is not null
	var buf []byte
	for name, value := range rawPairs(q) {
		var p QueryParam
		p.Name, buf = formDecode(buf, name)
		p.Value, buf = formDecode(buf, value)
		out = append(out, p)
	}
	return out
}

// QueryParam returns the value of the first pair named name, decoded as
// QueryParams decodes it; ok is false when no pair has that name (the names
// compared are the decoded ones: "a%20b" and "a+b" are both "a b").
//
// Only a key that can decode to name is decoded: a key without '+' and
// '%' is itself decoded, and a key shorter than name cannot decode to it
// (a serialized query is ASCII: an escape of three bytes decodes to one
// byte, or to a U+FFFD of three, '+' to a space). Only the matching
// pair's value is decoded. A loop without rawPairs' iterator, and a URL
// without a query (most of web's) costs a test, inline.
func (u *URL) QueryParam(name string) (value string, ok bool) {
	if u.queryStart < 0 {
		return "", false
	}
	return u.queryParam(name)
}

// queryParam is QueryParam for a URL with a query.
func (u *URL) queryParam(name string) (value string, ok bool) {
	q, _ := u.Query()
	var buf []byte
	for q != "" {
		var pair string
		pair, q, _ = strings.Cut(q, "&")
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		switch {
		case len(k) < len(name):
			continue
		case !hasFormEscape(k): // k is its own decoding
			if k != name {
				continue
			}
		default:
			var dk string
			if dk, buf = formDecode(buf, k); dk != name {
				continue
			}
		}
		value, _ = formDecode(nil, v)
		return value, true
	}
	return "", false
}

// hasFormEscape reports whether s has a '+' or a '%' (needsFormDecode)
// in a loop over its bytes: query keys are short, and two
// strings.IndexByte calls cost their setups each.
func hasFormEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '+' || s[i] == '%' {
			return true
		}
	}
	return false
}

// queryParamRef is QueryParam by rawPairs and decoding every key: the
// reference that the tests hold QueryParam to.
func (u *URL) queryParamRef(name string) (value string, ok bool) {
	q, _ := u.Query()
	var buf []byte
	for k, v := range rawPairs(q) {
		dk := k
		if needsFormDecode(k) {
			dk, buf = formDecode(buf, k)
		}
		if dk == name {
			value, _ = formDecode(nil, v)
			return value, true
		}
	}
	return "", false
}

// rawPairs yields the name and value of each non-empty '&'-separated pair
// of q, split at the first '=', undecoded.
func rawPairs(q string) iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for q != "" {
			var pair string
			pair, q, _ = strings.Cut(q, "&")
			if pair == "" {
				continue
			}
			if k, v, _ := strings.Cut(pair, "="); !yield(k, v) {
				return
			}
		}
	}
}

// needsFormDecode reports whether s has a '+' or a '%': without them the
// form decoding of a serialized (ASCII) query is s itself.
func needsFormDecode(s string) bool {
	return strings.IndexByte(s, '+') >= 0 || strings.IndexByte(s, '%') >= 0
}

// formDecode decodes s as the urlencoded parser decodes a name or a value,
// using buf (returned for reuse) as scratch space; the result is s itself
// when there is nothing to decode (a serialized query is ASCII), else a
// new string.
func formDecode(buf []byte, s string) (string, []byte) {
	if !needsFormDecode(s) {
		return s, buf
	}
	buf = buf[:0]
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '+':
			buf = append(buf, ' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			buf = append(buf, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			buf = append(buf, c)
		}
	}
	return toValidUTF8(buf), buf
}

// toValidUTF8 returns b as a string with each maximal ill-formed subpart
// replaced by U+FFFD, as the Encoding Standard's UTF-8 decoder does (a
// truncated "\xE2\x82" is one U+FFFD, not two; strings.ToValidUTF8 would
// merge a whole run into one and utf8.DecodeRune splits it into bytes).
func toValidUTF8(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); {
		n, ok := utf8Prefix(b[i:])
		if ok {
			sb.Write(b[i : i+n])
		} else {
			sb.WriteString("\uFFFD")
		}
		i += n
	}
	return sb.String()
}

// utf8Prefix returns the length of the UTF-8 sequence at the start of b and
// whether it is complete; when it is not, n is the maximal subpart (at
// least 1 byte), per the Unicode Standard's table of well-formed
// sequences (Table 3-7).
func utf8Prefix(b []byte) (n int, ok bool) {
	c := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF) // the range of the second byte
	switch {
	case c < 0x80:
		return 1, true
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	default:
		return 1, false
	}
	for n = 1; n <= need; n++ {
		if n >= len(b) || b[n] < lo || b[n] > hi {
			return n, false
		}
		lo, hi = 0x80, 0xBF
	}
	return n, true
}

// CanonicalURL returns the canonical URL of raw under n's profile, parsed:
// its parts are the parts after the profile's rules (tracking parameters
// removed, host mapped, scheme upgraded …). The error is Normalize's.
func (n *Normalizer) CanonicalURL(raw string) (*URL, error) {
	var p Parser
	return p.ParseCanonical(n, raw)
}

// Parser parses URLs into one URL that it reuses, so that parsing a stream
// of URLs allocates nothing once its buffers have grown (the SQL part
// functions keep one per row loop). The URL it returns, and every string
// read from that URL, stays valid until the next call, and no longer than
// raw's memory: a URL written as the serializer writes it (most of the
// web's: lowercase scheme and host, no default port, nothing to
// percent-encode) is not copied, its URL and strings share raw's bytes. A
// Go string never changes, so this matters only to a caller that passes
// unsafe.String over a buffer it reuses: it reads the parts (or Clones the
// URL) before it writes the buffer again. A Parser never writes into raw.
// The zero Parser is ready to use; a Parser is not safe for concurrent
// use.
type Parser struct {
	p   parser
	u   URL
	out []byte

	// own is the URL's own buffer while u.buf is raw's bytes (aliased):
	// a parse that writes the URL takes it back first (owned), so that
	// nothing ever writes into raw's memory.
	own     []byte
	aliased bool
}

// alias makes raw[:n] (0 < n <= len(raw)), the serialization of the
// URL, the URL's buffer: raw's bytes through a pointer to an array of
// aliasMax bytes, whose slice the compiler checks against a constant at
// most, where raw[:n] and unsafe.Slice's checks cost 6 instructions
// (url_path 406 → 400 per URL of web).
func (p *Parser) alias(raw string, n int) {
	if !p.aliased {
		p.own, p.aliased = p.u.buf, true
	}
	p.u.buf = (*[aliasMax]byte)(unsafe.Pointer(unsafe.StringData(raw)))[:n:n] // n > 0: a scheme, a host
}

// aliasMax is alias's array length: 2⁴⁷-1 bytes with 64-bit ints (the
// compiler's limit for an array type is below math.MaxInt), math.MaxInt
// with 32-bit ones; longer than any string either way.
const aliasMax = math.MaxInt >> ((bits.UintSize - 32) / 2)

// owned gives the URL its own buffer back, for a parse that writes it.
func (p *Parser) owned() {
	if p.aliased {
		p.u.buf, p.aliased = p.own, false
	}
}

// Parse parses an absolute URL per the WHATWG URL Standard, as Parse does.
func (p *Parser) Parse(raw string) (*URL, error) {
	v := &p.p.pre
	ok := scanVerbatim(raw, v)
	if ok && v.cut == 0 && !v.lower {
		// The serialization is raw: the URL is raw's bytes.
		p.alias(raw, len(raw))
		u := &p.u
		u.setAuthority(v)
		u.pathEnd, u.queryStart, u.fragStart, u.plainPath = v.pathEnd, v.queryStart, v.fragStart, v.plainPath
		return u, nil
	}
	// The parse takes this scan instead of making it again (verbatimState).
	p.p.preInput, p.p.preState = raw, preNo
	switch {
	case ok:
		p.p.preState = preYes
	case v.auth:
		p.p.preState = preAuth
	}
	return p.parse(raw)
}

// parse parses raw into the URL's own buffer.
func (p *Parser) parse(raw string) (*URL, error) {
	p.owned()
	if k := p.p.parse(&p.u, raw, nil); k != nil {
		return nil, newError("parse", raw, k, p.p.reason(raw, nil))
	}
	return &p.u, nil
}

// ParseAuthority parses raw as Parse does but stops once the authority is
// read, for the parts that are in it: the URL's scheme, userinfo, host
// (with its kind and domain parts) and port are Parse's, while its path,
// query and fragment are left empty when raw has an authority (its
// String is then not raw's URL). It fails exactly when Parse fails: in
// the URL Standard's parser only the scheme, the host and the port can
// fail, so the bytes after the authority need no look (url_host costs a
// scan of the authority, not of the whole URL).
func (p *Parser) ParseAuthority(raw string) (*URL, error) {
	var v verbatimURL
	if i := scanAuthority(raw, &v); i >= 0 && (i == len(raw) || authorityEnd(raw[i])) {
		// Written as the serializer writes it: one scan and one copy
		// (the verbatim parse of the authority alone; no path, query
		// nor fragment).
		v.authEnd = i
		if v.cut == 0 && !v.lower { // the serialization is raw[:i]
			p.alias(raw, i)
			p.u.setAuthority(&v)
			return &p.u, nil
		}
		p.owned()
		p.p.u = &p.u
		p.p.setAuthority(raw, &v) // every field (URL.setAuthority): no reset
		return &p.u, nil
	}
	p.p.authOnly = true
	u, err := p.parse(raw)
	p.p.authOnly = false
	return u, err
}

// ParseWithoutPath parses raw as Parse does but leaves its path out, for
// the parts after it: the URL's scheme, userinfo, host, port, query and
// fragment are Parse's, its path is empty (its String is then not raw's
// URL). It fails exactly when Parse fails (see ParseAuthority). A special
// URL's path ends at its first '?' or '#' whatever the bytes before them,
// so when the authority, the query and the fragment are written as the
// serializer writes them, the path needs no look (url_query costs a scan
// of the authority and the query, not of the path), and raw itself is
// the URL's buffer unless its scheme or host has an uppercase letter or
// it has the default port, as for Parse (a copy of the authority, query
// and fragment cost 110 instructions per URL of web: 578, now 468).
func (p *Parser) ParseWithoutPath(raw string) (*URL, error) {
	v := &p.p.pre // the parser's own (Parse scans into it again): no local to zero, 392 → 387 instructions per URL of web
	if i := scanAuthority(raw, v); i >= 0 && (i == len(raw) || authorityEnd(raw[i])) {
		end, ok := pathTail(raw, i) // inline: most URLs (pathEnd's call, 12 instructions per URL of web more)
		if !ok {
			end = pathEnd(raw, i)
		}
		// No query and no fragment (most of web's URLs): no call
		// (url_query 407 → 392 instructions per URL of web), and no
		// store of their starts (setAuthority's -1 stands).
		tail := end < len(raw)
		if tail {
			v.queryStart, v.fragStart = -1, -1
		}
		if !tail || scanQueryFragment(raw, end, v) {
			v.authEnd = i
			if v.cut == 0 && !v.lower {
				// raw is the URL's buffer, the path in it left out as
				// the general parser's below leaves it (no copy).
				p.alias(raw, len(raw))
				u := &p.u
				u.setAuthority(v)
				if tail {
					u.queryStart, u.fragStart = v.queryStart, v.fragStart
				}
				return u, nil
			}
			p.owned()
			p.p.u = &p.u
			p.p.setAuthority(raw, v)
			// the query and the fragment follow the authority in the buffer
			u := &p.u
			u.buf = append(u.buf, raw[end:]...)
			if tail {
				shift := end - u.authEnd // the path and the default port left out
				if v.queryStart >= 0 {
					u.queryStart = v.queryStart - shift
				}
				if v.fragStart >= 0 {
					u.fragStart = v.fragStart - shift
				}
			}
			return u, nil
		}
	}
	u, err := p.Parse(raw)
	if err == nil {
		u.pathEnd = u.pathStart // the same URL whichever way it was parsed
		u.plainPath = false
	}
	return u, err
}

// ParseThroughPath parses raw as Parse does but stops at the path's end,
// for the parts in the path: the URL's scheme, userinfo, host, port and
// path are Parse's, its query and fragment are null (its String is then
// not raw's URL). It fails exactly when Parse fails (see ParseAuthority).
// The tab, newline and trailing space Parse removes change no path that
// the verbatim scan accepts (it takes none of them), so a special URL
// whose authority and path are written as the serializer writes them
// needs no look at its query and fragment (url_path, url_extension and
// url_path_segments cost a scan of the authority and the path; in the
// SIMD build one pass over both, throughPath1: parse_through_path 418,
// now 401, instructions per URL of web; Parse 511).
func (p *Parser) ParseThroughPath(raw string) (*URL, error) {
	// Inline, one frame: throughPath1 leaves the URLs it does not take to
	// the scans (throughPathScan); the portable build calls those at once
	// (onePass is a constant per build: a branch that costs nothing).
	if onePass {
		return p.throughPath1(raw)
	}
	return p.throughPathFrom(raw, -1)
}

// throughPathScan is ParseThroughPath for a URL that the SIMD build's
// one pass (throughPath1) does not take (and for every URL of the portable
// build): the authority's scan, the path's, then the URL, or the general
// parser (throughPathFrom; inline).
func (p *Parser) throughPathScan(raw string) (*URL, error) { return p.throughPathFrom(raw, -1) }

// throughPathFrom is ParseThroughPath for raw whose scheme and authority
// the verbatim scan accepted into p.p.pre, up to the path's '/' at raw[i]
// (the one pass's way out for a path it does not finish), or, for i < 0,
// for raw whose authority it scans first (throughPathScan): the path's
// scan, then the URL, or the general parser. One function for both, so
// that the portable build's ParseThroughPath takes one frame (two frames
// cost 17 instructions per URL of web).
func (p *Parser) throughPathFrom(raw string, i int) (*URL, error) {
	v := &p.p.pre // the general parser's verbatim state, as Parse's
	if i < 0 {
		if i = scanAuthority(raw, v); i < 0 || i >= len(raw) || raw[i] != '/' {
			p.p.preInput, p.p.preState = raw, preNo
			return p.throughPathParse(raw)
		}
	}
	v.authEnd, v.auth = i, true
	if end := partsPath(raw, i, v); end >= 0 {
		if v.cut == 0 && !v.lower { // raw[:end] is the serialization
			p.alias(raw, end)
			u := &p.u
			u.setAuthority(v)
			u.pathEnd, u.plainPath = end, v.plainPath
			return u, nil
		}
		return p.throughPath(raw, end), nil
	}
	p.p.preInput, p.p.preState = raw, preAuth // scanVerbatim's answer: the general parser starts at the path
	return p.throughPathParse(raw)
}

// throughPathParse is ParseThroughPath by the general parser, from the
// state that p.p.preState says.
func (p *Parser) throughPathParse(raw string) (*URL, error) {
	u, err := p.parse(raw)
	if err == nil {
		u.queryStart, u.fragStart = -1, -1 // the same URL whichever way it was parsed
	}
	return u, err
}

// throughPath fills the URL with a copy of raw[:end], whose scheme,
// authority and path the verbatim scan accepted into p.p.pre, with the
// scheme and host lowercased and the default port cut (the general
// parser's setAuthority): ParseThroughPath's URL when raw[:end] is not
// the serialization (when it is, raw's bytes are the URL, without a call:
// url_path 500 → 489 instructions per URL of web).
func (p *Parser) throughPath(raw string, end int) *URL {
	v, u := &p.p.pre, &p.u
	p.owned()
	p.p.u = u
	p.p.setAuthority(raw, v)
	u.buf = append(u.buf, raw[v.authEnd:end]...)
	u.pathEnd, u.plainPath = len(u.buf), v.plainPath
	return u
}

// pathEndIndexByte is pathEnd (parts_simd_amd64.go, parts_nosimd.go) in
// two strings.IndexByte calls: the portable build's, and the reference
// that the SIMD scan is tested against.
func pathEndIndexByte(s string, i int) int {
	end := len(s)
	if j := strings.IndexByte(s[i:], '#'); j >= 0 {
		end = i + j
	}
	if j := strings.IndexByte(s[i:end], '?'); j >= 0 {
		end = i + j
	}
	return end
}

// authorityEnd reports whether c ends a special URL's authority.
func authorityEnd(c byte) bool { return c == '/' || c == '?' || c == '#' || c == '\\' }

// ParseCanonical parses the canonical URL of raw under n's profile, as
// n.CanonicalURL does.
func (p *Parser) ParseCanonical(n *Normalizer, raw string) (*URL, error) {
	var err error
	p.owned()
	if p.out, err = n.AppendNormalized(p.out[:0], raw); err != nil {
		return nil, withOp(err, "parse")
	}
	// parse copies what it keeps into the URL's own buffer.
	if k := p.p.parse(&p.u, unsafe.String(unsafe.SliceData(p.out), len(p.out)), nil); k != nil {
		// Every profile's output re-parses to itself (the idempotency
		// tests); reaching this is a bug, reported rather than hidden.
		return nil, &Error{Op: "parse", Input: raw, Kind: k, Reason: "the canonical URL " + Quote(string(p.out)) + " does not parse"}
	}
	return &p.u, nil
}
