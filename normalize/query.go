package normalize

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// param is one query parameter as it will be written: state.qbuf[k0:end]
// is "key", or "key=value" when k1 < end (then qbuf[k1] is the '='). Three
// 32-bit offsets, 12 bytes for a parameter of at least 1 byte of input:
// on a query of "a=1&" × N, the list is 3× the input (issue 16.11: the
// 20-byte form, grown by appends, allocated 41× it). maxLimitLength keeps
// the offsets in range.
type param struct {
	k0, k1, end uint32
}

// maxLimitLength is the largest limits.max_length, 1 GiB: qbuf holds a
// query's keys and values, each byte written as up to 3 (a '%' as "%25"),
// so 3 GiB at most, within param's 32-bit offsets.
const maxLimitLength = 1 << 30

// sizeParams: a query this long has its parameters counted first, so that
// the list is allocated once, at its size (growing by appends allocates
// 5 times the final size of a long list); shorter queries skip the count.
const sizeParams = 1024

// appendQuery appends the query after the profile's query rules.
func (n *Normalizer) appendQuery(st *state, out []byte, u *URL, hr *hostRule, path []byte, rec *Result) ([]byte, *Kind) {
	q, ok := u.Query()
	if !ok {
		return out, nil
	}
	if n.pct.DecodeRepeatedly {
		set := decQuery
		if u.special {
			set = decSpecialQuery
		}
		q = n.decodeRepeated(st, q, set)
	}
	pieces := 0
	if len(q) >= n.maxParams || len(q) >= sizeParams {
		if pieces = strings.Count(q, "&") + 1; pieces > n.maxParams {
			return out, st.p.fail(KindTooManyParams, "more than "+strconv.Itoa(n.maxParams)+" query parameters", "", "limits.max_params "+strconv.Itoa(n.maxParams))
		}
	}
	if !n.needParams {
		if q == "" && n.query.DropEmpty {
			return out, nil
		}
		out = append(out, '?')
		return n.appendPct(out, q), nil
	}
	keys := &n.baseKeys
	if hr != nil {
		keys = &hr.keys
		for i := range hr.paths {
			if hr.paths[i].match(bstr(path)) {
				keys = &hr.paths[i].keys
				break
			}
		}
	}
	st.qbuf = st.qbuf[:0]
	st.params = st.params[:0]
	// Without a '%' in the query, the percent rules have nothing to do
	// in its parts: one scan here instead of one per key and value (a
	// fast path: the reference reads every part).
	pct := n.reference || n.pctAny && strings.IndexByte(q, '%') >= 0
	if n.query.DropEmptyPairs {
		pieces = min(pieces, (len(q)+1)/2) // a kept piece has a byte, and a '&' between two
	}
	if pieces > cap(st.params) {
		st.params = make([]param, 0, pieces)
		st.qbuf = slices.Grow(st.qbuf, len(q)) // the pieces as they are; escapes may grow them
	}
	// When the rules write every key and value as the query has them (no
	// escape to read; under form encoding and query.lowercase, only bytes
	// they write as they are: directTab), the parameters are pieces of q
	// itself, not copies in qbuf: one copy of each, into out, instead of
	// two (a fast path: the reference copies, as pct is set). A value with
	// a second '=' that form encoding encodes, or a "k" that
	// explicit_empty_value writes "k=", is found on the way: the
	// parameters are then split again, with copies (rec is nil then:
	// Canonicalize's removed parameters are recorded once).
	direct := !pct && (!n.directScan || spanSet(q, &n.directTab, n.directSet) == len(q)) && (rec == nil || !n.formEq && !n.k.explicitEmpty)
	if direct && len(q) <= maxKeptLen && (n.keylessQ && len(keys.groups) == 0 || n.endsKeyed && rec == nil) {
		var ends [maxAmpPieces]uint32
		k, eq := 0, noMask
		if !n.keylessQ && uint(len(q)-8) < maxMaskLen-8 {
			if amp, m, _ := queryMasks(q, nil, nil); bits.OnesCount64(amp) < maxAmpPieces {
				k, eq = maskEnds(amp, len(q), &ends), m
			}
		} else {
			k = ampEnds(q, &ends)
		}
		if k > 0 {
			if n.keylessQ && len(keys.groups) == 0 {
				return n.appendEnds(out, q, ends[:k]), nil
			}
			if n.order == nil {
				if out, ok := n.appendEndsKept(out, q, ends[:k], eq, keys); ok {
					return out, nil
				}
			} else if out, ok := n.appendEndsSorted(out, q, ends[:k], eq, keys); ok {
				return out, nil
			}
		}
	}
	var b []byte
	st.params, b, ok = n.splitQuery(st, st.params[:0], q, keys, rec, pct, direct)
	if !ok {
		st.params, b, _ = n.splitQuery(st, st.params[:0], q, keys, rec, pct, false)
	}
	n.sortParams(st.params, b)
	if n.query.DropEmpty && (len(st.params) == 0 || len(st.params) == 1 && st.params[0].k0 == st.params[0].end) {
		// Nothing would follow the '?': no parameter, or one that writes
		// nothing (the query "" is one empty piece without drop_empty_pairs).
		return out, nil
	}
	out = slices.Grow(out, 1+len(b)+len(st.params)) // at most: the pairs, '?' and '&'s
	out = append(out, '?')
	return appendParams(out, st.params, b), nil
}

// appendParams appends the parameters ps (offsets into b), joined by '&'.
func appendParams(out []byte, ps []param, b []byte) []byte {
	for i, p := range ps {
		if i > 0 {
			out = append(out, '&')
		}
		out = append(out, b[p.k0:p.end]...)
	}
	return out
}

// splitQuery appends the parameters of q after the rules to ps and
// returns it: offsets into q itself when direct (the rules write each
// parameter as it is), else into st.qbuf, which it fills (direct does not
// use st); it returns the bytes the offsets index. ok is false when direct
// meets a parameter the rules change after all (nextPiece's pieceRewritten:
// a value whose '=' form encoding encodes, a "k" written "k=").
func (n *Normalizer) splitQuery(st *state, ps []param, q string, rules *keyRules, rec *Result, pct, direct bool) (_ []param, b []byte, ok bool) {
	b = unsafe.Slice(unsafe.StringData(q), len(q))          // read only
	keys := !direct || len(rules.groups) > 0 || !n.keylessQ // appendParam, removal and the order read keys
	for at := 0; at <= len(q); {
		p, w := n.nextPiece(q, at, direct, keys)
		at = int(p.end) + 1
		if p.k0 == p.end && n.query.DropEmptyPairs {
			continue // "&&" (query.drop_empty_pairs)
		}
		switch {
		case !direct:
			b = n.appendParam(st, &p, q, pct)
		case w == pieceBare:
			p.end = p.k1 // "k=" is written "k"
		case w == pieceRewritten:
			return ps, nil, false
		}
		if n.query.DropEmptyPairs && p.k0 == p.end {
			// Empty after normalization ("=" with bare_empty_value):
			// serializes to nothing, like "&&".
			continue
		}
		if rules.any {
			k := bstr(b[p.k0:p.k1])
			reason, page := "", false
			if n.mayRemove(k) {
				reason, page = rules.removes(k, rec != nil)
			}
			if reason != "" {
				if rec != nil {
					if page {
						rec.Pagination = &PageInfo{Param: strings.Clone(k), Value: string(p.value(b))}
					}
					rec.Removed = append(rec.Removed, Param{Key: strings.Clone(k), Value: string(p.value(b)), Reason: reason})
				}
				if !direct {
					st.qbuf = st.qbuf[:p.k0]
				}
				continue
			}
		}
		ps = append(ps, p)
	}
	if !direct {
		b = st.qbuf
	}
	return ps, b, true
}

