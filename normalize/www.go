package normalize

// isPublicSuffix reports whether domain (lowercase ASCII, no trailing dot)
// is a public suffix by the Public Suffix List, both its ICANN and its
// private sections ("com", "co.uk", "github.io"), or by its default rule
// "*" (a single unlisted label such as "localhost"). It shares the URL
// parts' lookup (suffix.go); host.strip_www asks it only for
// hosts that start with a www label. It is suffixLens(domain).all ==
// len(domain) without suffixLens' ICANN-only lookups, which .all does not
// read (publicSuffixLen's n is .all).
func isPublicSuffix(domain string) bool {
	n, _, _ := publicSuffixLen(domain)
	return n == len(domain)
}

// stripWWW values (Normalizer.k.www).
const (
	wwwKeep = iota
	wwwLabel
	wwwDigits
)

var wwwRules = map[string]uint8{StripWWWLabel: wwwLabel, StripWWWDigits: wwwDigits}

// wwwLabel returns the length of s's first label when that label is a www
// label under the profile's rule ("www", or with www_digits also "www" and
// digits, "www2") and a dot or nothing follows it,
// else -1. It reads only the label's bytes: stripWWW runs on every host
// of a profile that strips www.
func (n *Normalizer) wwwLabel(s string) int {
	if len(s) < 3 || s[0] != 'w' || s[1] != 'w' || s[2] != 'w' {
		return -1
	}
	i := 3
	if n.k.www == wwwDigits {
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && s[i] != '.' {
		return -1
	}
	return i
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
	i := n.wwwLabel(host)
	if i < 0 || i == len(host) {
		return host // no www label, or no dot after it
	}
	rest := host[i+1:]
	if rest == "" || rest[0] == '.' || n.wwwLabel(rest) >= 0 {
		return host
	}
	// The dots ending rest are not part of the suffix test ("www.co.uk.."
	// is "www.co.uk" to strip_trailing_dot); rest[0] is not one, so d > 0.
	d := len(rest)
	for rest[d-1] == '.' {
		d--
	}
	if isPublicSuffix(rest[:d]) {
		return host
	}
	return rest
}
