package resolve

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"strings"

	"github.com/urlnorm/urlnorm/normalize"
)

// Host comparison. Every host the resolver compares (allowlist entries,
// shortener entries, redirect targets, the domains of DiscoverHost) goes
// through the same mapping: the WHATWG URL Standard's host parser (the one
// normalize uses: ASCII lowercase, UTS #46 to punycode, IPv4 number forms
// to dotted decimal, IPv6 compressed) and then one trailing dot removed.
// The resulting ASCII host is also exactly what the HTTP client dials,
// sends as Host and uses for TLS: net/http maps only non-ASCII hosts
// (idnaASCII), so nothing is remapped between the check and the dial.

// dialHost returns the comparison and dial form of a parsed URL's host, or
// "" when the host is not one the resolver will dial.
func dialHost(u *normalize.URL) string {
	host := u.Host()
	switch u.HostKind() {
	case normalize.HostIPv4, normalize.HostIPv6:
		return host
	case normalize.HostDomain:
		host = strings.TrimSuffix(host, ".")
		if validDNSName(host) {
			return host
		}
	}
	return ""
}

// validDNSName accepts what a DNS resolver can look up: non-empty labels
// of letters, digits, '-' and '_' (real hosts use '_'), at most 253 bytes.
// The WHATWG host parser lets through '!', '$', '*' and the like, which
// no resolver accepts; refusing them here keeps odd spellings away from
// the system resolver.
func validDNSName(host string) bool {
	if host == "" || len(host) > 253 {
		return false
	}
	label := 0
	for i := 0; i < len(host); i++ {
		c := host[i]
		switch {
		case c == '.':
			if label == 0 {
				return false
			}
			label = 0
			continue
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_':
		default:
			return false
		}
		label++
		if label > 63 {
			return false
		}
	}
	return label > 0
}

// CanonicalHost returns a host as the resolver compares and dials it:
// "SEDE.Gob.ES." and "sede.gob.es" give "sede.gob.es", "bücher.de" gives
// "xn--bcher-kva.de", "0x7f.1" gives "127.0.0.1". Anything but a bare host
// (a port, a path, credentials, a scheme) is an error.
func CanonicalHost(s string) (string, error) {
	h, reason := canonicalHost(s)
	if reason != "" {
		return "", inputErr("canonical host", s, KindInvalidHost, reason, nil)
	}
	return h, nil
}

// canonicalHost is CanonicalHost returning the reason of a refusal.
func canonicalHost(s string) (string, string) {
	bad := func(reason string) (string, string) { return "", reason }
	rest := s
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		rest = "" // an IPv6 literal: its colons are not a port
	}
	if s == "" || strings.ContainsAny(rest, ":/?#@\\ \t\r\n%") {
		return bad("want a bare host name or IP address")
	}
	u, err := normalize.Parse("http://" + s + "/")
	if err != nil {
		return bad(normalize.KindOf(err))
	}
	h := dialHost(u)
	if h == "" {
		return bad("not a DNS name (letters, digits, '-', '_' and '.')")
	}
	return h, ""
}

// hostSet is a compiled allowlist: exact hosts and "*." wildcards.
type hostSet struct {
	exact    map[string]bool
	suffixes []string // ".gob.es" for "*.gob.es"
}

// newHostSet compiles entries. An entry is a host ("sede.gob.es", which
// matches only itself) or "*." and a domain ("*.gob.es", which matches
// every strict subdomain but not gob.es itself). what names the list in
// errors.
func newHostSet(what string, entries []string) (*hostSet, error) {
	s := &hostSet{exact: map[string]bool{}}
	for _, e := range entries {
		wild := strings.HasPrefix(e, "*.")
		h, err := CanonicalHost(strings.TrimPrefix(e, "*."))
		if err != nil {
			return nil, fmt.Errorf("%s entry %q: %w", what, e, err)
		}
		if !wild {
			s.exact[h] = true
			continue
		}
		if _, err := netip.ParseAddr(h); err == nil || !strings.Contains(h, ".") {
			return nil, fmt.Errorf("%s entry %q: a wildcard needs a domain with a dot, not an IP address or a TLD", what, e)
		}
		s.suffixes = append(s.suffixes, "."+h)
	}
	return s, nil
}

// has reports whether the canonical host h is in the set. Wildcards match
// on a label boundary of the canonical host, so "sede.gob.es.evil.com"
// does not match "*.gob.es".
func (s *hostSet) has(h string) bool {
	if s.exact[h] {
		return true
	}
	for _, suf := range s.suffixes {
		if strings.HasSuffix(h, suf) {
			return true
		}
	}
	return false
}

// maxListLine bounds a line of a list file: an entry is a host or a host
// pattern, far shorter.
const maxListLine = 1 << 20

// ReadList reads a list file: one entry per line; blank lines and lines
// starting with '#' are skipped, surrounding space is trimmed. It serves
// allowlists, shortener lists and domain lists. A line over 1 MiB is an
// error that names the line (a list is configuration: nothing is skipped).
func ReadList(r io.Reader) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxListLine)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("line %d: longer than %d bytes (a list has one host or pattern per line)", n+1, maxListLine)
		}
		return nil, fmt.Errorf("line %d: %w", n+1, err)
	}
	return out, nil
}

// DefaultShorteners are well-known public URL shorteners. Pass them (and
// an agency's own shorteners) as Config.Shorteners to let Resolve pass
// through them on the way to an allowlisted page (clara-policy "URL
// shorteners").
var DefaultShorteners = []string{
	"bit.ly", "bitly.com", "buff.ly", "cutt.ly", "goo.gl", "is.gd", "lnkd.in",
	"ow.ly", "rebrand.ly", "s.id", "t.co", "t.ly", "tiny.cc", "tinyurl.com", "v.gd",
}