// pieceWrite is how the query rules write a piece of a query whose bytes
// they write as they are (no escape; under form encoding and
// query.lowercase only bytes of directTab, or of queryTab for queryKept).
type pieceWrite uint8

const (
	pieceKept      pieceWrite = iota // as it is
	pieceEmpty                       // "": query.drop_empty_pairs drops it, else it is written as it is
	pieceBare                        // "k=": query.bare_empty_value writes "k", a prefix of it ("=" is then empty)
	pieceRewritten                   // other bytes: "k" written "k=" (query.explicit_empty_value), or a value's '=' that query.form_encoding encodes (formEq)
)

// nextPiece reads the piece of the query q that starts at at, up to the
// next '&' or q's end, as offsets into q: k0 its start, k1 its first '='
// (or its end without one), end its end; the next piece starts at
// end+1, and there is none after end == len(q). A query with n '&' has
// n+1 pieces; "" is one empty piece. When rules is set, it also says how
// the rules write the piece if they write its bytes as they are (w): what
// the direct split (splitQuery) cannot write by copying the piece, and
// what queryKept refuses. splitQuery (both splits) and queryKept read q
// with it, and its rules are pieceRule's, which endsKeptOrRemoved asks
// too, so that the rules are written once (issue 18). pieceRule is
// inline for "k=v" without formEq: a reader and a second function with
// the rules, two calls per piece, cost crawler-commons 47 more
// instructions per URL on web_dirty. Without keys
// the key's '=' is not looked for (k1 is end): for a caller whose rules
// read no key (queryKept: keyless).
func (n *Normalizer) nextPiece(q string, at int, rules, keys bool) (p param, w pieceWrite) {
	end := len(q)
	if i := strings.IndexByte(q[at:], '&'); i >= 0 {
		end = at + i
	}
	k1 := end
	if keys {
		k1 = keyEnd(q, at, end)
	}
	p = param{k0: uint32(at), k1: uint32(k1), end: uint32(end)}
	if rules {
		w = n.pieceRule(q, at, k1, end)
	}
	return p, w
}

// pieceRule says how the rules write the piece q[at:end], whose key ends
// at k1 (nextPiece's w): nextPiece and endsKeptOrRemoved read it. Inline
// for the most common piece, "k=v" without form encoding's '=' rule.
func (n *Normalizer) pieceRule(q string, at, k1, end int) pieceWrite {
	if k1+1 < end && !n.formEq {
		return pieceKept
	}
	return n.pieceRuleRest(q, at, k1, end)
}

// pieceRuleRest is pieceRule for the other pieces.
func (n *Normalizer) pieceRuleRest(q string, at, k1, end int) (w pieceWrite) {
	switch {
	case k1+1 < end: // "k=v", the most common first
		if n.formEq && strings.IndexByte(q[k1+1:end], '=') >= 0 {
			w = pieceRewritten // "k=a=b" written "k=a%3Db"
		}
	case at == end:
		w = pieceEmpty
	case k1 == end: // "k"
		if n.k.explicitEmpty {
			w = pieceRewritten // written "k="
		}
	case n.query.BareEmptyValue: // "k="
		w = pieceBare // written "k"
	}
	return w
}

// pieceRuleEnds is pieceRule for the loops on a query's ends
// (endsKeptOrRemoved, appendEndsKept, appendEndsSorted), without form
// encoding's test of each value for an '=' (pieceRuleRest's IndexByte, a
// call per "k=v"): it counts the pieces without an '=' in *bare, and
// after the loop its caller refuses the query, as a rewritten piece
// would, when q has more '=' than pieces with one (valueEqIn). Every other
// rule is pieceRule's: a piece that is not "k=v" goes to pieceRuleRest,
// whose IndexByte is asked only of "k=v". The count is kept there, off
// the "k=v" path: a count of every piece cost curiousnow-v0 and
// crawler-commons, without form encoding, 11 instructions per URL of
// web_dirty.
func (n *Normalizer) pieceRuleEnds(q string, at, k1, end int, bare *int) pieceWrite {
	if k1+1 < end {
		return pieceKept
	}
	if k1 == end {
		*bare++ // "" or "k"
	}
	return n.pieceRuleRest(q, at, k1, end)
}

// valueEqIn reports whether, under form encoding, a piece of q has an
// '=' in its value, given the number of pieces with an '=' (keyed:
// pieceRuleEnds's pieces but the bare ones): one count of q's '=' (SIMD
// in the runtime; for eq == noMask), or of the bits of eq, q's '='
// (queryMasks), for pieceRuleEnds's callers, in place of an IndexByte
// per piece. Such a piece is one pieceRule says the rules rewrite, which
// refuses the whole query.
func (n *Normalizer) valueEqIn(q string, keyed int, eq uint64) bool {
	if !n.formEq {
		return false
	}
	if eq != noMask {
		return bits.OnesCount64(eq) != keyed
	}
	return strings.Count(q, "=") != keyed
}

// keyEnd returns the index of the first '=' of q[at:end], or end: eight
// bytes a step (eqBytes) while they are within q, then a byte at a time.
// A key is short, and a call to IndexByte costs more than a word or two;
// the byte loop alone cost curiousnow-v0, whose keys query.remove reads,
// 17 instructions per URL of web_dirty more (issue 18; a pass that looks
// for the '&' too, in place of nextPiece's IndexByte, saved nothing).
func keyEnd(q string, at, end int) int {
	k := at
	for ; k < end && k+8 <= len(q); k += 8 {
		if m := eqBytes(le64(q[k:k+8]), '='); m != 0 {
			return min(k+bits.TrailingZeros64(m)>>3, end) // an '=' past end is the next piece's
		}
	}
	for k < end && q[k] != '=' {
		k++
	}
	return min(k, end)
}

// removes says why the rules remove the query parameter with key k:
// pagination (page), a group of groups (its reason), or not at all ("").
// query.keep overrules a group: it is asked only about a key a group
// removes (most keys are in no group). It asks matcher by matcher: the
// reference of keyRules.removes, which the reference takes
// (keyRules.perMatcher).
func (n *Normalizer) removes(groups ruleSet, k string) (reason string, page bool) {
	return removesBy(n.page, groups, n.keep, k)
}

