package normalize

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// hostCharsOK reports whether u's domain is within the profile's charset.
func (n *Normalizer) hostCharsOK(u *URL) bool {
	return u.hostChars&n.charset == n.charset
}

// state is the scratch space of one call.
type state struct {
	p      parser
	u      URL
	out    []byte
	tmp    []byte
	qbuf   []byte
	params []param
	dec    []byte // percent.decode_repeatedly (decode.go)
	enc    []byte
	pass   pass // zeroed by each run
}

// pass is what one run learns about the URL it writes into out. A rewrite
// normalizes the rewritten URL in a run of its own: a new pass, which
// starts from zero, so that nothing found in the URL before the rewrite
// describes the URL after it (issue 16.9: the offset of the first URL's
// language segment once made an alternate of the second).
type pass struct {
	lang     *LanguageHost // the host whose language segment out has, or nil
	langAt   int           // the offset of that segment in out
	original string        // the segment as the input had it
	pref     string        // the segment in out
}

// Normalize returns the canonical form of raw. When raw is already
// canonical the result is raw itself, and when the canonical form is raw
// without its end (a trailing slash, a fragment) it is that prefix of raw:
// no allocation either way, and the result shares raw's memory.
func (n *Normalizer) Normalize(raw string) (string, error) {
	return n.normalizeDepth(raw, 0)
}

func (n *Normalizer) normalizeDepth(raw string, depth int) (string, error) {
	var v verbatimURL
	var vOK bool
	if depth == 0 {
		var c canon
		var same bool
		if same, vOK = n.canonInto(&c, raw, &v); same {
			if c.same {
				return raw[:c.end], nil // canon.string's first case, without a call
			}
			if c.upgradeOnly() {
				return c.upgradedString(raw), nil
			}
			return c.string(raw), nil
		}
	}
	st := n.pool.Get().(*state)
	defer n.pool.Put(st)
	st.p.preFrom(raw, &v, vOK, depth == 0 && n.same)
	if k := n.run(st, raw, nil, depth); k != nil {
		return "", st.err("normalize", raw, k)
	}
	return resultOf(st.out, raw), nil
}

// upgradeOnly reports whether the canonical form c says is its scheme
// (scheme.upgrade) and s[schemeEnd:end] (nothing cut, nothing to
// lowercase, no query rewritten): clara's http URLs, 5,844 of web's
// 59,440. Normalize then writes them with upgradedString, whose buffer is
// not zeroed first, where canon.string's make zeroes it (a call to
// memclr) and canon.append tests every cut: clara on web 0.36 fewer
// mispredicted branches per URL (cachegrind --branch-sim: memmove,
// mallocgc, memclr), 2 instructions more (issue 18).
func (c *canon) upgradeOnly() bool {
	return c.upgrade && c.a == c.b && c.slash == c.rest && c.sort == nil && c.lowerTo == 0
}

// upgradeBuf is the stack buffer of upgradedString: 96 % of the URLs it
// writes in web and web_dirty are at most 128 bytes long.
const upgradeBuf = 128

// upgradedString is canon.string of an upgradeOnly c. An upgrade to https
// of up to upgradeBuf bytes is written on the stack ("https://" as one
// word) and made a string by one conversion (slicebytetostring: the
// allocation, not zeroed, and one copy), where a strings.Builder's Grow,
// grow, MakeNoZero and two WriteStrings (a call to memmove for the
// scheme's 5 bytes) cost ~100 instructions more per upgraded URL: clara 831
// → 821 instructions per URL of web (issue 18). Others (a longer URL,
// another scheme) go through the strings.Builder.
func (c *canon) upgradedString(s string) string {
	rest := s[c.schemeEnd:c.end] // "://" and what follows
	if c.scheme == "https" && len(rest) <= upgradeBuf-5 {
		var buf [upgradeBuf]byte
		binary.LittleEndian.PutUint64(buf[:], le64("https://"))
		return string(buf[:8+copy(buf[8:], rest[3:])])
	}
	var b strings.Builder
	b.Grow(len(c.scheme) + len(rest))
	b.WriteString(c.scheme)
	b.WriteString(rest)
	return b.String()
}

