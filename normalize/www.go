package normalize

import (
	"strings"
	"unsafe"
)

// isPublicSuffix reports whether domain (lowercase ASCII, no trailing dot)
// is a public suffix by the Public Suffix List, both its ICANN and its
// private sections ("com", "co.uk", "github.io"), or by its default rule
// "*" (a single unlisted label such as "localhost"). It shares the URL
// parts' lookup (suffix.go). It is suffixLens(domain).all ==
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
// else -1. fold is 0x20 to match "WWW" in any case (a verbatim host with
// uppercase letters; b|0x20 is 'w' only for 'w' and 'W'), else 0. It reads
// only the label's bytes: stripWWW runs on every host of a profile that
// strips www.
func (n *Normalizer) wwwLabel(s string, fold byte) int {
	if len(s) < 3 || s[0]|fold != 'w' || s[1]|fold != 'w' || s[2]|fold != 'w' {
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
// would change what the host is or what the next pass does (wwwCut).
func (n *Normalizer) stripWWW(host string) string {
	if n.k.www == wwwKeep {
		return host
	}
	// wwwCutVerbatim's quick cut, on the lowercased host; not for the
	// reference (isPublicSuffix), nor for what may be an IP address (a
	// host of the profile's maps: an address is its own suffix).
	if !n.reference && len(host) >= 8 && wwwDotNext(le64(host)) {
		suffixTable.once.Do(buildSuffixTable)
		if notSuffixEnd(be64(host[len(host)-8:]), len(host), 4) && !mayBeAddr(host[4:]) {
			return host[4:]
		}
	}
	return host[n.wwwCut(host, false, false):]
}

// wwwCut returns the length of host's leading www label and its dot, which
// host.strip_www removes, or 0 when there is none or removing it would
// change what the host is or what the next pass does:
//   - what remains is a public suffix ("www.co.uk", "www.com", and
//     "www.example", whose last label the list's default rule makes one);
//   - what remains starts with a www label itself ("www.www2.x.com"), which
//     the next pass would strip (not idempotent).
//
// host is lowercase ASCII, or, when upper is set, a verbatim host with
// uppercase letters (scanAuthority), which canon lowercases after the cut:
// its labels are then matched in any case, and the suffix test reads it
// lowercased. Trailing dots stay where they were, and are not part of the
// suffix test. A verbatim host (verbatim) does not end in a number (the
// URL Standard parses such a host as an IPv4 address), nor does what
// remains unless trailing dots follow it; a host of the profile's maps,
// which stripWWW is asked about, may. The general path and the profile's
// checks (verbatim false) ask isPublicSuffix, the reference of the
// verbatim path's test (afterWWWIsSuffix).
func (n *Normalizer) wwwCut(host string, verbatim, upper bool) int {
	fold := byte(0)
	if upper {
		fold = 0x20
	}
	i := n.wwwLabel(host, fold)
	if i < 0 || i == len(host) {
		return 0 // no www label, or no dot after it
	}
	rest := host[i+1:]
	if rest == "" || rest[0] == '.' || n.wwwLabel(rest, fold) >= 0 {
		return 0
	}
	// The dots ending rest are not part of the suffix test ("www.co.uk.."
	// is "www.co.uk" to strip_trailing_dot); rest[0] is not one, so d > 0.
	d := len(rest)
	for rest[d-1] == '.' {
		d--
	}
	var keep bool
	switch {
	case !verbatim:
		keep = isPublicSuffix(rest[:d])
	case d == len(rest) && !upper: // most verbatim hosts
		keep = isSuffix(host, i+1)
	default:
		keep = afterWWWIsSuffix(rest[:d], d < len(rest), upper)
	}
	if keep {
		return 0
	}
	return i + 1
}

// wwwCutVerbatim is wwwCut(h, true, upper) for a verbatim host h (hostCut):
// the common one ("www.example.com") read a word at a time, without
// wwwCut's label loops and calls. h starts with "www." in any case
// (b|0x20 is 'w' only for 'w' and 'W'; the dot is not folded), what
// follows does not start with "www" in any case (which may be a www label
// under either rule, "www.www2.x.com") nor with a dot, and notSuffixEnd
// rules out that what follows "www." is a public suffix, on its last 8
// bytes lowercased (lowerWord: canon lowercases the host after the cut;
// a trailing dot, an empty top-level label, it leaves to wwwCut): the cut
// is then "www.", under strip_www's "www" and "www_digits" alike. Any
// other host goes to wwwCut.
func (n *Normalizer) wwwCutVerbatim(h string, upper bool) int {
	if len(h) >= 8 {
		suffixTable.once.Do(buildSuffixTable)
		if wwwDotNext(le64(h)) {
			t := be64(h[len(h)-8:])
			if upper {
				t = lowerWord(t)
			}
			if notSuffixEnd(t, len(h), 4) {
				return 4
			}
		}
	}
	return n.wwwCut(h, true, upper)
}

// wwwDotNext reports whether a host whose first 8 bytes are the
// little-endian word w starts with "www." in any case and what follows
// neither with "www" in any case nor with a dot: b|0x20 is 'w' only for
// 'w' and 'W'; the dot is not folded.
func wwwDotNext(w uint64) bool {
	const www, wwwDot = 'w' | 'w'<<8 | 'w'<<16, 'w' | 'w'<<8 | 'w'<<16 | '.'<<24
	return uint32(w)|0x202020 == wwwDot && (uint32(w>>32)|0x202020)&0xFFFFFF != www && byte(w>>32) != '.'
}

// afterWWWIsSuffix is isPublicSuffix for domain, what follows the www
// label of a verbatim host without its trailing dots (dots: it had some),
// with the quick no of isSuffix (wwwCut asks isSuffix itself about most
// verbatim hosts: lowercase, no trailing dot). Without trailing dots it is no IP
// address: else the host would end in a number, which scanAuthority
// refuses. With them, only one of digits and dots can be one (a host has
// no ':'), which mayBeAddr tells ("www.1.2.3.4.."). Any other domain asks
// isSuffix, in a lowercased copy when upper is set.
func afterWWWIsSuffix(domain string, dots, upper bool) bool {
	switch {
	case dots && mayBeAddr(domain):
		return isPublicSuffix(domain) // no letters to lowercase
	case upper:
		return isSuffixFold(domain)
	}
	return isSuffix(domain, 0)
}

// isSuffixFold is isSuffix of domain lowercased (ASCII), copied on the
// stack: a host of up to 64 bytes after its www label, so all but a few.
func isSuffixFold(domain string) bool {
	var buf [64]byte
	if len(domain) > len(buf) {
		return isSuffix(strings.ToLower(domain), 0)
	}
	b := buf[:len(domain)]
	copy(b, domain)
	lowerASCII(b)
	return isSuffix(unsafe.String(&b[0], len(b)), 0)
}