// removesBy is removes with the matchers of pagination and query.keep
// given.
func removesBy(pageM *matcher, groups ruleSet, keep *matcher, k string) (reason string, page bool) {
	if pageM != nil && pageM.may(k) && pageM.match(k) {
		return "pagination", true
	}
	if len(groups) > 0 {
		if reason = groups.match(k); reason != "" && !(keep.may(k) && keep.match(k)) {
			return reason, false
		}
	}
	return "", false
}

// removes is removes' decision for the rules r, made once for the whole
// set: the key's bits among the exact names of every matcher (one
// lookup), or-ed with those of the matchers whose globs or regexps match
// it; then pagination wins, else the first group's reason unless
// query.keep has the key. Without why, the reason is that of a group
// that removes k, not always the first: the caller asks whether, not
// why (Normalize). The callers test r.any first (most profiles remove
// nothing: no call), then mayRemove (most keys are ruled out by the
// matchers' prefilters: no call either).
func (r *keyRules) removes(k string, why bool) (reason string, page bool) {
	if r.perMatcher {
		return removesBy(r.page, r.groups, r.keep, k)
	}
	x := r.names.bitsOf(k)
	if r.needOthers(x, why) {
		x = r.otherBits(k, x, why)
	}
	if x&keyPage != 0 {
		return "pagination", true
	}
	if g := x / keyGroup; g != 0 && x&keyKeep == 0 {
		return r.groups[bits.TrailingZeros64(g)].reason, false
	}
	return "", false
}

// needOthers reports whether removes and removed must add the others'
// bits (otherBits) to x, the bits of a key among the exact names: not
// for a key pagination has, nor one a group has and query.keep's names
// do not when the caller asks only whether (pagination's others win over
// a kept name). Inline in both: their call to otherBits is the only one.
func (r *keyRules) needOthers(x uint64, why bool) bool {
	return len(r.others) > 0 && x&keyPage == 0 && (why || x < keyGroup || x&keyKeep != 0 || r.keepOther)
}

// otherBits returns x, the bits of the key k among the exact names, with
// the bits of the matchers whose globs or regexps match k: only those that
// may change the decision (removes' why): none once pagination has k, a
// group's only when no group before it has k (with why) or no group has
// k (without), query.keep's only when a group has k. clara's session
// regexp, whose prefilter reads every key of 7 bytes or more, is then
// not run on the tracking keys its exact names remove.
func (r *keyRules) otherBits(k string, x uint64, why bool) uint64 {
	for i := range r.others {
		o := &r.others[i]
		groups := x / keyGroup // the groups that have k so far
		if why {
			groups = (x & (o.bit - 1)) / keyGroup // those before o
		}
		switch {
		case x&keyPage != 0 || o.bit == keyKeep && x/keyGroup == 0:
			return x
		case o.bit >= keyGroup && groups != 0:
			// A group that comes before o, or any without why, has k.
		case x&o.bit == 0 && o.m.may(k) && o.m.matchOther(k):
			x |= o.bit
		}
	}
	return x
}

// appendParam writes the piece p of q (nextPiece) to st.qbuf after the
// rules (appendQueryPart, query.bare_empty_value, the knobs), sets p's
// offsets into it and returns it.
func (n *Normalizer) appendParam(st *state, p *param, q string, pct bool) []byte {
	key, value, eq := q[p.k0:p.k1], "", p.k1 < p.end
	if eq {
		value = q[p.k1+1 : p.end]
	}
	p.k0 = uint32(len(st.qbuf))
	st.qbuf = n.appendQueryPart(st.qbuf, key, &n.k.form.key, pct)
	p.k1 = uint32(len(st.qbuf))
	if eq {
		st.qbuf = append(st.qbuf, '=')
		st.qbuf = n.appendQueryPart(st.qbuf, value, &n.k.form.value, pct)
		if n.query.BareEmptyValue && len(st.qbuf) == int(p.k1)+1 {
			st.qbuf = st.qbuf[:p.k1] // "k=" is written "k"
		}
	}
	p.end = uint32(len(st.qbuf))
	if n.k.paramAny {
		st.qbuf = n.k.param(st.qbuf, p)
	}
	return st.qbuf
}

// mayRemove reports whether a prefilter of the matchers that remove query
// parameters lets the key k through (compileKeyFilter): inline, where
// the call to removes costs edge-gateway and curiousnow-v0 about 50
// instructions per URL of web_dirty on keys that none lets through.
func (n *Normalizer) mayRemove(k string) bool {
	return n.keyFilter.may(k)
}

// removesBase reports whether the rules without a host rule remove the
// key k.
func (n *Normalizer) removesBase(k string) bool {
	return n.baseKeys.removed(k)
}

// removed reports whether r removes the key k: removes(k, false) gives
// a reason, decided on the same bits (needOthers) without the reason's
// load. The callers ask whether, never why: removes cost edge-gateway 49
// instructions per key its prefilter lets through, 25 per URL of
// web_dirty (issue 18).
func (r *keyRules) removed(k string) bool {
	if r.perMatcher {
		reason, _ := r.removes(k, false)
		return reason != ""
	}
	x := r.names.bitsOf(k)
	if r.needOthers(x, false) {
		x = r.otherBits(k, x, false)
	}
	return x&keyPage != 0 || x >= keyGroup && x&keyKeep == 0
}

// cmpBare orders parameters whose keys and values compare equal: "k"
// before "k=", one order for both inputs.
func cmpBare(a, c param) int {
	switch ea, ec := a.end > a.k1, c.end > c.k1; {
	case ea == ec:
		return 0
	case ec:
		return -1
	}
	return 1
}

// value returns the parameter's value in qbuf ("" without '=').
func (p param) value(qbuf []byte) []byte {
	return qbuf[min(p.k1+1, p.end):p.end]
}

// appendQueryPart appends a key or a value; raw is the form set of keys
// or values, pct whether the query has a '%' the percent rules read.
func (n *Normalizer) appendQueryPart(dst []byte, s string, raw *[256]bool, pct bool) []byte {
	switch {
	case n.query.FormEncoding:
		return appendForm(dst, s, raw, n.k.form.space)
	case pct:
		return n.appendPct(dst, s)
	}
	return append(dst, s...)
}

// appendForm form-decodes s ('+' is a space, %XX a byte) and re-encodes it:
// bytes in raw (unreserved, and query.form_raw) as is, space as space
// ('+' or "%20"), everything else as %XX.
func appendForm(dst []byte, s string, raw *[256]bool, space string) []byte {
	// The leading bytes written as they are, in one copy: raw never has
	// '+' nor '%' (formRawAllowed), so none of them is decoded.
	i := 0
	for i < len(s) && raw[s[i]] {
		i++
	}
	dst = append(dst, s[:i]...)
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '+':
			c = ' '
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			c = unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
		}
		switch {
		case raw[c]:
			dst = append(dst, c)
		case c == ' ':
			dst = append(dst, space...)
		default:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		}
	}
	return dst
}

