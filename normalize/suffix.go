package normalize

//go:generate go run ../internal/suffixgen

import (
	"math/bits"
	"net/netip"
	"strings"
	"sync"
)

// The Public Suffix List as a hash table from (parent node, label) to
// node: a host's labels are looked up from the last one, each under the
// node the one after it found, as the list's tree is walked. The table is
// built on first use from suffixNodes (suffix_table.go, generated from
// golang.org/x/net's copy of the list) and is then only read, so any
// number of goroutines read it without locks.
//
// It is small enough to stay in the CPU's caches (256 KiB of slots and the
// 32 KiB of suffixText), so a lookup costs a few hashes and loads per
// label instead of a cold line of memory; a table keyed by whole hosts
// cannot be that small (the web corpus has 30,149 distinct hosts).
//
// A slot, from the least significant bit (0: an empty slot; no label of
// the list is empty, so no node is 0):
//
//	[16 bits] its parent's slot (suffixRoot: a top-level label)
//	[16 bits] its label's offset in suffixText
//	[ 6 bits] its label's length
//	[ 2 bits] its type: suffixRule, suffixException or suffixParentOnly
//	[ 1 bit ] in the ICANN section
//	[ 1 bit ] its children match the wildcard
//	[22 bits] the top bits of the key's hash (a tag: most slots that are
//	          not the key's are told apart without reading the label)
const (
	suffixSlotBits = 15 // 10,533 nodes in 32,768 slots: about 1.3 probes for a label the list lacks
	suffixSlots    = 1 << suffixSlotBits
	suffixRoot     = 1<<16 - 1
	suffixTagShift = 42

	suffixRule       = 0 // a rule: the label and the ones after it are a public suffix
	suffixException  = 1 // an exception rule ("!city.kawasaki.jp"): its parent is the suffix
	suffixParentOnly = 2 // not a rule ("amazonaws.com"), only the parent of rules

	// suffixKey is the bits of a slot that its key (parent, label) sets.
	suffixKey = 1<<64 - 1<<suffixTagShift | 63<<32 | 0xFFFF
)

var suffixTable struct {
	once  sync.Once
	slots [suffixSlots]uint64
}

// buildSuffixTable fills suffixTable from suffixNodes, whose nodes come
// after their parents.
func buildSuffixTable() {
	slotOf := make([]uint16, len(suffixNodes)) // a node's index → its slot
	for i, x := range suffixNodes {
		parent := uint64(suffixRoot)
		if p := x & 0x3FFF; p != 0x3FFF {
			parent = uint64(slotOf[p])
		}
		off, n := x>>14&0xFFFF, x>>30&63
		h := suffixHash(parent, suffixText[off:off+n])
		s := h
		for suffixTable.slots[s%suffixSlots] != 0 {
			s++
		}
		s %= suffixSlots
		suffixTable.slots[s] = parent | off<<16 | n<<32 | (x>>36&15)<<38 | h&^(1<<suffixTagShift-1)
		slotOf[i] = uint16(s)
	}
}

// suffixHash hashes the key (parent, label): a multiply-fold per 8 bytes
// of the label. The table holds fixed keys, so a fixed hash gives every
// process the same table (its longest run of full slots, which bounds a
// lookup's probes, is pinned by a test).
func suffixHash(parent uint64, label string) uint64 {
	h := parent<<8 ^ uint64(len(label)) ^ 0x243F6A8885A308D3
	for len(label) > 8 {
		h = suffixMix(h ^ le64(label))
		label = label[8:]
	}
	var w uint64
	for i := len(label) - 1; i >= 0; i-- {
		w = w<<8 | uint64(label[i])
	}
	return suffixMix(h ^ w)
}

func suffixMix(x uint64) uint64 {
	hi, lo := bits.Mul64(x, 0x9E3779B97F4A7C15)
	return hi ^ lo
}

// le64 returns s's first 8 bytes as a little-endian word (len(s) ≥ 8).
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// suffixFind returns the slot of parent's child labelled label and its
// contents, or ok false when parent has no such child.
func suffixFind(parent uint64, label string) (slot, node uint64, ok bool) {
	h := suffixHash(parent, label)
	key := h&^(1<<suffixTagShift-1) | uint64(len(label))<<32 | parent
	for s := h; ; s++ {
		node = suffixTable.slots[s%suffixSlots]
		if node == 0 {
			return 0, 0, false
		}
		if node&suffixKey == key {
			if off := node >> 16 & 0xFFFF; suffixText[off:off+uint64(len(label))] == label {
				return s % suffixSlots, node, true
			}
		}
	}
}