// resultOf returns out as a string: raw itself when out is raw, or a
// prefix of raw when out is raw without its end (a trailing slash, a
// fragment: no allocation; the result shares raw's memory, as raw itself
// would).
func resultOf(out []byte, raw string) string {
	if len(out) <= len(raw) && string(out) == raw[:len(out)] {
		return raw[:len(out)]
	}
	return string(out)
}

// AppendNormalized appends the canonical form of raw to dst.
func (n *Normalizer) AppendNormalized(dst []byte, raw string) ([]byte, error) {
	var v verbatimURL
	var c canon
	same, vOK := n.canonInto(&c, raw, &v)
	if same {
		return c.append(dst, raw), nil
	}
	st := n.pool.Get().(*state)
	defer n.pool.Put(st)
	if k := n.runScanned(st, raw, &v, vOK); k != nil {
		return dst, st.err("normalize", raw, k)
	}
	return append(dst, st.out...), nil
}

// runScanned is run for a raw that verbatimCanon has scanned (v, vOK) but
// could not answer: the parser starts from that scan.
func (n *Normalizer) runScanned(st *state, raw string, v *verbatimURL, vOK bool) *Kind {
	st.p.preFrom(raw, v, vOK, n.same)
	return n.run(st, raw, nil, 0)
}

// Hash returns the hex digest of the canonical form of raw with the
// profile's hash function.
func (n *Normalizer) Hash(raw string) (string, error) {
	var buf [64]byte
	b, err := n.AppendHash(buf[:0], raw)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// AppendHash appends the hex digest of the canonical form of raw to dst.
func (n *Normalizer) AppendHash(dst []byte, raw string) ([]byte, error) {
	return n.appendHash(dst, raw, n.hash)
}

// HashCanonical returns the profile's digest of an already canonical URL.
func (n *Normalizer) HashCanonical(canonical string) string {
	var buf [64]byte
	return string(appendDigest(buf[:0], n.hash, unsafe.Slice(unsafe.StringData(canonical), len(canonical))))
}

// run normalizes raw into st.out. rec, when non-nil, collects what the
// rules removed. depth counts rewrite passes.
func (n *Normalizer) run(st *state, raw string, rec *Result, depth int) *Kind {
	st.pass = pass{}
	if len(raw) > n.maxLen {
		return st.p.fail(KindTooLong, strconv.Itoa(len(raw))+" bytes", "", "limits.max_length "+strconv.Itoa(n.maxLen))
	}
	in := raw
	if n.assume != "" {
		var k *Kind
		if in, k = n.assumeScheme(st, raw); k != nil {
			return k
		}
	}
	u := &st.u
	st.p.reference = n.reference
	if k := st.p.parse(u, in, nil); k != nil {
		return k
	}
	scheme := u.Scheme()
	if len(n.allowed) > 0 && !slices.Contains(n.allowed, scheme) {
		return st.p.fail(KindScheme, "scheme "+quoteValue(scheme), "", "scheme.allowed "+strings.Join(n.allowed, ", "))
	}
	var hr *hostRule
	if to, ok := n.asParsed(u, scheme); ok && !n.reference {
		// The common case: copy scheme, authority and path in one move.
		out := st.out[:0]
		if to != u.Scheme() { // upgraded (by name: "ftp" → "wss" keeps the length)
			out = append(out, to...)
			out = append(out, u.buf[u.schemeEnd:u.pathEnd]...)
		} else {
			out = append(out, u.buf[:u.pathEnd]...)
		}
		hr, _ = n.hosts.get(u.Host())
		pathStart := u.pathStart + len(to) - u.schemeEnd
		out = n.finishPath(out, pathStart, u)
		return n.finish(st, u, out, pathStart, hr, rec, depth)
	}
	if to, ok := n.upgraded(scheme); ok {
		scheme = to
	}
	out := append(st.out[:0], scheme...)
	out = append(out, ':')
	host := ""
	if u.hostKind != HostNone {
		out = append(out, '/', '/')
		if (u.userEnd > u.userStart || u.passEnd > u.passStart) && !n.k.noUserinfo {
			out = n.appendUserinfo(st, out, u.Username())
			if u.passEnd > u.passStart {
				out = append(out, ':')
				out = n.appendUserinfo(st, out, u.Password())
			}
			out = append(out, '@')
		}
		h0 := len(out)
		var k *Kind
		if out, k = n.appendHost(st, out, u); k != nil {
			return k
		}
		if scheme == "file" && string(out[h0:]) == "localhost" {
			// The file host state turns "localhost" into the empty host;
			// a host rule (a stripped trailing dot) may have just made it.
			out = out[:h0]
		}
		host = bstr(out[h0:]) // re-sliced below if out grows
		hr, _ = n.hosts.get(host)
		if p := int(u.port); p >= 0 && p != specialPort(scheme) && !n.k.noPorts {
			if d, ok := n.defaults[scheme]; !ok || d != p {
				out = append(out, ':')
				out = appendPort(out, u.port)
			}
		}
	}
	pathStart := len(out)
	var k *Kind
	if out, k = n.appendPath(st, out, u, hr, host, rec); k != nil {
		return k
	}
	return n.finish(st, u, out, pathStart, hr, rec, depth)
}

// finish appends the query and the fragment after the profile's rules and
// applies the host's rewrite rules.
func (n *Normalizer) finish(st *state, u *URL, out []byte, pathStart int, hr *hostRule, rec *Result, depth int) *Kind {
	var k *Kind
	if out, k = n.appendQuery(st, out, u, hr, out[pathStart:], rec); k != nil {
		return k
	}
	if frag, ok := u.Fragment(); ok {
		if n.fragment {
			if rec != nil {
				rec.Fragment, rec.HasFragment = strings.Clone(frag), true // frag shares the pooled buffer
			}
		} else if n.k.fragAny {
			out = n.appendFragment(st, out, frag)
		} else {
			out = append(out, '#')
			out = n.appendPct(out, frag)
		}
	}
	if len(out) > n.k.finishLen { // one test for the built-ins (knobs.go)
		if out, k = n.finishURL(st, out, pathStart); k != nil {
			return k
		}
	}
	st.out = out
	if hr != nil && len(hr.rewrite) > 0 && depth != noRewrite {
		return n.applyRewrite(st, hr, rec, depth)
	}
	return nil
}

// upgraded returns the scheme that replaces scheme (Scheme.Upgrade).
func (n *Normalizer) upgraded(scheme string) (string, bool) {
	for _, u := range n.upgrade {
		if u[0] == scheme {
			return u[1], true
		}
	}
	return "", false
}

// assumeScheme gives scheme-less input the profile's scheme:
// "example.com/p" and "//example.com/p" become "https://example.com/p";
// "/p" has no host and is an error. It decides on the input as the parser
// will see it, without tab and newline (issue 15: "ht\ttps://a.b/p" has
// the scheme https), but passes the input on as given, so that error
// offsets still point into it.
func (n *Normalizer) assumeScheme(st *state, raw string) (string, *Kind) {
	// Leading C0 control or space, as the parser trims it. A loop, not
	// strings.TrimLeft with a cutset: that builds its ASCII set on every
	// call (7 % of edge-gateway's time in pprof).
	i := 0
	for i < len(raw) && raw[i] <= ' ' {
		i++
	}
	s := raw[i:]
	if s == "" {
		return raw, nil // the parser reports empty input
	}
	// The common case, a URL that starts with http: or https: (special
	// schemes, never a host): tab and newline later on cannot change that.
	if !n.reference && httpPrefix(s) {
		return raw, nil
	}
	c := s // s as the parser reads it
	if hasControl(s) && strings.ContainsAny(s, "\t\n\r") {
		// qbuf is free until the query is parsed, after this.
		st.qbuf = st.qbuf[:0]
		for j := 0; j < len(s); j++ {
			if b := s[j]; b != '\t' && b != '\n' && b != '\r' {
				st.qbuf = append(st.qbuf, b)
			}
		}
		c = bstr(st.qbuf)
	}
	if k := schemeLen(c); k > 0 && !n.hostPort(c, k) {
		return raw, nil
	}
	st.tmp = append(st.tmp[:0], n.assume...)
	switch {
	case strings.HasPrefix(c, "//") || strings.HasPrefix(c, `\\`):
		st.tmp = append(st.tmp, ':')
	case c[0] == '/' || c[0] == '\\':
		return "", st.p.fail(KindMissingHost, quoteByte(s[0]), s, "no host for scheme.assume "+n.assume)
	default:
		st.tmp = append(st.tmp, "://"...)
	}
	st.tmp = append(st.tmp, s...)
	return bstr(st.tmp), nil
}

// httpPrefix reports whether s starts with "http:" or "https:" in any
// case (a special scheme, never a host: hostPort would say so after
// lowercasing the scheme into a new string, a call and an allocation per
// URL with an uppercase scheme, 0.5 mispredicted branches per URL of
// edge-gateway's web_dirty in mallocgc and appendLower). A URL of 8
// bytes or more is one word, its letters' bit 5 set (not the colon's: 0x1A
// would become ':'), compared with both, the two answers joined by a min
// (a conditional move): in web_dirty http and https alternate at random,
// and two HasPrefix tests in a row mispredicted (cachegrind
// --branch-sim, issue 18).
func httpPrefix(s string) bool {
	if len(s) < 8 {
		return hasPrefixFold(s, "https:") || hasPrefixFold(s, "http:")
	}
	const http, https = 0x3A_70_74_74_68, 0x3A_73_70_74_74_68 // "http:", "https:" little-endian
	w := le64(s)
	return min((w|0x20_20_20_20)&0xFF_FFFF_FFFF^http, (w|0x20_20_20_20_20)&0xFFFF_FFFF_FFFF^https) == 0
}

// hostPort reports whether s, which starts with "word:" (k the length of
// the word), is a host and a port ("example.com:8080/p", "localhost:3000")
// rather than a scheme ("mailto:a@b.c", "javascript:x"): taking a scheme
// for a host would turn it into a valid, different URL
// ("https://mailto:a@b.c/"). It is a port only when digits follow the
// colon and their value is a port, at most 65535 (issue 15:
// "tel:004346382763" is a phone number, not a port); what follows them is
// the parser's to judge ("a.com:8a/" is invalid_port). A special scheme,
// or one the profile allows, is always a scheme.
func (n *Normalizer) hostPort(s string, k int) bool {
	sc := asciiLower(s[:k])
	if slices.Contains(n.allowed, sc) || specialPort(sc) != -2 {
		return false
	}
	return portPrefix(s[k+1:])
}

// portPrefix reports whether s starts with digits whose value is a port,
// at most 65535. No digits ("example.com:", "mailto:a") is a scheme.
func portPrefix(s string) bool {
	j, port := 0, 0
	for ; j < len(s) && isDigit(s[j]); j++ {
		if port = port*10 + int(s[j]-'0'); port > 65535 {
			return false
		}
	}
	return j > 0
}

// appendHost appends the host after the profile's host rules.
func (n *Normalizer) appendHost(st *state, out []byte, u *URL) ([]byte, *Kind) {
	h := u.Host()
	switch u.hostKind {
	case HostEmpty:
		return out, nil
	case HostIPv4, HostIPv6:
		return append(out, h...), nil
	case HostOpaque:
		start := len(out)
		out = n.appendPct(out, h)
		if n.host.LowercaseOpaque {
			lowerOutsideEscapes(out[start:])
		}
		return out, nil
	}
	// HostDomain
	if n.k.www != wwwKeep {
		h = n.stripWWW(h)
	}
	if n.host.StripTrailingDot && strings.HasSuffix(h, ".") {
		h = strings.TrimRight(h, ".")
		if h == "" {
			return out, st.p.fail(KindHost, "host "+quoteValue(u.Host())+" is only dots", "", "host.strip_trailing_dot")
		}
		if endsInNumber(h, !n.reference) {
			// "0x7f.1." is a domain; "0x7f.1" is an IPv4 address. Re-run
			// the IPv4 parser so that the output re-parses to itself.
			v, ok := parseIPv4(h)
			if !ok {
				return out, st.p.fail(KindIPv4, "host "+quoteValue(h), "", "ends in a number but is not an IPv4 address, after host.strip_trailing_dot")
			}
			return appendIPv4(out, v), nil
		}
	}
	if !n.hostCharsOK(u) {
		return out, n.outsideCharset(st, h)
	}
	if n.host.RequireDot && strings.IndexByte(h, '.') < 0 && h != "localhost" {
		return out, st.p.fail(KindHost, "host "+quoteValue(h)+" has no dot", "", "host.require_dot")
	}
	if to, ok := n.hostTo.get(h); ok {
		h = to
	}
	return append(out, h...), nil
}

// outsideCharset fails a domain outside the profile's host charset,
// naming its first byte outside it.
func (n *Normalizer) outsideCharset(st *state, h string) *Kind {
	i := 0
	for i < len(h) && hostClass[h[i]]&n.charset == n.charset {
		i++
	}
	what := "host " + quoteValue(h)
	if i < len(h) {
		what = quoteByte(h[i]) + " in " + what
	}
	return st.p.fail(KindHost, what, "", "host.charset "+n.host.Charset)
}

// err builds the error of a failed run on raw, with the reason the
// parser or a rule recorded.
func (st *state) err(op, raw string, k *Kind) *Error {
	return newError(op, raw, k, st.p.reason(raw, st.tmp))
}

// lowerOutsideEscapes lowercases ASCII letters of b except the hex digits
// of percent-escapes (which stay uppercase).
func lowerOutsideEscapes(b []byte) {
	for i := 0; i < len(b); i++ {
		if b[i] == '%' && i+2 < len(b) {
			i += 2
			continue
		}
		b[i] = lower(b[i])
	}
}

// appendPct appends s with the profile's percent-encoding normalization.
// Eight bytes a step while the output is no longer than the input (no
// stray '%' that encode_stray writes "%25"): each word is stored as it
// is, and the '%' in it, found by eqBytes, is written over it; then
// appendPctRest. A call to IndexByte and an append per escape cost
// default ~80 instructions an escape (~500 per URL of web_dirty with
// escapes in its path).
func (n *Normalizer) appendPct(dst []byte, s string) []byte {
	switch {
	case !n.pctAny:
		return append(dst, s...)
	case n.reference:
		return n.appendPctRest(dst, s, len(dst))
	}
	start := len(dst)
	dst = slices.Grow(dst, len(s))
	w := dst[start : start+len(s)] // the output: w[:j], j ≤ i
	i, j := 0, 0
	for i < len(s) {
		if i+8 <= len(s) {
			x := le64(s[i : i+8])
			binary.LittleEndian.PutUint64(w[j:j+8], x)
			m := eqBytes(x, '%')
			if m == 0 {
				i, j = i+8, j+8
				continue
			}
			k := bits.TrailingZeros64(m) >> 3
			i, j = i+k, j+k
		} else if s[i] != '%' {
			w[j] = s[i]
			i, j = i+1, j+1
			continue
		}
		// s[i] is '%'.
		if !(i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])) {
			if n.pct.EncodeStray {
				break // "%25": longer than the input
			}
			w[j] = '%'
			i, j = i+1, j+1
			continue
		}
		switch v := unhex(s[i+1])<<4 | unhex(s[i+2]); {
		case n.pct.DecodeUnreserved && unreserved[v] && !(isHex(v) && strayBefore(w[:j], 0)):
			w[j] = v
			j++
		case n.pct.UppercaseHex:
			w[j], w[j+1], w[j+2] = '%', upper(s[i+1]), upper(s[i+2])
			j += 3
		default:
			w[j], w[j+1], w[j+2] = '%', s[i+1], s[i+2]
			j += 3
		}
		i += 3
	}
	if i == len(s) {
		return dst[:start+j]
	}
	return n.appendPctRest(dst[:start+j], s[i:], start)
}