// sortParams orders ps (offsets into b) by the profile's query order. Stable: equal
// keys keep their order (OrderKey).
func (n *Normalizer) sortParams(ps []param, b []byte) {
	order := n.order
	if len(ps) < 2 || order == nil {
		return
	}
	if len(ps) <= min(n.inlineSort, maxSortPairs) && n.pairQ {
		sortPairs(ps, b)
		return
	}
	cmp := func(a, c param) int { return order(b, a, c) }
	if len(ps) <= n.inlineSort {
		for i := 1; i < len(ps); i++ {
			for j := i; j > 0 && cmp(ps[j], ps[j-1]) < 0; j-- {
				ps[j], ps[j-1] = ps[j-1], ps[j]
			}
		}
		return
	}
	slices.SortStableFunc(ps, cmp)
}

// orderOf returns the comparison of parameters written in b that query
// order sorts by (pair, key_value or key; decoded under
// query.sort_decoded), or nil for an order that keeps them as they are.
// sortParams and queryKept both use it.
func (n *Normalizer) orderOf(order string) func(b []byte, a, c param) int {
	switch {
	case order != OrderPair && order != OrderKeyValue && order != OrderKey:
		return nil
	case n.k.sortDecoded:
		return n.cmpDecodedParams
	case order == OrderPair:
		return cmpPair
	case order == OrderKeyValue:
		return cmpKeyValue
	}
	return cmpKey
}

// cmpPair orders "key=value" (or "key") bytewise: the pairs as written.
// It is the reference of the pair order: sortPairs and pairLess decide
// most pairs by their first 8 bytes (pairWord) and ask it about the rest.
func cmpPair(b []byte, a, c param) int { return bytes.Compare(b[a.k0:a.end], b[c.k0:c.end]) }

// outOfOrder reports whether the parameter c, which follows a, comes
// before it in the profile's order (not nil).
func (n *Normalizer) outOfOrder(b []byte, a, c param) bool {
	if n.pairQ {
		return pairLess(b, c, a)
	}
	return n.order(b, a, c) > 0
}

// pairWord returns the first 8 bytes of the pair b[k0:end] as a
// big-endian word, padded with zero bytes past its end. Two pairs whose
// words differ are in the order of their words: at the first byte that
// differs either both have a byte, or the one that has none (a zero) is
// a prefix of the other and comes first, as in bytes.Compare, whatever
// the bytes are; pairs whose words are equal need cmpPair. On default's
// web_dirty most pairs differ in their first 8 bytes ("a=1", "m=13",
// "utm_term", "gclid"), where a call to bytes.Compare and its setup cost
// more than the words.
func pairWord(b []byte, k0, end uint32) uint64 {
	if int(k0)+8 > len(b) {
		return pairWordEnd(b, k0, end)
	}
	return binary.BigEndian.Uint64(b[k0:]) &^ (^uint64(0) >> (8 * (end - k0))) // the pair's bytes only (a shift of 64 or more is 0)
}

// pairWordEnd is pairWord for a pair in b's last 8 bytes.
func pairWordEnd(b []byte, k0, end uint32) uint64 {
	var w uint64
	if i := int(k0); len(b) >= 8 { // the word that ends b, its bytes before b[i] shifted out
		w = binary.BigEndian.Uint64(b[len(b)-8:]) << (8 * uint(i+8-len(b)))
	} else {
		for j := i; j < len(b); j++ {
			w |= uint64(b[j]) << (56 - 8*uint(j-i))
		}
	}
	return w &^ (^uint64(0) >> (8 * (end - k0)))
}

// pairLess reports whether the pair a comes before the pair c (cmpPair).
func pairLess(b []byte, a, c param) bool {
	return pairBefore(b, a, c, pairWord(b, a.k0, a.end), pairWord(b, c.k0, c.end))
}

// pairBefore is pairLess on the pairs' words wa and wc (pairWord).
func pairBefore(b []byte, a, c param, wa, wc uint64) bool {
	return wa < wc || wa == wc && pairTie(b, a, c)
}

// pairTie is cmpPair(b, a, c) < 0 in a call, so that pairBefore inlines
// into the sorts' loops (with bytes.Compare inline it did not: a call per
// comparison).
//
//go:noinline
func pairTie(b []byte, a, c param) bool { return cmpPair(b, a, c) < 0 }

// maxSortPairs is the most pairs sortPairs sorts (its words are on the
// stack); inlineSort is 12.
const maxSortPairs = 16

// sortPairs sorts ps (offsets into b; at most inlineSort of them) by
// cmpPair, by insertion, stable: each pair's word is read once, and
// cmpPair is asked only about pairs whose words are equal.
func sortPairs(ps []param, b []byte) {
	var buf [maxSortPairs]uint64
	ws := buf[:len(ps)]
	for i := range ps {
		ws[i] = pairWord(b, ps[i].k0, ps[i].end)
	}
	for i := 1; i < len(ps); i++ {
		p, w := ps[i], ws[i]
		j := i
		for ; j > 0 && pairBefore(b, p, ps[j-1], w, ws[j-1]); j-- {
			ps[j], ws[j] = ps[j-1], ws[j-1]
		}
		ps[j], ws[j] = p, w
	}
}

// cmpKey orders by key only (a stable sort keeps equal keys in order).
func cmpKey(b []byte, a, c param) int { return bytes.Compare(b[a.k0:a.k1], b[c.k0:c.k1]) }

// cmpKeyValue orders by key, then value, then "k" before "k=".
func cmpKeyValue(b []byte, a, c param) int {
	if r := bytes.Compare(b[a.k0:a.k1], b[c.k0:c.k1]); r != 0 {
		return r
	}
	if r := bytes.Compare(a.value(b), c.value(b)); r != 0 {
		return r
	}
	return cmpBare(a, c)
}

// cmpDecodedParams orders parameters by their decoded keys (and values,
// for order key_value) under query.sort_decoded.
func (n *Normalizer) cmpDecodedParams(b []byte, a, c param) int {
	plus := n.query.FormEncoding
	r := cmpDecoded(bstr(b[a.k0:a.k1]), bstr(b[c.k0:c.k1]), plus)
	if r != 0 || n.query.Order != OrderKeyValue {
		return r
	}
	if r = cmpDecoded(bstr(a.value(b)), bstr(c.value(b)), plus); r != 0 {
		return r
	}
	return cmpBare(a, c)
}

// queryKept reports whether the profile's query rules write each
// parameter of the query q of a verbatim URL (no byte the URL Standard
// encodes; no per-host rule) as it is or remove it, without writing it
// anywhere: every piece one that nextPiece says the rules keep (the rules
// the direct split reads: no empty parameter, no "k=" under
// bare_empty_value nor "k" under explicit_empty_value, no '=' that form
// encoding encodes in a value), and every byte one that the rules keep
// (queryTab: no '%', whose escapes are the percent rules' and form
// decoding's); and whether the rules change q (rewrite: a key that
// query.remove or pagination removes, or parameters not in the profile's
// order; appendKept then writes what they keep, in order). Otherwise the
// general path decides (appendQuery, its reference). compileQueryKept
// says for which profiles it is asked.
func (n *Normalizer) queryKept(q string, kp *keptPieces) (ok, rewrite bool, removed uint64) {
	if !n.keylessQ && uint(len(q)-8) < maxMaskLen-8 {
		if ok, rewrite, removed, done := n.masksKeptOrRemoved(q, &n.queryTab, kp); done {
			return ok, rewrite, removed
		}
	}
	if n.page != nil || len(n.base) > 0 {
		ok, rewrite, removed = n.piecesKeptOrRemoved(q, kp)
	} else {
		ok, rewrite = n.piecesKept(q, kp)
	}
	if !ok {
		return false, false, 0
	}
	if !n.directScan {
		// q has only bytes of vQuery (the verbatim scan took it), and without
		// form encoding and query.lowercase queryTab is vQuery without '%'
		// (compileQueryKept): the runtime's IndexByte says what the table
		// would, where spanOK reads a profile's table a byte at a time (no
		// nibbleSet; TestQueryTabIsVQueryWithoutPct).
		return strings.IndexByte(q, '%') < 0, rewrite, removed
	}
	return spanSet(q, &n.queryTab, n.querySet) == len(q), rewrite, removed
}

