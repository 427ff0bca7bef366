package normalize

import (
	"bytes"
	"strconv"
	"strings"
)

// knobs holds the compiled rules that other canonicalizers have and the
// source documents do not (issue 15: w3lib, Safe Browsing, normalize-url,
// crawler-commons). Each is off at its zero value; the built-in profiles
// that use none of them pay one flag test per rule on the hot path.
type knobs struct {
	www           uint8 // host.strip_www: wwwKeep, wwwLabel, wwwDigits
	noUserinfo    bool  // userinfo.remove
	noPorts       bool  // port.remove_all
	loneRoot      bool  // path.remove_lone_root
	schemeSlashes bool  // path.keep_scheme_slashes
	lowerPath     bool  // path.lowercase
	slow          bool  // a knob asParsed must ask (changes)
	finishLen     int   // finishURL runs on outputs longer: limits.max_length, or -1 for path.remove_lone_root
	cookieless    ruleSet
	lowerQuery    bool // query.lowercase
	explicitEmpty bool // query.explicit_empty_value
	paramAny      bool // lowerQuery || explicitEmpty: param has work
	sortDecoded   bool // query.sort_decoded
	textDirective bool // fragment.strip_text_directive
	fragAny       bool // textDirective or percent.decode_repeatedly: appendFragment
	form          formSet
}

// finishURL applies the rules that look at the whole URL: the root path
// removed when nothing follows it (path.remove_lone_root), and the length
// limit, which an output must keep too: encoding can make it longer than
// the input, and one over the limit would be refused as input, so
// N(N(x)) would fail.
func (n *Normalizer) finishURL(st *state, out []byte, pathStart int) ([]byte, *Kind) {
	if n.k.loneRoot && len(out) == pathStart+1 && out[pathStart] == '/' {
		out = out[:pathStart]
	}
	if len(out) > n.maxLen {
		return out, st.p.fail(KindTooLong, "canonical URL of "+strconv.Itoa(len(out))+" bytes", "", "limits.max_length "+strconv.Itoa(n.maxLen))
	}
	return out, nil
}

// changes reports whether the knobs would change the authority or the
// path of u (a special URL with a domain or an IP address and no
// userinfo), which asParsed would copy as the parser wrote them.
func (k *knobs) changes(u *URL) bool {
	if k.www != wwwKeep && u.hostKind == HostDomain && strings.HasPrefix(u.Host(), "www") {
		return true
	}
	if k.noPorts && u.port >= 0 {
		return true
	}
	path := u.Path()
	return k.lowerPath && hasUpperASCII(path) || len(k.cookieless) > 0 && strings.IndexByte(path, '(') >= 0
}

// formSet is how query.form_encoding writes bytes: those marked in key
// (value) are written as they are, the others percent-encoded, a space as
// space.
type formSet struct {
	key, value [256]bool
	space      string
}

// formRawAllowed are the bytes query.form_raw may list: the others either
// delimit the query ('&', '#', '+' which means a space, '%' which starts
// an escape), are encoded by the URL Standard's query encode sets (so the
// output would not re-parse to itself: space, '"', '<', '>', '\”) or
// are not ASCII. '=' is written raw in values only.
const formRawAllowed = "!$()*,/:;=?@[\\]^`{|}"

func newFormSet(raw, space string) formSet {
	f := formSet{key: unreserved, value: unreserved, space: space}
	for i := 0; i < len(raw); i++ {
		f.value[raw[i]] = true
		if raw[i] != '=' {
			f.key[raw[i]] = true
		}
	}
	return f
}