// publicSuffixLen returns the length of domain's public suffix by the
// list's both sections and whether the rule that gave it is ICANN's: the
// answer of publicsuffix.PublicSuffix(domain) of golang.org/x/net, whose
// data the table holds, for every string (the tests compare them), quirks
// included:
//   - the longest rule that matches wins; an exception rule makes its
//     parent the suffix; a wildcard matches any one label, also one that
//     is empty ("a..kawasaki.jp");
//   - a node that is not a rule ("amazonaws.com", the parent of
//     "s3.dualstack.us-east-1.amazonaws.com") matches nothing, but the
//     walk goes on below it;
//   - when no rule matches, the default rule "*" makes the last label the
//     suffix (icann false: "localhost", an unlisted TLD, "" of "");
//   - a suffix made by a wildcard child takes its ICANN bit from the
//     wildcard's node, and a node with wildcard children does not pass
//     its own on when it is the last label walked;
//   - an IP address (as net/netip parses it) is its own suffix, not ICANN.
//
// It reads each byte of domain a bounded number of times (to find the
// dots, to hash a label, at most once more to compare it with a node's);
// the probes per label are bounded by the table's longest run of full
// slots. It does not allocate, but for a string of digits and dots or with
// a colon that is not an IP address (never a domain the URL parser makes),
// whose failed netip.ParseAddr does.
func publicSuffixLen(domain string) (n int, icann bool) {
	if mayBeAddr(domain) {
		if _, err := netip.ParseAddr(domain); err == nil {
			return len(domain), false
		}
	}
	suffixTable.once.Do(buildSuffixTable)
	parent := uint64(suffixRoot)
	s := domain
	start := len(domain) // where the suffix starts; len(domain): no rule matched yet
	icannNode, wildcard := false, false
walk:
	for {
		dot := strings.LastIndexByte(s, '.')
		if wildcard { // the parent's wildcard matches this label, listed or not
			icann, start = icannNode, dot+1
		}
		slot, node, ok := suffixFind(parent, s[dot+1:])
		if !ok {
			break
		}
		icannNode = node>>40&1 == 1
		switch node >> 38 & 3 {
		case suffixRule:
			start = dot + 1
		case suffixException:
			start = len(s) + 1
			break walk
		}
		wildcard = node>>41&1 == 1
		if !wildcard {
			icann = icannNode
		}
		if dot < 0 {
			break
		}
		s, parent = s[:dot], slot
	}
	if start == len(domain) { // the default rule "*"
		return len(domain) - 1 - strings.LastIndexByte(domain, '.'), icann
	}
	return len(domain) - start, icann
}

// mayBeAddr reports whether netip.ParseAddr could accept s: an IPv6
// address has a colon, an IPv4 address only digits and dots. It reads s
// from the end, where a domain has its letters.
func mayBeAddr(s string) bool {
	for i := len(s) - 1; i >= 0; i-- {
		if !isDigit(s[i]) && s[i] != '.' {
			return strings.IndexByte(s, ':') >= 0
		}
	}
	return s != ""
}

// domainLens are the lengths in bytes of a domain's public suffix (with
// both sections of the list, and with ICANN's only) and of its
// registrable domain with both sections (0: none).
type domainLens struct{ all, icann, registrable int }

// suffixLens returns name's domainLens. With ICANN's section only, a
// private suffix loses its first label until what is left has an ICANN
// suffix (or the default rule's, a single label): publicSuffixLen matches
// both sections at once.
func suffixLens(name string) domainLens {
	n, icann := publicSuffixLen(name)
	l := domainLens{all: n, icann: n}
	if r := registrableStart(name, len(name)-n); r >= 0 {
		l.registrable = len(name) - r
	}
	for !icann {
		rest := name[len(name)-l.icann:]
		i := strings.IndexByte(rest, '.')
		if i < 0 {
			break
		}
		l.icann, icann = publicSuffixLen(rest[i+1:])
	}
	return l
}