// piecesKept is queryKept's test of the pieces for rules that remove no
// parameter: each one nextPiece says they keep, and whether they are out
// of the profile's order (rewrite). For keyless rules, on a query of up
// to maxAmpPieces pieces and less than 64 KiB, the pieces are found in one
// pass (ampEnds), and those out of order are sorted into kp (endsKept).
func (n *Normalizer) piecesKept(q string, kp *keptPieces) (ok, rewrite bool) {
	if len(q) <= maxKeptLen {
		var ends [maxAmpPieces]uint32
		if k := ampEnds(q, &ends); k > 0 {
			if n.keylessQ {
				return n.endsKept(q, ends[:k], kp)
			}
			ok, rewrite, _ = n.endsKeptOrRemoved(q, ends[:k], kp) // removes nothing
			return ok, rewrite
		}
	}
	b := unsafe.Slice(unsafe.StringData(q), len(q))
	var prev param
	keys := !n.keylessQ
	for at := 0; at <= len(q); {
		p, w := n.nextPiece(q, at, true, keys)
		if w != pieceKept {
			return false, false // dropped, cut or rewritten
		}
		if !rewrite && at > 0 && n.order != nil && n.outOfOrder(b, prev, p) {
			rewrite = true
		}
		prev, at = p, int(p.end)+1
	}
	return true, rewrite
}

// maxAmpPieces is the most pieces ampEnds splits a query into (their ends
// are on the stack); a longer query is read piece by piece (nextPiece).
const maxAmpPieces = 16

// ampEnds writes the ends of the pieces of q (nextPiece's: the offset of
// each '&', then len(q)) to ends and returns how many there are, or 0
// when there are more than maxAmpPieces. One pass, eight bytes a step
// (eqBytes), for rules that read no key (keyless): nextPiece's
// IndexByte, a call per piece twice per query (piecesKept, appendKept),
// cost default ~90 instructions per sorted query of web_dirty.
func ampEnds(q string, ends *[maxAmpPieces]uint32) int {
	k, i := 0, 0
	for ; i+8 <= len(q); i += 8 {
		for m := eqBytes(le64(q[i:i+8]), '&'); m != 0; m &= m - 1 {
			if k == maxAmpPieces-1 {
				return 0 // no room left for the last piece's end
			}
			ends[k] = uint32(i + bits.TrailingZeros64(m)>>3)
			k++
		}
	}
	if i < len(q) && len(q) >= 8 {
		// The last bytes: the word that ends q, the bytes before q[i]
		// shifted out (zeros come in, never '&'), where a byte loop
		// mispredicted its exits: 0.54 (default) to 0.63 (edge-gateway)
		// fewer mispredicted branches per URL of web_dirty, 2 more
		// instructions (cachegrind --branch-sim, issue 18).
		for m := eqBytes(le64(q[len(q)-8:])>>(8*(i+8-len(q))), '&'); m != 0; m &= m - 1 {
			if k == maxAmpPieces-1 {
				return 0
			}
			ends[k] = uint32(i + bits.TrailingZeros64(m)>>3)
			k++
		}
		i = len(q)
	}
	for ; i < len(q); i++ {
		if q[i] == '&' {
			if k == maxAmpPieces-1 {
				return 0
			}
			ends[k] = uint32(i)
			k++
		}
	}
	ends[k] = uint32(len(q))
	return k + 1
}

// maxKeptLen is the longest query whose pieces keptPieces holds (16-bit
// offsets).
const maxKeptLen = 1<<16 - 1

// keptPieces is a verbatim query's kept pieces in the profile's order,
// as piecesKept or piecesKeptOrRemoved sorted them (endsKept,
// endsKeptOrRemoved), for appendKept to copy: the split and the sort are
// made once, where appendKept made them again (ampEnds, the words, the
// sort: ~500 instructions per reordered URL of default's web_dirty). n
// is 0 when there are none (appendKept splits the query).
type keptPieces struct {
	n  uint8
	at [maxAmpPieces][2]uint16 // start and end of each piece, in order
}

// set makes kp the pieces whose keys are ks (endsKept), in ks's order,
// of the query whose pieces end at ends.
func (kp *keptPieces) set(ends []uint32, ks []uint64) {
	for j, x := range ks {
		p := pieceAt(ends, x&0xFF)
		kp.at[j] = [2]uint16{uint16(p.k0), uint16(p.end)}
	}
	kp.n = uint8(len(ks))
}

// endsKept is piecesKept for keyless rules, on the ends of q's pieces
// (ampEnds): nextPiece says such rules keep every piece but an empty one,
// and their order is pair or none (keyless). Each piece has a key: its
// first 7 bytes (pairWord) and its index in the low byte, so that most
// pieces are ordered by comparing two integers (keyBefore); pieces out of
// order are sorted into kp (sortKeys).
func (n *Normalizer) endsKept(q string, ends []uint32, kp *keptPieces) (ok, rewrite bool) {
	b := unsafe.Slice(unsafe.StringData(q), len(q))
	var keys [maxAmpPieces]uint64
	sorted := n.order != nil
	at := uint32(0)
	for i, e := range ends {
		if e == at {
			return false, false // "": dropped (drop_empty_pairs) or written as it is, which the general path decides
		}
		if sorted {
			keys[i] = pairWord(b, at, e)&^0xFF | uint64(i)
		}
		at = e + 1
	}
	if ks := keys[:len(ends)]; sorted && n.sortKeys(b, ends, ks) {
		kp.set(ends, ks)
		return true, true
	}
	return true, false
}

// keyBefore reports whether the piece whose key is x (endsKept,
// endsKeptOrRemoved) comes before the one whose key is y in the profile's
// order (n.order: pair, or key and key_value without sort_decoded, whose
// keys are the first 7 bytes of the piece's key, not of the pair): by
// their first 7 bytes when they differ there (pairWord's argument, on 7
// bytes), else by n.order.
func (n *Normalizer) keyBefore(b []byte, ends []uint32, x, y uint64) bool {
	if (x^y)>>8 != 0 {
		return x < y
	}
	return n.keyTie(b, ends, x, y)
}