// compileQueryKnobs checks and compiles the query knobs.
func (n *Normalizer) compileQueryKnobs(p *Profile) error {
	q := &p.Query
	if q.ExplicitEmptyValue && q.BareEmptyValue {
		return p.bad("query.explicit_empty_value", "contradicts query.bare_empty_value")
	}
	if (q.FormRaw != "" || q.FormSpace != "") && !q.FormEncoding {
		return p.bad("query.form_raw", "form_raw and form_space need query.form_encoding")
	}
	for i := 0; i < len(q.FormRaw); i++ {
		if strings.IndexByte(formRawAllowed, q.FormRaw[i]) < 0 {
			return p.bad("query.form_raw", "%s cannot be written raw (allowed: %s)", quoteByte(q.FormRaw[i]), formRawAllowed)
		}
	}
	switch q.FormSpace {
	case "", "+":
		n.k.form = newFormSet(q.FormRaw, "+")
	case "%20":
		n.k.form = newFormSet(q.FormRaw, "%20")
	default:
		return p.bad("query.form_space", "unknown value %q (want + or %%20)", q.FormSpace)
	}
	if q.SortDecoded && q.Order != OrderKey && q.Order != OrderKeyValue {
		return p.bad("query.sort_decoded", "needs query.order key or key_value")
	}
	n.k.lowerQuery, n.k.explicitEmpty, n.k.sortDecoded = q.Lowercase, q.ExplicitEmptyValue, q.SortDecoded
	n.k.paramAny = q.Lowercase || q.ExplicitEmptyValue
	return nil
}

// param applies query.lowercase and query.explicit_empty_value to one
// parameter, the last one written in qbuf, and returns qbuf.
func (k *knobs) param(qbuf []byte, p *param) []byte {
	if k.lowerQuery {
		lowerKeepEscapes(qbuf[p.k0:p.end])
	}
	if k.explicitEmpty && p.k0 != p.k1 && p.end == p.k1 {
		qbuf = append(qbuf, '=') // "k" → "k="; an empty parameter stays empty
		p.end++
	}
	return qbuf
}

// appendFragment appends '#' and the fragment under the knobs that work
// on it: percent.decode_repeatedly, fragment.strip_text_directive.
func (n *Normalizer) appendFragment(st *state, out []byte, frag string) []byte {
	hash := len(out)
	out = append(out, '#')
	if n.pct.DecodeRepeatedly {
		frag = n.decodeRepeated(st, frag, decFragment)
	}
	out = n.appendPct(out, frag)
	if n.k.textDirective {
		out = cutTextDirective(out, hash)
	}
	return out
}

// decodeRepeated is st.decodeComponent (percent.decode_repeatedly) with
// a shortcut: when s has no '%' and no byte that set encodes, decoding and
// encoding give s, which is returned as it is (a fast path: the
// reference decodes every component). It cost safebrowsing 575
// instructions/URL on web_dirty, most of them on queries without one.
func (n *Normalizer) decodeRepeated(st *state, s string, set int) string {
	if !n.reference && strings.IndexByte(s, '%') < 0 && !anyInSet(s, &decodeSets[set]) {
		return s
	}
	return st.decodeComponent(s, set)
}

// anyInSet reports whether a byte of s is in set.
func anyInSet(s string, set *[256]bool) bool {
	for i := 0; i < len(s); i++ {
		if set[s[i]] {
			return true
		}
	}
	return false
}

// lowerKeepEscapes lowercases the ASCII letters of b except the hex digits
// of valid escapes (path.lowercase, query.lowercase).
func lowerKeepEscapes(b []byte) {
	for i := 0; i < len(b); i++ {
		if b[i] == '%' && i+2 < len(b) && isHex(b[i+1]) && isHex(b[i+2]) {
			i += 2
			continue
		}
		b[i] = lower(b[i])
	}
}

// cutTextDirective removes a text fragment directive from the fragment
// that starts after out[hash] ('#'): from the first ":~:text", in any
// case, to the end. A fragment left empty goes with its '#', as does one
// that was empty (normalize-url sets the fragment back, and an empty one
// is no fragment).
func cutTextDirective(out []byte, hash int) []byte {
	frag := out[hash+1:]
	for i := 0; i+7 <= len(frag); i++ {
		if frag[i] == ':' && frag[i+1] == '~' && frag[i+2] == ':' && equalFold(bstr(frag[i+3:i+7]), "text") {
			out = out[:hash+1+i]
			break
		}
	}
	if len(out) == hash+1 {
		out = out[:hash]
	}
	return out
}

