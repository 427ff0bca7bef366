package normalize

import "strings"

// isPublicSuffix reports whether domain (lowercase ASCII, no trailing dot)
// is a public suffix by the Public Suffix List, both its ICANN and its
// private sections ("com", "co.uk", "github.io"), or by its default rule
// "*" (a single unlisted label such as "localhost"). It shares the URL
// parts' cached lookup (parts_suffix.go); host.strip_www asks it only for
// hosts that start with a www label.
func isPublicSuffix(domain string) bool {
	return suffixLens(domain).all == len(domain)
}

// stripWWW values (Normalizer.k.www).
const (
	wwwKeep = iota
	wwwLabel
	wwwDigits
)

var wwwRules = map[string]uint8{StripWWWLabel: wwwLabel, StripWWWDigits: wwwDigits}

// isWWW reports whether label is a www label under the profile's rule:
// "www", or with www_digits also "www" and digits ("www2").
func (n *Normalizer) isWWW(label string) bool {
	if len(label) < 3 || label[:3] != "www" {
		return false
	}
	if len(label) == 3 {
		return true
	}
	if n.k.www != wwwDigits {
		return false
	}
	for i := 3; i < len(label); i++ {
		if !isDigit(label[i]) {
			return false
		}
	}
	return true
}

// stripWWW removes host's leading www label (host.strip_www) unless that
// would change what the host is or what the next pass does:
//   - what remains is a public suffix ("www.co.uk", "www.com", and
//     "www.example", whose last label the list's default rule makes one);
//   - what remains starts with a www label itself ("www.www2.x.com"), which
//     the next pass would strip (not idempotent).
//
// host is a lowercase ASCII domain, so it does not end in a number (the
// URL Standard parses such a host as an IPv4 address), nor does what
// remains; trailing dots stay where they were, and are not part of the
// suffix test.
func (n *Normalizer) stripWWW(host string) string {
	if n.k.www == wwwKeep {
		return host
	}
	label, rest, ok := strings.Cut(host, ".")
	if !ok || !n.isWWW(label) {
		return host
	}
	next, _, _ := strings.Cut(rest, ".")
	domain := strings.TrimRight(rest, ".") // "www.co.uk.." is "www.co.uk" to strip_trailing_dot
	if next == "" || n.isWWW(next) || domain == "" || isPublicSuffix(domain) {
		return host
	}
	return rest
}