// keyTie is keyBefore for keys whose 7 bytes are equal, in a call, so
// that keyBefore inlines into the loops. The order is the profile's:
// cmpPair for keyless rules, else an order that reads the keys' ends.
//
//go:noinline
func (n *Normalizer) keyTie(b []byte, ends []uint32, x, y uint64) bool {
	a, c := pieceAt(ends, x&0xFF), pieceAt(ends, y&0xFF)
	if !n.keylessQ {
		a.k1, c.k1 = uint32(keyEnd(bstr(b), int(a.k0), int(a.end))), uint32(keyEnd(bstr(b), int(c.k0), int(c.end)))
	}
	return n.order(b, a, c) < 0
}

// pieceAt returns the piece i of the query whose pieces end at ends.
func pieceAt(ends []uint32, i uint64) param {
	k0 := uint32(0)
	if i > 0 {
		k0 = ends[i-1] + 1
	}
	return param{k0: k0, k1: ends[i], end: ends[i]}
}

// sortKeys sorts the keys ks of the pieces of b (endsKept) by keyBefore,
// by insertion, stable (a piece moves only before one it comes before),
// and reports whether they were out of order. The keys before the first
// one out of order are sorted already: the insertion starts there, and
// keys in order cost one keyBefore each, with no store.
func (n *Normalizer) sortKeys(b []byte, ends []uint32, ks []uint64) (moved bool) {
	i := 1
	for i < len(ks) && !n.keyBefore(b, ends, ks[i], ks[i-1]) {
		i++
	}
	if i >= len(ks) {
		return false
	}
	for ; i < len(ks); i++ {
		x := ks[i]
		j := i
		for ; j > 0 && n.keyBefore(b, ends, x, ks[j-1]); j-- {
			ks[j] = ks[j-1]
		}
		ks[j] = x
	}
	return true
}

// appendEnds is appendQuery's direct split for keyless rules without
// query.remove groups, on the ends of q's pieces (ampEnds): '?' and the
// pieces, without the empty ones under query.drop_empty_pairs, in the
// profile's order (pair: the keys of endsKept, sortKeys), or nothing
// when nothing would follow the '?' under query.drop_empty. It is what
// splitQuery, sortParams and appendParams write for such rules (each
// piece as it is: keyless), without a call to IndexByte per piece
// (nextPiece), params or words (general-path URLs with a query of
// default's web_dirty: ~300 instructions).
func (n *Normalizer) appendEnds(out []byte, q string, ends []uint32) []byte {
	b := unsafe.Slice(unsafe.StringData(q), len(q))
	var keys [maxAmpPieces]uint64
	ks := keys[:0]
	at := uint32(0)
	for i, e := range ends {
		if e > at || !n.query.DropEmptyPairs {
			ks = append(ks, pairWord(b, at, e)&^0xFF|uint64(i))
		}
		at = e + 1
	}
	if n.query.DropEmpty && (len(ks) == 0 || len(ks) == 1 && q == "") {
		return out // no parameter, or the one empty piece of ""
	}
	if n.order != nil {
		n.sortKeys(b, ends, ks)
	}
	out = append(out, '?')
	for i, x := range ks {
		if i > 0 {
			out = append(out, '&')
		}
		p := pieceAt(ends, x&0xFF)
		out = append(out, q[p.k0:p.end]...)
	}
	return out
}

// appendEndsKept is appendQuery's direct split for rules that keep the
// order (query.order none or keep) and read keys (query.remove,
// pagination, the piece rules), on the ends of q's pieces (ampEnds), for
// a caller that does not record removals (Normalize; appendEndsSorted for
// the orders that sort): what splitQuery and
// appendParams write for such rules (each piece as it is, "k=" cut to
// "k" under bare_empty_value, empty ones dropped under drop_empty_pairs,
// removed ones left out), without a call to nextPiece and IndexByte per
// piece nor a list of params (clara's general-path URLs with a query
// cost ~120 instructions per URL of web_dirty in splitQuery and
// nextPiece). ok is false, and out as it was, when a piece is one the
// rules rewrite (pieceRewritten): splitQuery copies it.
func (n *Normalizer) appendEndsKept(out []byte, q string, ends []uint32, eq uint64, rules *keyRules) (_ []byte, ok bool) {
	start := len(out)
	out = append(slices.Grow(out, 1+len(q)), '?') // at most: '?' and q
	written, lastEmpty := 0, false
	at, bare := 0, 0
	for _, e32 := range ends {
		a, e := at, int(e32)
		at = e + 1
		k1 := keyEndIn(q, a, e, eq)
		switch n.pieceRuleEnds(q, a, k1, e, &bare) {
		case pieceRewritten:
			return out[:start], false
		case pieceBare:
			e = k1 // "k=" is written "k"
		}
		if a == e && n.query.DropEmptyPairs {
			continue // "&&", or "=" cut to "" (query.drop_empty_pairs)
		}
		if k := q[a:k1]; rules.any && n.mayRemove(k) {
			if rules.removed(k) {
				continue
			}
		}
		if written > 0 {
			out = append(out, '&')
		}
		out = append(out, q[a:e]...)
		written, lastEmpty = written+1, a == e
	}
	if n.valueEqIn(q, len(ends)-bare, eq) {
		return out[:start], false // rewritten
	}
	if n.query.DropEmpty && (written == 0 || written == 1 && lastEmpty) {
		return out[:start], true // nothing would follow the '?'
	}
	return out, true
}

// appendEndsSorted is appendEndsKept for rules that sort (query.order
// pair, key, key_value; not sort_decoded, endsKeyed): what splitQuery,
// sortParams and appendParams write, the kept pieces keyed and sorted as
// in endsKeptOrRemoved (sortKeys, whose ties compare whole pieces:
// endsKeyed leaves out the orders a "k=" cut to "k" would change), then
// written: edge-gateway, curiousnow-v0 and crawler-commons 13 to 16
// instructions per URL of web_dirty fewer than splitQuery and
// sortParams. Apart from appendEndsKept, which writes each piece as it
// reads it: this one for order none too cost clara 27 more.
func (n *Normalizer) appendEndsSorted(out []byte, q string, ends []uint32, eq uint64, rules *keyRules) (_ []byte, ok bool) {
	b := unsafe.Slice(unsafe.StringData(q), len(q))
	var keys [maxAmpPieces]uint64
	ks := keys[:0]
	var cut uint32 // bit i: piece i is "k=" written "k"
	pair, lastEmpty := n.pairQ, false
	at, bare := 0, 0
	for i, e32 := range ends {
		a, e := at, int(e32)
		at = e + 1
		k1 := keyEndIn(q, a, e, eq)
		switch n.pieceRuleEnds(q, a, k1, e, &bare) {
		case pieceRewritten:
			return out, false
		case pieceBare:
			e, cut = k1, cut|1<<i // "k=" is written "k"
		}
		if a == e && n.query.DropEmptyPairs {
			continue // "&&", or "=" cut to "" (query.drop_empty_pairs)
		}
		if k := q[a:k1]; rules.any && n.mayRemove(k) {
			if rules.removed(k) {
				continue
			}
		}
		we := k1 // key, key_value: the key's bytes
		if pair {
			we = e
		}
		ks, lastEmpty = append(ks, pairWord(b, uint32(a), uint32(we))&^0xFF|uint64(i)), a == e
	}
	if n.valueEqIn(q, len(ends)-bare, eq) {
		return out, false // rewritten
	}
	if n.query.DropEmpty && (len(ks) == 0 || len(ks) == 1 && lastEmpty) {
		return out, true // nothing would follow the '?'
	}
	n.sortKeys(b, ends, ks)
	out = append(slices.Grow(out, 1+len(q)), '?') // at most: '?' and q
	for j, x := range ks {
		if j > 0 {
			out = append(out, '&')
		}
		p := pieceAt(ends, x&0xFF)
		if cut>>(x&0xFF)&1 != 0 {
			p.end = uint32(keyEnd(q, int(p.k0), int(p.end)))
		}
		out = append(out, q[p.k0:p.end]...)
	}
	return out, true
}

