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
	name := strings.TrimSuffix(host, ".") // the labels the list matches
	if name == "" || name[len(name)-1] == '.' {
		return host, -1, -1 // "." or "a..": no last label to match
	}
	l := theSuffixCache().lens(name) // suffixLens, one call less
	if list == ICANNSuffixes {
		i := len(name) - l.icann
		return host, i, registrableStart(name, i)
	}
	if l.registrable == 0 {
		return host, len(name) - l.all, -1
	}
	return host, len(name) - l.all, len(name) - l.registrable
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

// domainLens are the lengths in bytes of a domain's public suffix (with
// both sections of the list, and with ICANN's only) and of its
// registrable domain with both sections (0: none).
type domainLens struct{ all, icann, registrable int }

// computeSuffixLens computes domainLens with the list.
// publicsuffix.PublicSuffix takes the longest matching rule of either
// section; for ICANN's a private match is dropped label by label until an
// ICANN rule (or the default rule "*", a single label) matches what is
// left.
func computeSuffixLens(name string) domainLens {
	suffix, isICANN := publicsuffix.PublicSuffix(name)
	l := domainLens{all: len(suffix)}
	if r := registrableStart(name, len(name)-l.all); r >= 0 {
		l.registrable = len(name) - r
	}
	for !isICANN {
		i := strings.IndexByte(suffix, '.')
		if i < 0 {
			break // the default rule "*": not a rule of either section
		}
		suffix, isICANN = publicsuffix.PublicSuffix(suffix[i+1:])
	}
	l.icann = len(suffix)
	return l
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
// has 30,149), so a lookup costs the memory it reads: one set of two
// hosts, with the keys in place (no pointer to chase), in one 64-byte line
// for hosts of up to 24 bytes (89 % of web's) or two for up to 56 (a
// second table); longer hosts are computed each time. The size is
// bounded: 4 MiB + 2 MiB, allocated on first use (see suffixWords).
// Answers never depend on the cache: the tests compare cached and computed
// answers, with tables of one set too (every host evicting another).
func suffixLens(host string) domainLens { return theSuffixCache().lens(host) }

var (
	suffixCachePtr  atomic.Pointer[suffixCache]
	suffixCacheOnce sync.Once
)

// theSuffixCache returns the process's cache, made on first use.
func theSuffixCache() *suffixCache {
	if c := suffixCachePtr.Load(); c != nil {
		return c
	}
	return makeSuffixCache()
}

func makeSuffixCache() *suffixCache {
	suffixCacheOnce.Do(func() { suffixCachePtr.Store(newSuffixCache(1<<16, 1<<14)) }) // 4 + 2 MiB
	return suffixCachePtr.Load()
}

// A suffixCache is the two tables of suffixLens: hosts of up to 24 bytes
// and of up to 56.
type suffixCache [2]suffixTable

// newSuffixCache returns a cache of shortSets and longSets sets (powers of
// two) in one block of memory (suffixWords): the short table's sets (one
// 64-byte line each), then the long table's (two lines each).
func newSuffixCache(shortSets, longSets int) *suffixCache {
	words := suffixWords(shortSets*8 + longSets*16)
	return &suffixCache{newSuffixTable(words[:shortSets*8], 3), newSuffixTable(words[shortSets*8:], 7)}
}

func (c *suffixCache) lens(host string) domainLens {
	switch {
	case host == "":
		// not cached: an empty way has length 0
	case len(host) <= 8*3:
		return c[0].lens(host)
	case len(host) <= 8*7:
		return c[1].lens(host)
	}
	return computeSuffixLens(host)
}

// A suffixTable is a two-way set-associative cache of computeSuffixLens.
// Set layout, in 64-bit words:
//
//	0  sequence: odd while a writer changes the set (a seqlock)
//	1  each way's meta, 32 bits at bit 32×way: len(host) | all<<8 | icann<<16 | registrable<<24 (len 0: an empty way)
//	2  way 0's key, keyWords words: the host's bytes, little-endian, zero-padded
//	…  way 1's key
//
// Readers never wait: they read the set with atomic loads and use it only
// when the sequence is even and unchanged (no writer touched it
// meanwhile); otherwise, or when the host is not there, they compute the
// answer and store it unless another writer holds the set.
type suffixTable struct {
	words    []uint64 // the sets, a power of two of them
	keyWords int      // 3 (a set is one 64-byte line) or 7 (two)
	mask     uint64   // sets - 1
	seed     uint64
}

// newSuffixTable returns a table on words (a power of two of sets, each
// of 2+2×keyWords words) for hosts of at most 8×keyWords bytes (keyWords 3
// or 7, so that a set fills whole 64-byte lines; a block of suffixWords
// starts on a page, so no set straddles more lines than it fills). The
// words after a set are readable up to its sixteenth: a short table is
// followed by the long table's.
func newSuffixTable(words []uint64, keyWords int) suffixTable {
	sets := len(words) / (2 + 2*keyWords)
	return suffixTable{words: words, keyWords: keyWords, mask: uint64(sets - 1), seed: rand.Uint64()}
}

// lens returns computeSuffixLens(host), from the table when it is there
// (0 < len(host) ≤ 8×t.keyWords).
func (t *suffixTable) lens(host string) domainLens {
	var key [8]uint64
	h := t.key(host, &key)
	kw := t.keyWords
	base := int(h&t.mask) * (2 + 2*kw)
	// A set and the words after it (newSuffixTable).
	set := (*[16]uint64)(unsafe.Pointer(&t.words[base]))
	seq := atomic.LoadUint64(&set[0])
	meta := atomic.LoadUint64(&set[1])
	// diff is zero when the way holds host's bytes: way 0's key starts at
	// word 2, way 1's at 2+kw (5 or 9).
	diff := [2]uint64{
		(atomic.LoadUint64(&set[2]) ^ key[0]) | (atomic.LoadUint64(&set[3]) ^ key[1]) | (atomic.LoadUint64(&set[4]) ^ key[2]),
		(atomic.LoadUint64(&set[(kw+2)&15]) ^ key[0]) | (atomic.LoadUint64(&set[(kw+3)&15]) ^ key[1]) | (atomic.LoadUint64(&set[(kw+4)&15]) ^ key[2]),
	}
	if kw == 7 {
		diff[0] |= (atomic.LoadUint64(&set[5]) ^ key[3]) | (atomic.LoadUint64(&set[6]) ^ key[4]) |
			(atomic.LoadUint64(&set[7]) ^ key[5]) | (atomic.LoadUint64(&set[8]) ^ key[6])
		diff[1] |= (atomic.LoadUint64(&set[12]) ^ key[3]) | (atomic.LoadUint64(&set[13]) ^ key[4]) |
			(atomic.LoadUint64(&set[14]) ^ key[5]) | (atomic.LoadUint64(&set[15]) ^ key[6])
	}
	if seq&1 == 0 && atomic.LoadUint64(&set[0]) == seq { // nobody wrote meanwhile
		for way, d := range diff {
			if m := uint32(meta >> (32 * way)); d == 0 && uint8(m) == uint8(len(host)) {
				return domainLens{int(uint8(m >> 8)), int(uint8(m >> 16)), int(m >> 24)}
			}
		}
	}
	l := computeSuffixLens(host)
	if seq&1 != 0 || !atomic.CompareAndSwapUint64(&set[0], seq, seq+1) {
		return l // a writer holds or changed the set: skip
	}
	// The set is as read (the swap succeeded: nobody wrote since). Take
	// an empty way, else the one the hash picks.
	way := 0
	if uint8(meta) != 0 && (uint8(meta>>32) == 0 || h>>63 == 1) {
		way = 1
	}
	m := uint64(len(host)) | uint64(l.all)<<8 | uint64(l.icann)<<16 | uint64(l.registrable)<<24 // each ≤ len(host) ≤ 56
	atomic.StoreUint64(&set[1], meta&^(0xFFFFFFFF<<(32*way))|m<<(32*way))
	for i, k := range key[:kw] {
		atomic.StoreUint64(&set[(2+way*kw+i)&15], k)
	}
	atomic.StoreUint64(&set[0], seq+2)
	return l
}

// key sets key to host's bytes as little-endian words, zero-padded, and
// returns their hash (a multiply-fold per word, keyed by the table's
// random seed).
func (t *suffixTable) key(host string, key *[8]uint64) uint64 {
	n := len(host)
	p := unsafe.Pointer(unsafe.StringData(host))
	h := t.seed ^ uint64(n)
	mix := func(k uint64) uint64 {
		hi, lo := bits.Mul64(h^k, 0x9E3779B97F4A7C15)
		return hi ^ lo
	}
	if n < 8 {
		for j := n - 1; j >= 0; j-- {
			key[0] = key[0]<<8 | uint64(host[j])
		}
		return mix(key[0])
	}
	i := 0
	for ; i+8 < n; i += 8 {
		key[i>>3&7] = loadWord(p, i)
		h = mix(key[i>>3&7])
	}
	// The last n-i bytes: an overlapping load of the last 8, shifted.
	key[i>>3&7] = loadWord(p, n-8) >> (8 * uint(i+8-n))
	return mix(key[i>>3&7])
}

// loadWord returns the 8 bytes at p+off as a little-endian word.
func loadWord(p unsafe.Pointer, off int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice((*byte)(unsafe.Add(p, off)), 8))
}