// appendPctRest appends s with the profile's percent-encoding
// normalization after dst[start:], which appendPct wrote from the same
// input (strayBefore reads it): the reference of appendPct's word steps
// (TestAppendPctMatchesRest), and what follows a stray '%' that
// encode_stray writes "%25".
func (n *Normalizer) appendPctRest(dst []byte, s string, start int) []byte {
	for {
		i := strings.IndexByte(s, '%')
		if i < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:i]...)
		if i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			v := unhex(s[i+1])<<4 | unhex(s[i+2])
			switch {
			case n.pct.DecodeUnreserved && unreserved[v] && !(isHex(v) && strayBefore(dst, start)):
				dst = append(dst, v)
			case n.pct.UppercaseHex:
				dst = append(dst, '%', upper(s[i+1]), upper(s[i+2]))
			default:
				dst = append(dst, s[i:i+3]...)
			}
			s = s[i+3:]
			continue
		}
		if n.pct.EncodeStray {
			dst = append(dst, "%25"...)
		} else {
			dst = append(dst, '%')
		}
		s = s[i+1:]
	}
}

// appendUserinfo appends a username or password with the profile's
// percent-encoding rules.
func (n *Normalizer) appendUserinfo(st *state, out []byte, s string) []byte {
	if n.pct.DecodeRepeatedly {
		s = n.decodeRepeated(st, s, decUserinfo)
	}
	return n.appendPct(out, s)
}

