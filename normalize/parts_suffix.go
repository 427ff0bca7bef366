package normalize

import (
	"hash/maphash"
	"strings"
	"sync/atomic"

	"golang.org/x/net/publicsuffix"
)

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
// "example.com." of "example.com."). The parts are slices of host: one
// backward scan for the dots that start the suffix and the registrable
// domain, no copies.
func splitDomain(host string, list SuffixList) DomainParts {
	name := strings.TrimSuffix(host, ".") // the labels the list matches
	if name == "" || name[len(name)-1] == '.' {
		return DomainParts{} // "." or "a..": no last label to match
	}
	all, icann := suffixLabels(name)
	k := all
	if list == ICANNSuffixes {
		k = icann
	}
	i := len(name) // after the loop, the dot before the suffix (-1: none)
	for ; k > 0 && i >= 0; k-- {
		i = strings.LastIndexByte(name[:i], '.')
	}
	if i < 0 {
		return DomainParts{PublicSuffix: host}
	}
	d := DomainParts{PublicSuffix: host[i+1:]}
	// The label before that dot is the "one more" of the registrable
	// domain (empty labels, as in "a..b.com", are allowed by the URL
	// Standard but make no registrable domain).
	j := strings.LastIndexByte(name[:i], '.')
	if j+1 == i {
		return d
	}
	d.RegistrableDomain = host[j+1:]
	if j > 0 {
		d.Subdomain = host[:j]
	}
	return d
}

// computeSuffixLabels returns how many labels host's public suffix has
// with both sections of the list and with ICANN's only.
// publicsuffix.PublicSuffix takes the longest matching rule of either
// section; for ICANN's a private match is dropped label by label until an
// ICANN rule (or the default rule "*", a single label) matches what is
// left.
func computeSuffixLabels(host string) (all, icann int) {
	suffix, isICANN := publicsuffix.PublicSuffix(host)
	all = strings.Count(suffix, ".") + 1
	for !isICANN {
		i := strings.IndexByte(suffix, '.')
		if i < 0 {
			break // the default rule "*": not a rule of either section
		}
		suffix, isICANN = publicsuffix.PublicSuffix(suffix[i+1:])
	}
	return all, strings.Count(suffix, ".") + 1
}

// suffixCache memoizes computeSuffixLabels by host: GROUP BY
// url_registrable_domain(url) over a table sees the same hosts again and
// again, and publicsuffix.PublicSuffix costs more than parsing the URL (a
// failed netip.ParseAddr with its allocation, a binary search per label).
// The key is the whole host, not its last labels: the list's walk can look
// past the labels it returns (a "b.tld" node that is not itself a rule, as
// "amazonaws.com"), so two hosts that share their registrable domain need
// not share their suffix.
//
// The cache is lock-free with two candidate slots per host (fewer
// conflicts than one at the same size): readers compare the key, a new
// entry takes an empty candidate or replaces one. Its size is bounded:
// suffixCacheSize pointers (512 KiB, touched as used) and one entry of
// at most 80 bytes per slot for hosts of at most suffixKeyMax bytes (about
// 5 MiB when every slot is full); longer hosts are computed each time.
// Answers never depend on it: the tests compare cached and computed
// answers.
const (
	suffixCacheSize = 1 << 16
	suffixKeyMax    = 64
)

type suffixEntry struct {
	n          uint8 // len(host)
	all, icann uint8 // label counts of the suffix (both sections, ICANN's)
	host       [suffixKeyMax]byte
}

var (
	suffixCache [suffixCacheSize]atomic.Pointer[suffixEntry]
	suffixSeed  = maphash.MakeSeed()
)

// suffixLabels is computeSuffixLabels through suffixCache.
func suffixLabels(host string) (all, icann int) {
	if len(host) > suffixKeyMax {
		return computeSuffixLabels(host)
	}
	h := maphash.String(suffixSeed, host)
	slots := [2]*atomic.Pointer[suffixEntry]{
		&suffixCache[h&(suffixCacheSize-1)],
		&suffixCache[(h>>32)&(suffixCacheSize-1)],
	}
	for _, slot := range slots {
		if e := slot.Load(); e != nil && string(e.host[:e.n]) == host {
			return int(e.all), int(e.icann)
		}
	}
	all, icann = computeSuffixLabels(host)
	e := &suffixEntry{n: uint8(len(host)), all: uint8(all), icann: uint8(icann)} // ≤ 32 labels in 64 bytes
	copy(e.host[:], host)
	slot := slots[h>>63] // replace either one, chosen by the hash
	if slots[0].Load() == nil {
		slot = slots[0]
	} else if slots[1].Load() == nil {
		slot = slots[1]
	}
	slot.Store(e)
	return all, icann
}