// appendPieces appends '?' and the pieces of q that kp holds, joined by '&'.
func appendPieces(dst []byte, q string, kp *keptPieces) []byte {
	for i, p := range kp.at[:kp.n] {
		c := byte('&')
		if i == 0 {
			c = '?'
		}
		dst = append(dst, c)
		dst = append(dst, q[p[0]:p[1]]...)
	}
	return dst
}

// piecesKeptOrRemoved is piecesKept for rules that remove parameters
// (query.remove, pagination): a piece they remove is marked in removed
// (bit i: piece i; a removal past the 64th piece refuses the query) and
// is not compared for the order. On a query of up to maxAmpPieces pieces
// and less than 64 KiB, the pieces are found in one pass (ampEnds) and
// those kept are put in order into kp (endsKeptOrRemoved).
func (n *Normalizer) piecesKeptOrRemoved(q string, kp *keptPieces) (ok, rewrite bool, removed uint64) {
	if len(q) <= maxKeptLen {
		var ends [maxAmpPieces]uint32
		if k := ampEnds(q, &ends); k > 0 {
			return n.endsKeptOrRemoved(q, ends[:k], kp)
		}
	}
	b := unsafe.Slice(unsafe.StringData(q), len(q))
	var prev param
	kept := false // prev is a kept parameter
	keys := !n.keylessQ
	for at, bit := 0, uint64(1); at <= len(q); bit <<= 1 {
		p, w := n.nextPiece(q, at, true, keys)
		if w != pieceKept {
			return false, false, 0 // dropped, cut or rewritten
		}
		at = int(p.end) + 1
		if k := q[p.k0:p.k1]; n.mayRemove(k) && n.removesBase(k) {
			if bit == 0 {
				return false, false, 0 // past removed's 64 bits
			}
			removed |= bit // a key with bytes the rules change fails queryKept's byte test
			rewrite = true
			continue
		}
		if !rewrite && kept && n.order != nil && n.outOfOrder(b, prev, p) {
			rewrite = true
		}
		prev, kept = p, true
	}
	return true, rewrite, removed
}

// endsKeptOrRemoved is piecesKeptOrRemoved on the ends of q's pieces
// (ampEnds), and piecesKept's test for rules that read keys (w3lib):
// each piece's key is read (keyEnd), its rules asked (pieceRule; a piece
// not kept as it is refuses the query, as in piecesKeptOrRemoved) and,
// when the rules remove parameters, its removal (mayRemove, removesBase).
// The kept pieces are keyed as in endsKept, by the first 7 bytes of the
// pair (pair order) or of the key (key, key_value), and when one is
// removed or out of order, put in order into kp (sortKeys) for
// appendKept to copy, where it split q again and sorted params
// (sortParams). None kept: kp is left empty, and appendKept reads
// removed. The keys' bytes decide every order orderOf returns, under
// sort_decoded too: queryKept takes no '%' (queryTab), and a '+' only
// where sort_decoded does not read it as a space (compileQueryKept's
// plus), so that in a query it takes the decoded bytes are the bytes; a
// query with other bytes fails its byte test, whatever the order said.
func (n *Normalizer) endsKeptOrRemoved(q string, ends []uint32, kp *keptPieces) (ok, rewrite bool, removed uint64) {
	b := unsafe.Slice(unsafe.StringData(q), len(q))
	var keys [maxAmpPieces]uint64
	ks := keys[:0]
	pair, removal, sorted := n.pairQ, n.baseKeys.any, n.order != nil
	at, bare := 0, 0
	for i, e32 := range ends {
		e := int(e32)
		k1 := keyEnd(q, at, e)
		if n.pieceRuleEnds(q, at, k1, e, &bare) != pieceKept {
			return false, false, 0 // dropped, cut or rewritten
		}
		if k := q[at:k1]; removal && n.mayRemove(k) && n.removesBase(k) {
			removed |= 1 << i // a key with bytes the rules change fails queryKept's byte test
		} else {
			x := uint64(i) // order keep: the index alone
			if sorted {
				we := k1 // key, key_value: the key's bytes
				if pair {
					we = e
				}
				x |= pairWord(b, uint32(at), uint32(we)) &^ 0xFF
			}
			ks = append(ks, x)
		}
		at = e + 1
	}
	if n.valueEqIn(q, len(ends)-bare, noMask) {
		return false, false, 0 // rewritten
	}
	rewrite = removed != 0
	if sorted && n.sortKeys(b, ends, ks) {
		rewrite = true
	}
	if rewrite {
		kp.set(ends, ks)
	}
	return true, rewrite, removed
}

// maxMaskLen bounds the queries whose '&' and '=' queryMasks finds: one
// bit each in a word, and the bit of the end, len(q), too.
const maxMaskLen = 64

// queryMasksSWAR is queryMasks eight bytes a step (eqBytes, byteBits).
func queryMasksSWAR(q string) (amp, eq uint64) {
	i := 0
	for ; i+8 <= len(q); i += 8 {
		w := le64(q[i:])
		amp |= byteBits(eqBytes(w, '&')) << i
		eq |= byteBits(eqBytes(w, '=')) << i
	}
	if i < len(q) && len(q) >= 8 {
		w, at := le64(q[len(q)-8:]), len(q)-8 // the word that ends q: its bytes before q[i] were read already
		amp |= byteBits(eqBytes(w, '&')) << at
		eq |= byteBits(eqBytes(w, '=')) << at
		i = len(q)
	}
	for ; i < len(q); i++ {
		amp |= uint64(b2u(q[i] == '&')) << i
		eq |= uint64(b2u(q[i] == '=')) << i
	}
	return amp, eq
}

// byteBits gathers the high bits of the bytes of m (eqBytes: 0x80 or 0)
// into its low byte, bit j for byte j: the multiply moves byte j's bit to
// bit 56+j, and no two products meet.
func byteBits(m uint64) uint64 { return (m >> 7) * 0x0102040810204080 >> 56 }

