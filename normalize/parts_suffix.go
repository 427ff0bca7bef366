package normalize

import "strings"

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
	host, suffix, registrable := u.domainCuts(list)
	sub := ""
	if registrable > 1 {
		sub = host[:registrable-1]
	}
	// One literal in the return statement: built in a variable, the
	// struct was zeroed and copied twice (62 instructions a call, 54 now).
	return DomainParts{PublicSuffix: from(host, suffix), RegistrableDomain: from(host, registrable), Subdomain: sub}
}

// PublicSuffix returns the public suffix of u's domain with both sections
// of the list ("co.uk", "github.io"), or "" when the host is not a domain.
//
// It and RegistrableDomain slice the host themselves rather than call
// from: with the call their inlining cost was 83, over the compiler's
// budget of 80 (78 now), and a call of RegistrableDomain cost 16
// instructions per URL more on the web corpus.
func (u *URL) PublicSuffix() string {
	host, suffix, _ := u.domainCuts(AllSuffixes)
	if suffix < 0 {
		return ""
	}
	return host[suffix:]
}

// RegistrableDomain returns u's domain's public suffix and one more label
// with both sections of the list ("example.co.uk", "alice.github.io"), or ""
// when the host is not a domain or is a public suffix itself.
func (u *URL) RegistrableDomain() string {
	host, _, registrable := u.domainCuts(AllSuffixes)
	if registrable < 0 {
		return ""
	}
	return host[registrable:]
}

// Subdomain returns the labels of u's domain left of its registrable domain
// with both sections of the list ("www" of "www.example.com"), or "" when
// there are none.
func (u *URL) Subdomain() string {
	host, _, registrable := u.domainCuts(AllSuffixes)
	if registrable <= 1 {
		return ""
	}
	return host[:registrable-1]
}

// domainCuts returns u's domain and where its public suffix and its
// registrable domain start in it (-1: the part is absent; no host at all
// for a host that is not a domain), so that an accessor of one part slices
// the host once and builds no other part.
//
// It runs the Public Suffix List algorithm on the domain (lowercase ASCII)
// as the URL Standard's "host public suffix" does: the rule "*" prevails
// when none matches ("localhost" is a public suffix), and a trailing dot
// is kept on every part that ends the domain ("com." and "example.com."
// of "example.com.").
func (u *URL) domainCuts(list SuffixList) (host string, suffix, registrable int) {
	if u.hostKind != HostDomain {
		return "", -1, -1
	}
	host = u.Host()
	if list == AllSuffixes {
		// Most domains: suffixQuick, on the host itself (with a
		// trailing dot, the top-level label is empty: it cannot tell).
		suffixTable.once.Do(buildSuffixTable)
		if n, r := suffixQuick(host); r >= 0 {
			return host, len(host) - n, r
		}
	}
	name := strings.TrimSuffix(host, ".") // the labels the list matches
	if name == "" || name[len(name)-1] == '.' {
		return host, -1, -1 // "." or "a..": no last label to match
	}
	if list == ICANNSuffixes {
		i := len(name) - suffixLens(name).icann
		return host, i, registrableStart(name, i)
	}
	// Both sections: one walk, without suffixLens' ICANN-only walks nor
	// publicSuffixLen's look for an IP address (a URL's domain is none).
	n, _, r := suffixWalk(name)
	return host, len(name) - n, r
}

// from returns s[i:], or "" when i < 0.
func from(s string, i int) string {
	if i < 0 {
		return ""
	}
	return s[i:]
}

// registrableStart returns where the registrable domain of name starts
// when its public suffix starts at i, or -1 when it has none: name[i-1] is
// the dot before the suffix, and the label before that dot is the "one
// more" (empty labels, as in "a..b.com", are allowed by the URL Standard
// but make no registrable domain).
func registrableStart(name string, i int) int {
	if i == 0 {
		return -1
	}
	j := strings.LastIndexByte(name[:i-1], '.')
	if j+2 == i {
		return -1
	}
	return j + 1
}
