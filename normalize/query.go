package normalize

import (
	"sort"
	"strconv"
	"strings"
)

// param is one query parameter, as ranges of state.qbuf.
type param struct {
	k0, k1, v0, v1 int32
	eq             bool
}

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
		q = st.decodeComponent(q, set)
	}
	if len(q) >= n.maxParams && strings.Count(q, "&") >= n.maxParams {
		return out, st.p.fail(KindTooManyParams, "more than "+strconv.Itoa(n.maxParams)+" query parameters", "", "limits.max_params "+strconv.Itoa(n.maxParams))
	}
	if !n.needParams {
		if q == "" && n.query.DropEmpty {
			return out, nil
		}
		out = append(out, '?')
		return n.appendPct(out, q), nil
	}
	groups := n.base
	if hr != nil {
		groups = hr.groups
		for i := range hr.paths {
			if hr.paths[i].match(bstr(path)) {
				groups = hr.paths[i].groups
				break
			}
		}
	}
	st.qbuf = st.qbuf[:0]
	st.params = st.params[:0]
	for rest, more := q, true; more; {
		piece := rest
		if i := strings.IndexByte(rest, '&'); i >= 0 {
			piece, rest = rest[:i], rest[i+1:]
		} else {
			more = false
		}
		if piece == "" && n.query.DropEmptyPairs {
			continue
		}
		key, value, eq := strings.Cut(piece, "=")
		var p param
		p.k0 = int32(len(st.qbuf))
		st.qbuf = n.appendQueryPart(st.qbuf, key, &n.k.form.key)
		p.k1 = int32(len(st.qbuf))
		st.qbuf = n.appendQueryPart(st.qbuf, value, &n.k.form.value)
		p.v1 = int32(len(st.qbuf))
		p.v0 = p.k1
		p.eq = eq && !(n.query.BareEmptyValue && p.v0 == p.v1)
		if n.k.paramAny {
			n.k.param(st.qbuf, &p)
		}
		if n.query.DropEmptyPairs && p.k0 == p.k1 && !p.eq {
			// Empty after normalization ("=" with bare_empty_value):
			// serializes to nothing, like "&&".
			continue
		}
		k := bstr(st.qbuf[p.k0:p.k1])
		if n.page != nil && n.page.match(k) {
			if rec != nil {
				rec.Pagination = &PageInfo{Param: strings.Clone(k), Value: string(st.qbuf[p.v0:p.v1])}
				rec.Removed = append(rec.Removed, Param{Key: strings.Clone(k), Value: string(st.qbuf[p.v0:p.v1]), Reason: "pagination"})
			}
			continue
		}
		if len(groups) > 0 && !n.keep.match(k) {
			if reason := groups.match(k); reason != "" {
				if rec != nil {
					rec.Removed = append(rec.Removed, Param{Key: strings.Clone(k), Value: string(st.qbuf[p.v0:p.v1]), Reason: reason})
				}
				continue
			}
		}
		st.params = append(st.params, p)
	}
	n.sortParams(st)
	if n.query.DropEmpty && (len(st.params) == 0 || len(st.params) == 1 && st.params[0].k0 == st.params[0].k1 && !st.params[0].eq) {
		// Nothing would follow the '?': no parameter, or one that writes
		// nothing (the query "" is one empty piece without drop_empty_pairs).
		return out, nil
	}
	out = append(out, '?')
	for i, p := range st.params {
		if i > 0 {
			out = append(out, '&')
		}
		out = append(out, st.qbuf[p.k0:p.k1]...)
		if p.eq {
			out = append(out, '=')
			out = append(out, st.qbuf[p.v0:p.v1]...)
		}
	}
	return out, nil
}

// appendQueryPart appends a key or a value; raw is the form set of keys
// or values.
func (n *Normalizer) appendQueryPart(dst []byte, s string, raw *[256]bool) []byte {
	if n.query.FormEncoding {
		return appendForm(dst, s, raw, n.k.form.space)
	}
	return n.appendPct(dst, s)
}

// appendForm form-decodes s ('+' is a space, %XX a byte) and re-encodes it:
// bytes in raw (unreserved, and query.form_raw) as is, space as space
// ('+' or "%20"), everything else as %XX.
func appendForm(dst []byte, s string, raw *[256]bool, space string) []byte {
	for i := 0; i < len(s); i++ {
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

// sortParams orders st.params by the profile's query order.
func (n *Normalizer) sortParams(st *state) {
	ps, b := st.params, st.qbuf
	if len(ps) < 2 {
		return
	}
	key := func(p param) string { return bstr(b[p.k0:p.k1]) }
	val := func(p param) string { return bstr(b[p.v0:p.v1]) }
	var less func(a, b param) bool
	switch n.query.Order {
	case OrderPair:
		less = func(a, c param) bool {
			// compare "key=value" (or "key") byte strings
			ka, kc := key(a), key(c)
			sa, sc := pairString(ka, val(a), a.eq), pairString(kc, val(c), c.eq)
			return lessConcat(sa, sc)
		}
	case OrderKeyValue:
		less = func(a, c param) bool {
			ka, kc := key(a), key(c)
			if ka != kc {
				return ka < kc
			}
			if va, vc := val(a), val(c); va != vc {
				return va < vc
			}
			return !a.eq && c.eq // "k" before "k=": one order for both inputs
		}
	case OrderKey:
		less = func(a, c param) bool { return key(a) < key(c) }
	default:
		return
	}
	if n.k.sortDecoded {
		less = n.decodedLess(b, n.query.Order == OrderKeyValue)
	}
	if len(ps) <= n.inlineSort {
		for i := 1; i < len(ps); i++ {
			for j := i; j > 0 && less(ps[j], ps[j-1]); j-- {
				ps[j], ps[j-1] = ps[j-1], ps[j]
			}
		}
		return
	}
	sort.SliceStable(ps, func(i, j int) bool { return less(ps[i], ps[j]) })
}

// pairString describes "key=value" without building it.
type pair struct {
	k, v string
	eq   bool
}

func pairString(k, v string, eq bool) pair { return pair{k, v, eq} }

// lessConcat compares a.k+"="+a.v with b.k+"="+b.v bytewise ("=" and the
// value only when present).
func lessConcat(a, b pair) bool {
	at, bt := [3]string{a.k, "", a.v}, [3]string{b.k, "", b.v}
	if a.eq {
		at[1] = "="
	}
	if b.eq {
		bt[1] = "="
	}
	i, j, ai, bi := 0, 0, 0, 0
	for {
		for ai < 3 && i == len(at[ai]) {
			ai, i = ai+1, 0
		}
		for bi < 3 && j == len(bt[bi]) {
			bi, j = bi+1, 0
		}
		if ai == 3 || bi == 3 {
			return ai == 3 && bi < 3
		}
		ca, cb := at[ai][i], bt[bi][j]
		if ca != cb {
			return ca < cb
		}
		i++
		j++
	}
}