// endsInScheme reports whether the path written so far ends in an
// embedded scheme and ':' ("/r/http:"), after which path.keep_scheme_slashes
// keeps a "//": normalize-url's lookbehind, a lowercase letter and 1 to
// 50 of [a-z0-9+.-] before the ':', starting after a byte that is not a
// letter, digit or '_' (a word boundary).
func endsInScheme(path []byte) bool {
	j := len(path) - 1
	if j < 2 || path[j] != ':' {
		return false
	}
	for p := j - 1; p >= 0 && j-p <= 51 && schemeChar(path[p]); p-- {
		if j-p >= 2 && path[p] >= 'a' && path[p] <= 'z' && (p == 0 || !wordChar(path[p-1])) {
			return true
		}
	}
	return false
}

func schemeChar(c byte) bool {
	return c >= 'a' && c <= 'z' || isDigit(c) || c == '+' || c == '-' || c == '.'
}

func wordChar(c byte) bool { return isAlpha(c) || isDigit(c) || c == '_' }

// removeCookieless removes the ASP.NET cookieless ids that
// path.remove_cookieless names from the segment at out[segStart:], if it
// is one: "(" 1*(name "(" value ")") ")", name letters, value anything
// but parentheses ("(S(lit3py55t21z5v55vlm25s55))", "(A(x)S(y)F(z))").
// gone reports a segment left with no id, which the caller removes.
func (n *Normalizer) removeCookieless(out []byte, segStart int, rec *Result) (_ []byte, gone bool) {
	if !isCookieless(out[segStart:]) {
		return out, false
	}
	seg := string(out[segStart+1 : len(out)-1]) // rare path: copy, then rewrite in place
	out = append(out[:segStart], '(')
	for rest := seg; rest != ""; {
		open := strings.IndexByte(rest, '(')
		end := strings.IndexByte(rest, ')')
		name, value := rest[:open], rest[open+1:end]
		id := rest[:end+1]
		rest = rest[end+1:]
		if reason := n.k.cookieless.match(name); reason != "" {
			if rec != nil {
				rec.Removed = append(rec.Removed, Param{Key: name, Value: value, Reason: reason, InPath: true})
			}
			continue
		}
		out = append(out, id...)
	}
	if len(out) == segStart+1 {
		return out[:segStart], true
	}
	return append(out, ')'), false
}

// isCookieless reports whether seg is an ASP.NET cookieless segment.
func isCookieless(seg []byte) bool {
	if len(seg) < 5 || seg[0] != '(' || seg[len(seg)-1] != ')' {
		return false
	}
	s := seg[1 : len(seg)-1]
	for len(s) > 0 {
		i := 0
		for i < len(s) && isAlpha(s[i]) {
			i++
		}
		if i == 0 || i == len(s) || s[i] != '(' {
			return false
		}
		end := bytes.IndexByte(s[i+1:], ')')
		if end < 0 || bytes.IndexByte(s[i+1:i+1+end], '(') >= 0 {
			return false
		}
		s = s[i+1+end+1:]
	}
	return true
}

// cmpDecoded compares a and b by their bytes once percent-decoded (and
// '+' read as a space when plus is set), without decoding them.
func cmpDecoded(a, b string, plus bool) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		var ca, cb byte
		ca, i = decodedByte(a, i, plus)
		cb, j = decodedByte(b, j, plus)
		if ca != cb {
			if ca < cb {
				return -1
			}
			return 1
		}
	}
	switch {
	case i < len(a):
		return 1
	case j < len(b):
		return -1
	}
	return 0
}

// decodedByte returns the decoded byte at s[i] and the index after it.
func decodedByte(s string, i int, plus bool) (byte, int) {
	switch c := s[i]; {
	case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
		return unhex(s[i+1])<<4 | unhex(s[i+2]), i + 3
	case c == '+' && plus:
		return ' ', i + 1
	default:
		return c, i + 1
	}
}
