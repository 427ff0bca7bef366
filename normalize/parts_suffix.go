package normalize

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

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
	host, suffix, registrable := u.domainCuts(list)
	d := DomainParts{PublicSuffix: from(host, suffix), RegistrableDomain: from(host, registrable)}
	if registrable > 1 {
		d.Subdomain = host[:registrable-1]
	}
	return d
}

// PublicSuffix returns the public suffix of u's domain with both sections
// of the list ("co.uk", "github.io"), or "" when the host is not a domain.
func (u *URL) PublicSuffix() string {
	host, suffix, _ := u.domainCuts(AllSuffixes)
	return from(host, suffix)
}

// RegistrableDomain returns u's domain's public suffix and one more label
// with both sections of the list ("example.co.uk", "alice.github.io"), or ""
// when the host is not a domain or is a public suffix itself.
func (u *URL) RegistrableDomain() string {
	host, _, registrable := u.domainCuts(AllSuffixes)
	return from(host, registrable)
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
// for a host that is not a domain). The parts are slices of the host, not
// copies: three strings to return would cost more than the lookup.
func (u *URL) domainCuts(list SuffixList) (host string, suffix, registrable int) {
	if u.hostKind != HostDomain {
		return "", -1, -1
	}
	host = u.Host()
	suffix, registrable = cutDomain(host, list)
	return host, suffix, registrable
}

// from returns s[i:], or "" when i < 0.
func from(s string, i int) string {
	if i < 0 {
		return ""
	}
	return s[i:]
}

// cutDomain runs the Public Suffix List algorithm on a lowercase ASCII
// domain as the URL Standard's "host public suffix" does, and returns
// where the suffix and the registrable domain start (-1: none): the rule
// "*" prevails when none matches ("localhost" is a public suffix), and a
// trailing dot is kept on every part that ends the domain ("com." and
// "example.com." of "example.com.").
func cutDomain(host string, list SuffixList) (suffix, registrable int) {
	name := strings.TrimSuffix(host, ".") // the labels the list matches
	if name == "" || name[len(name)-1] == '.' {
		return -1, -1 // "." or "a..": no last label to match
	}
	all, icann := suffixLens(name)
	i := len(name) - all
	if list == ICANNSuffixes {
		i = len(name) - icann
	}
	if i == 0 {
		return 0, -1
	}
	// name[i-1] is the dot before the suffix; the label before it is the
	// "one more" of the registrable domain (empty labels, as in
	// "a..b.com", are allowed by the URL Standard but make no registrable
	// domain).
	j := strings.LastIndexByte(name[:i-1], '.')
	if j+2 == i {
		return i, -1
	}
	return i, j + 1
}

// computeSuffixLens returns the length in bytes of host's public suffix
// with both sections of the list and with ICANN's only.
// publicsuffix.PublicSuffix takes the longest matching rule of either
// section; for ICANN's a private match is dropped label by label until an
// ICANN rule (or the default rule "*", a single label) matches what is
// left.
func computeSuffixLens(host string) (all, icann int) {
	suffix, isICANN := publicsuffix.PublicSuffix(host)
	all = len(suffix)
	for !isICANN {
		i := strings.IndexByte(suffix, '.')
		if i < 0 {
			break // the default rule "*": not a rule of either section
		}
		suffix, isICANN = publicsuffix.PublicSuffix(suffix[i+1:])
	}
	return all, len(suffix)
}

// suffixLens memoizes computeSuffixLens by host: GROUP BY
// url_registrable_domain(url) over a table sees the same hosts again and
// again, and publicsuffix.PublicSuffix costs more than parsing the URL (a
// failed netip.ParseAddr with its allocation, a binary search per label).
// The key is the whole host, not its last labels: the list's walk can look
// past the labels it returns (a "b.tld" node that is not itself a rule, as
// "amazonaws.com"), so two hosts that share their registrable domain need
// not share their suffix.
//
// The distinct hosts of a table outgrow the CPU's caches (the web corpus
// has 30,149), so a lookup costs the memory it reads: one 64-byte line,
// which holds its keys in place (no pointer to chase): two hosts of up to
// 24 bytes (89 % of web's) or, in a second table, one of up to 48; longer
// hosts are computed each time. The size is bounded: 4 MiB + 1 MiB,
// allocated on first use and touched as used. Answers never depend on the
// cache: the tests compare cached and computed answers, with tables of one
// line too (every host evicting another).
func suffixLens(host string) (all, icann int) {
	t := suffixTables.Load()
	if t == nil {
		t = newSuffixTables()
	}
	switch {
	case host == "":
		// not cached: an empty way has length 0
	case len(host) <= 3*8:
		return t[0].lens(host)
	case len(host) <= 6*8:
		return t[1].lens(host)
	}
	return computeSuffixLens(host)
}

var (
	suffixTables     atomic.Pointer[[2]suffixTable]
	suffixTablesOnce sync.Once
)

func newSuffixTables() *[2]suffixTable {
	suffixTablesOnce.Do(func() {
		suffixTables.Store(&[2]suffixTable{newSuffixTable(1<<16, 3), newSuffixTable(1<<14, 6)})
	})
	return suffixTables.Load()
}

// A suffixTable is a set-associative cache of computeSuffixLens, one line
// per set. Line layout, in 64-bit words:
//
//	0    sequence: odd while a writer changes the line (a seqlock)
//	1    each way's meta, 32 bits at bit 32×way: len(host) | all<<8 | icann<<16 (len 0: an empty way)
//	2…7  the ways' keys, keyWords words each: the host's bytes, little-endian, zero-padded
//
// Readers never wait: they read the line with atomic loads and use it only
// when the sequence is even and unchanged (no writer touched it
// meanwhile); otherwise, or when the host is not there, they compute the
// answer and store it unless another writer holds the line.
type suffixTable struct {
	lines    []suffixLine // a power of two of them, 64-byte aligned
	keyWords int          // 3 (two ways a line) or 6 (one)
	seed     uint64
}

type suffixLine [8]uint64

// newSuffixTable returns a table of n lines (a power of two) for hosts of
// at most 8×keyWords bytes (3 or 6). A slice this large is a span of its
// own, which starts on a page: every line is a cache line.
func newSuffixTable(n, keyWords int) suffixTable {
	return suffixTable{lines: make([]suffixLine, n), keyWords: keyWords, seed: rand.Uint64()}
}

// lens returns computeSuffixLens(host), from the table when it is there
// (0 < len(host) ≤ 8×t.keyWords).
func (t *suffixTable) lens(host string) (all, icann int) {
	var key [6]uint64
	h := t.key(host, &key)
	line := &t.lines[h&uint64(len(t.lines)-1)]
	seq := atomic.LoadUint64(&line[0])
	meta := atomic.LoadUint64(&line[1])
	w2, w3, w4 := atomic.LoadUint64(&line[2]), atomic.LoadUint64(&line[3]), atomic.LoadUint64(&line[4])
	w5, w6, w7 := atomic.LoadUint64(&line[5]), atomic.LoadUint64(&line[6]), atomic.LoadUint64(&line[7])
	// Way 0's key is words 2…4 (…7 with six key words); way 1's is 5…7,
	// and empty (meta 0) in a table of one way.
	diff0 := (w2 ^ key[0]) | (w3 ^ key[1]) | (w4 ^ key[2])
	diff1 := (w5 ^ key[0]) | (w6 ^ key[1]) | (w7 ^ key[2])
	if t.keyWords == 6 {
		diff0 |= (w5 ^ key[3]) | (w6 ^ key[4]) | (w7 ^ key[5])
	}
	if seq&1 == 0 && atomic.LoadUint64(&line[0]) == seq { // nobody wrote meanwhile
		n := uint8(len(host))
		if uint8(meta) == n && diff0 == 0 {
			return int(uint8(meta >> 8)), int(uint8(meta >> 16))
		}
		if uint8(meta>>32) == n && diff1 == 0 {
			return int(uint8(meta >> 40)), int(uint8(meta >> 48))
		}
	}
	all, icann = computeSuffixLens(host)
	if seq&1 != 0 || !atomic.CompareAndSwapUint64(&line[0], seq, seq+1) {
		return all, icann // a writer holds or changed the line: skip
	}
	// The line is as read (the swap succeeded: nobody wrote since). Take
	// an empty way, else the one the hash picks.
	way := 0
	if t.keyWords == 3 && uint8(meta) != 0 && (uint8(meta>>32) == 0 || h>>63 == 1) {
		way = 1
	}
	m := uint64(len(host)) | uint64(all)<<8 | uint64(icann)<<16 // all, icann ≤ len(host) ≤ 48
	atomic.StoreUint64(&line[1], meta&^(0xFFFFFFFF<<(32*way))|m<<(32*way))
	for i, k := range key[:t.keyWords] {
		atomic.StoreUint64(&line[2+way*t.keyWords+i], k)
	}
	atomic.StoreUint64(&line[0], seq+2)
	return all, icann
}

// key sets key to host's bytes as little-endian words, zero-padded, and
// returns their hash (a multiply-fold per word, keyed by the table's
// random seed).
func (t *suffixTable) key(host string, key *[6]uint64) uint64 {
	n := len(host)
	b := unsafe.Slice(unsafe.StringData(host), n)
	h := t.seed ^ uint64(n)
	for i := range key {
		switch r := n - 8*i; {
		case r >= 8:
			key[i] = binary.LittleEndian.Uint64(b[8*i:])
		case r <= 0:
			return h
		case n >= 8: // the last r bytes: an overlapping load, shifted
			key[i] = binary.LittleEndian.Uint64(b[n-8:]) >> (64 - 8*r)
		default:
			for j := n - 1; j >= 0; j-- {
				key[i] = key[i]<<8 | uint64(b[j])
			}
		}
		hi, lo := bits.Mul64(h^key[i], 0x9E3779B97F4A7C15)
		h = hi ^ lo
	}
	return h
}