// strayBefore reports whether dst[start:] ends in a stray '%' or a stray
// '%' and one hex digit, which a decoded hex digit would turn into an
// escape the next pass decodes ("%%36%31" → "%61" → "a"): such a digit
// stays encoded, so that decode_unreserved is idempotent without
// encode_stray. Escapes are appended whole, so a '%' there is stray.
func strayBefore(dst []byte, start int) bool {
	b := dst[start:]
	return len(b) >= 1 && b[len(b)-1] == '%' || len(b) >= 2 && b[len(b)-2] == '%' && isHex(b[len(b)-1])
}

// asParsed reports whether the profile's rules leave the authority and
// the path exactly as the parser serialized them into u.buf, so that run
// can copy them in one move instead of rebuilding them part by part (a web
// URL with a plain host and a path without escapes: most input); scheme is
// then the output's scheme (upgraded when the URL has no port, which could
// become the new scheme's default). Anything a rule could change, or
// report as an error, takes the general path.
func (n *Normalizer) asParsed(u *URL, scheme string) (string, bool) {
	if !u.special || scheme == "file" || u.opaque ||
		u.userEnd > u.userStart || u.passEnd > u.passStart {
		return "", false
	}
	if len(n.upgrade) > 0 {
		if to, ok := n.upgraded(scheme); ok {
			if u.port >= 0 || specialPort(to) < 0 {
				return "", false
			}
			scheme = to
		}
	}
	if u.port >= 0 && len(n.defaults) > 0 {
		if d, ok := n.defaults[scheme]; ok && d == int(u.port) {
			return "", false
		}
	}
	switch u.hostKind {
	case HostIPv4, HostIPv6:
	case HostDomain:
		h := u.Host()
		if n.host.StripTrailingDot && strings.HasSuffix(h, ".") ||
			!n.hostCharsOK(u) ||
			n.host.RequireDot && strings.IndexByte(h, '.') < 0 {
			return "", false
		}
		if _, ok := n.hostTo.get(h); ok {
			return "", false
		}
		if _, ok := n.lang.get(h); ok {
			return "", false
		}
	default:
		return "", false
	}
	if n.k.slow && n.k.changes(u) {
		return "", false
	}
	if u.plainPath {
		return scheme, true // no '%', ';' or "//" (pfNote in the parser)
	}
	path := u.Path()
	return scheme, !(n.pctAny && strings.IndexByte(path, '%') >= 0) && !n.bySegment(path, nil)
}

// applyRewrite applies the first matching rewrite rule to st.out and
// normalizes the result again.
func (n *Normalizer) applyRewrite(st *state, hr *hostRule, rec *Result, depth int) *Kind {
	cur := bstr(st.out)
	for _, r := range hr.rewrite {
		var next string
		switch {
		case strings.HasPrefix(cur, r.from):
			next = r.to + cur[len(r.from):]
		case cur == r.exact:
			next = r.to
		default:
			continue
		}
		if next == cur {
			return nil
		}
		if depth >= n.maxDepth {
			return st.p.fail(KindRewriteLoop, "", "", "the rewrite rules reach no fixed point")
		}
		if rec != nil {
			rec.Rewrites = append(rec.Rewrites, Rewrite{FromPrefix: r.from, ToPrefix: r.to})
		}
		k := n.run(st, next, rec, depth+1)
		if k != nil && st.p.why.input == "" {
			st.p.why.input = next // the failure is in the rewritten URL
		}
		return k
	}
	return nil
}