// b2u is 1 for true, 0 for false.
func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// masksKeptOrRemoved is queryKept for rules that read keys, on a query
// of 8 to maxMaskLen-1 bytes: endsKeptOrRemoved and queryKept's byte
// test (the bytes of tab, queryTab; nil: none) in one read of q's bytes
// (queryMasks: its '&', its '=' and the bytes tab does not take); done
// is false, and nothing said, for a query of more than maxAmpPieces
// pieces (as ampEnds). A piece's end is the next bit of amp, its key's end the next bit
// of eq (keyEnd's call per piece, after which the loop reloaded its
// values from the stack), its key word is read inline (pairWord's call),
// and form encoding's '=' in a value is one count of eq's bits
// (valueEqIn, in place of strings.Count). A call of queryKept's, not in
// it: there it cost default, which reads no key, 4 instructions per URL
// of web_dirty (a larger frame).
func (n *Normalizer) masksKeptOrRemoved(q string, tab *[256]uint8, kp *keptPieces) (ok, rewrite bool, removed uint64, done bool) {
	amp, eq, other := queryMasks(q, tab, n.querySet)
	if bits.OnesCount64(amp) >= maxAmpPieces {
		return false, false, 0, false
	}
	if other != 0 {
		return false, false, 0, true // a byte the rules change
	}
	b := unsafe.Slice(unsafe.StringData(q), len(q))
	var ends [maxAmpPieces]uint32
	var keys [maxAmpPieces]uint64
	pair, removal, sorted := n.pairQ, n.baseKeys.any, n.order != nil
	at, bare, i, k := 0, 0, 0, 0
	for rest := amp | 1<<len(q); rest != 0; i++ {
		e := bits.TrailingZeros64(rest)
		rest &= rest - 1
		ends[i&(maxAmpPieces-1)] = uint32(e)
		k1 := min(at+bits.TrailingZeros64(eq>>(at&63)), e)
		if k1+1 >= e && n.pieceRuleEnds(q, at, k1, e, &bare) != pieceKept {
			return false, false, 0, true // dropped, cut or rewritten
		}
		if removal && n.mayRemove(q[at:k1]) && n.removesBase(q[at:k1]) {
			removed |= 1 << i // a key with bytes the rules change fails queryKept's byte test
		} else {
			x := uint64(i) // order keep: the index alone
			if sorted {
				we := k1 // key, key_value: the key's bytes
				if pair {
					we = e
				}
				x |= wordAt(b, at) &^ (^uint64(0) >> (8 * uint(we-at))) &^ 0xFF // pairWord's (a shift of 64 or more is 0)
			}
			keys[k&(maxAmpPieces-1)] = x
			k++
		}
		at = e + 1
	}
	if n.valueEqIn(q, i-bare, eq) {
		return false, false, 0, true // a value's '='
	}
	rewrite = removed != 0
	if sorted && n.sortKeys(b, ends[:i], keys[:k]) {
		rewrite = true
	}
	if rewrite {
		kp.set(ends[:i], keys[:k])
	}
	return true, rewrite, removed, true
}

// wordAt returns the 8 bytes of b from at (at most len(b)), big-endian,
// zeros past b's end (pairWord's word, before its mask), for a b of 8
// bytes or more: the word that ends b, shifted, when at is in its last 8
// bytes; inline, where pairWord is a call.
func wordAt(b []byte, at int) uint64 {
	j := min(at, len(b)-8)
	return binary.BigEndian.Uint64(b[j:j+8]) << (8 * uint(at-j)) // a shift of 64 is 0
}

// noMask is appendEndsKept's and appendEndsSorted's eq for a query whose
// '=' queryMasks did not find: all ones, which no mask of a query shorter
// than maxMaskLen is (its bit 63 is past the query).
const noMask = ^uint64(0)

// keyEndIn is keyEnd(q, at, end) for the pieces of a query whose '=' are
// the bits of eq (queryMasks), or keyEnd itself for eq == noMask.
func keyEndIn(q string, at, end int, eq uint64) int {
	if eq != noMask {
		return min(at+bits.TrailingZeros64(eq>>(at&63)), end)
	}
	return keyEnd(q, at, end)
}

// maskEnds writes the ends of the pieces of a query of n bytes whose '&'
// are the bits of amp (fewer than maxAmpPieces) to ends, as ampEnds, and
// returns how many there are.
func maskEnds(amp uint64, n int, ends *[maxAmpPieces]uint32) int {
	k := 0
	for rest := amp | 1<<n; rest != 0; rest &= rest - 1 {
		ends[k&(maxAmpPieces-1)] = uint32(bits.TrailingZeros64(rest))
		k++
	}
	return k
}

// keyless reports whether queryKept and the direct split (splitQuery,
// without groups) may read a query's pieces without their keys
// (nextPiece: k1 is the piece's end): no rule of nextPiece's
// that reads the '=' (a value's '=' under form encoding, "k=" under
// bare_empty_value; under explicit_empty_value every piece would read as
// "k", which it refuses: right, but every query would leave the
// shortcut), no key to match (query.remove, pagination), and an order
// that compares whole pieces (pair, as written; sort_decoded is refused
// with pair, and reads keys) or none. default's rules: −28 instructions
// per SQL row (the key loop was 68).
func (n *Normalizer) keyless() bool {
	return !n.formEq && !n.k.explicitEmpty && !n.query.BareEmptyValue && n.page == nil && len(n.base) == 0 &&
		(n.order == nil || n.query.Order == OrderPair && !n.k.sortDecoded)
}

// appendKept appends the query q, whose parameters queryKept says the
// rules write as they are or remove (removed: bit i for parameter i),
// as the rules write it: '?' and the kept parameters in the profile's
// order, or nothing when none is left and the rules drop an empty query
// (query.drop_empty). The parameters are the pieces of q (nextPiece;
// queryKept refused an empty piece and one the rules rewrite or cut, so
// appendQuery's direct split would keep each piece as it is: no rule is
// read again, as splitQuery would, 338 instructions per reordered URL of
// web_dirty) sorted by sortParams (stable: equal keys keep their order),
// as the general path would; or, when queryKept sorted them (kp.n > 0:
// endsKept, endsKeptOrRemoved), the pieces kp holds.
func (n *Normalizer) appendKept(dst []byte, q string, removed uint64, kp *keptPieces) []byte {
	if kp.n > 0 {
		return appendPieces(dst, q, kp) // sorted by piecesKept
	}
	var buf [16]param // on the stack: a longer query allocates its list
	ps := buf[:0]
	keys := !n.keylessQ                        // the order may read keys
	for at := 0; at <= len(q); removed >>= 1 { // removed's low bit: this piece's
		p, _ := n.nextPiece(q, at, false, keys)
		at = int(p.end) + 1
		if removed&1 == 0 {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 && n.query.DropEmpty {
		return dst
	}
	b := unsafe.Slice(unsafe.StringData(q), len(q)) // read only
	n.sortParams(ps, b)
	return appendParams(append(dst, '?'), ps, b)
}

// spanOther is queryMasks' other by spanSet: the bit of q's first byte
// that is not vOK in tab, 0 when there is none or tab is nil.
func spanOther(q string, tab *[256]uint8, set *nibbleSet) uint64 {
	if tab == nil {
		return 0
	}
	if i := spanSet(q, tab, set); i < len(q) {
		return 1 << (i & 63)
	}
	return 0
}
