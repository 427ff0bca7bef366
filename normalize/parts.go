package normalize

import (
	"strings"
	"unsafe"

	"golang.org/x/net/publicsuffix"
)

// The parts of a URL that analysts group by beyond the components the
// parser records (url.go): the registrable domain and its neighbours, the
// file extension, the path segments and the query's name=value pairs as
// forms decode them. Each is read from the serialization on demand; none
// is stored in URL.

// SuffixList selects the sections of the Public Suffix List that define a
// domain's public suffix.
type SuffixList uint8

const (
	// AllSuffixes uses the ICANN and the private sections: "github.io" and
	// "blogspot.com" are public suffixes, so "alice.github.io" is a
	// registrable domain of its own. This is the URL Standard's "registrable
	// domain" (browsers draw site and cookie boundaries with it) and
	// publicsuffix.EffectiveTLDPlusOne's answer.
	AllSuffixes SuffixList = iota
	// ICANNSuffixes uses the ICANN section only (what registries sell):
	// the registrable domain of "alice.github.io" is "github.io".
	ICANNSuffixes
)

// DomainParts splits a domain at its public suffix. A part the domain does
// not have is "" (no label is ever empty).
type DomainParts struct {
	PublicSuffix      string // "co.uk" of "a.b.example.co.uk"
	RegistrableDomain string // "example.co.uk": the public suffix and one more label
	Subdomain         string // "a.b": what is left of the registrable domain
}

// DomainParts splits u's host at its public suffix. A host that is not a
// domain (an IP address, an opaque or empty host, none) has no parts: the
// URL Standard defines the public suffix of a domain only.
func (u *URL) DomainParts(list SuffixList) DomainParts {
	if u.hostKind != HostDomain {
		return DomainParts{}
	}
	return splitDomain(u.Host(), list)
}

// PublicSuffix returns the public suffix of u's domain with both sections
// of the list ("co.uk", "github.io"), or "" when the host is not a domain.
func (u *URL) PublicSuffix() string { return u.DomainParts(AllSuffixes).PublicSuffix }

// RegistrableDomain returns u's domain's public suffix and one more label
// with both sections of the list ("example.co.uk", "alice.github.io"), or ""
// when the host is not a domain or is a public suffix itself.
func (u *URL) RegistrableDomain() string { return u.DomainParts(AllSuffixes).RegistrableDomain }

// Subdomain returns the labels of u's domain left of its registrable domain
// with both sections of the list ("www" of "www.example.com"), or "" when
// there are none.
func (u *URL) Subdomain() string { return u.DomainParts(AllSuffixes).Subdomain }

// splitDomain runs the Public Suffix List algorithm on a lowercase ASCII
// domain as the URL Standard's "host public suffix" does: the rule "*"
// prevails when none matches ("localhost" is a public suffix), and a
// trailing dot is kept on every part that ends the domain ("com." and
// "example.com." of "example.com.").
func splitDomain(host string, list SuffixList) DomainParts {
	dot := ""
	if strings.HasSuffix(host, ".") {
		host, dot = host[:len(host)-1], "."
	}
	if host == "" || strings.HasSuffix(host, ".") {
		return DomainParts{} // "." or "a..": no last label to match
	}
	suffix := publicSuffix(host, list)
	var d DomainParts
	d.PublicSuffix = suffix + dot
	if len(suffix) == len(host) {
		return d
	}
	// host ends in "." + suffix; the label before that dot is the "one
	// more" of the registrable domain (empty labels, as in "a..b.com",
	// are allowed by the URL Standard but make no registrable domain).
	rest := host[:len(host)-len(suffix)-1]
	i := strings.LastIndexByte(rest, '.')
	if i+1 == len(rest) {
		return d
	}
	d.RegistrableDomain = host[i+1:] + dot
	if i > 0 {
		d.Subdomain = rest[:i]
	}
	return d
}

// publicSuffix returns host's public suffix. publicsuffix.PublicSuffix
// takes the longest matching rule of either section; for ICANNSuffixes a
// private match is dropped label by label until an ICANN rule (or the
// default rule "*", a single label) matches what is left.
func publicSuffix(host string, list SuffixList) string {
	suffix, icann := publicsuffix.PublicSuffix(host)
	for list == ICANNSuffixes && !icann {
		i := strings.IndexByte(suffix, '.')
		if i < 0 {
			break // the default rule "*": not a rule of either section
		}
		suffix, icann = publicsuffix.PublicSuffix(suffix[i+1:])
	}
	return suffix
}

// Extension returns the file extension of the last path segment without
// the dot ("gz" of "/a/b.tar.gz"), as serialized (percent-encoded, case
// kept). It is "" when the URL has an opaque path, when the last segment
// has no dot or only a leading one ("/.htaccess": a hidden file, not an
// extension), or nothing after its last dot. Path parameters are not part
// of it: "/a.jsp;jsessionid=1" has "jsp" (RFC 3986 §3.3: ';' delimits a
// segment's parameters).
func (u *URL) Extension() string {
	if u.opaque {
		return ""
	}
	seg := u.Path()
	seg = seg[strings.LastIndexByte(seg, '/')+1:]
	if i := strings.IndexByte(seg, ';'); i >= 0 {
		seg = seg[:i]
	}
	i := strings.LastIndexByte(seg, '.')
	if i <= 0 || strings.Trim(seg[:i], ".") == "" {
		return ""
	}
	return seg[i+1:]
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
	p := u.Path()
	if p == "" {
		return []string{}, true
	}
	return strings.Split(p[1:], "/"), true
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
	for q != "" {
		var pair string
		pair, q, _ = strings.Cut(q, "&")
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
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
func (u *URL) QueryParam(name string) (value string, ok bool) {
	q, _ := u.Query()
	var buf []byte
	for q != "" {
		var pair string
		pair, q, _ = strings.Cut(q, "&")
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		if needsFormDecode(k) {
			var dk string
			dk, buf = formDecode(buf, k)
			if dk != name {
				continue
			}
		} else if k != name {
			continue
		}
		value, _ = formDecode(nil, v)
		return value, true
	}
	return "", false
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
	var buf [256]byte
	b, err := n.AppendNormalized(buf[:0], raw)
	if err != nil {
		return nil, withOp(err, "parse")
	}
	u := &URL{}
	var p parser
	// parse copies what it keeps into u's buffer: b may be reused.
	if k := p.parse(u, unsafe.String(unsafe.SliceData(b), len(b)), nil); k != nil {
		// Every profile's output re-parses to itself (the idempotency
		// tests); reaching this is a bug, reported rather than hidden.
		return nil, &Error{Op: "parse", Input: raw, Kind: k, Reason: "the canonical URL " + Quote(string(b)) + " does not parse"}
	}
	return u, nil
}
