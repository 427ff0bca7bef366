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
// It is small enough to stay in the CPU's caches (256 KiB of slots, as
// much for their labels' first chunks, read only when a slot's tag
// matches, and the 32 KiB of suffixText), so a lookup costs a hash and a
// few loads per label instead of a cold line of memory: this replaced a
// 6 MiB cache keyed by whole hosts, whose lines a corpus of 30,149
// distinct hosts (the web corpus) could not keep warm.
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
	suffixSlotBits = 15 // 10,533 nodes in 32,768 slots: 1.3 probes per label on web_dirty's hosts
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
	first [suffixSlots]uint64 // each slot's label's first chunk (suffixLabel): most labels whole

	// filter has the bit suffixBit(h) of each node's hash h set: a label
	// whose bit is clear is not in the table, which a lookup knows from
	// these 32 KiB, warm in the first-level cache, rather than from a
	// slot that a label unlisted under its parent ("example" of
	// "www.example.com": most hosts have one) reads at random.
	filter [1 << (suffixFilterBits - 6)]uint64
}

const suffixFilterBits = 18 // 10,533 nodes in 262,144 bits: 4 % of unlisted labels pass

// suffixBit returns the filter's word and bit of a key's hash h (bits
// that neither the slot, its low bits, nor the tag, its top ones, use).
func suffixBit(h uint64) (word, bit uint64) {
	i := h >> suffixSlotBits & (1<<suffixFilterBits - 1)
	return i >> 6, 1 << (i & 63)
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
		label := suffixText[off : off+n]
		if n == 0 || strings.IndexByte(label, '.') >= 0 {
			panic("normalize: suffixNodes has an empty label or one with a dot: " + label)
		}
		_, h, first := suffixLabel(label, len(label), parent)
		s := h
		for suffixTable.slots[s%suffixSlots] != 0 {
			s++
		}
		s %= suffixSlots
		suffixTable.slots[s] = parent | off<<16 | n<<32 | (x>>36&15)<<38 | h&^(1<<suffixTagShift-1)
		suffixTable.first[s] = first
		word, bit := suffixBit(h)
		suffixTable.filter[word] |= bit
		slotOf[i] = uint16(s)
	}
}

// suffixLabel returns where the label of s that ends at end starts (0, or
// after a dot), the hash of the key (parent, that label), and the label's
// first chunk. A label is hashed in chunks of 8 bytes counted from its
// end, the first chunk having 1 to 8 bytes (none for an empty label) as a
// little-endian word, zero-padded: a multiply-fold per chunk from the
// last. The table holds fixed keys, so a fixed hash gives every process
// the same table (its longest run of full slots, which bounds a lookup's
// probes, is pinned by a test).
//
// It reads s a word at a time from end, finding the dot and hashing in one
// pass: byte i of the word at p is s[p-8+i], also when fewer than 8 bytes
// are left (the word of s[:8] shifted up; only a string shorter than 8
// bytes is read a byte at a time).
func suffixLabel(s string, end int, parent uint64) (start int, hash, first uint64) {
	h := suffixSeed(parent)
	for p := end; ; p -= 8 {
		var w uint64
		switch {
		case p >= 8:
			w = le64(s[p-8 : p])
		case len(s) >= 8:
			w = le64(s[:8]) << (8 * (8 - p)) // s[:p] in the top bytes
		default: // s is shorter than 8 bytes
			i := p - 1
			for ; i >= 0 && s[i] != '.'; i-- {
				first = first<<8 | uint64(s[i])
			}
			return i + 1, suffixMix(h ^ first), first
		}
		if d := dotBytes(w); d != 0 {
			i := (63 - bits.LeadingZeros64(d)) >> 3 // the last dot's byte
			first = w >> (8 * i & 63) >> 8
			return p - 7 + i, suffixMix(h ^ first), first
		}
		// No dot: the 8 bytes (those of them in s) are the label's first
		// chunk when s or the label starts before them.
		if p <= 8 {
			first = w >> (8 * (8 - p) & 63)
			return 0, suffixMix(h ^ first), first
		}
		if s[p-9] == '.' {
			return p - 8, suffixMix(h ^ w), w
		}
		h = suffixMix(h ^ w)
	}
}

// suffixSeed starts the hash of a key with its parent (in the top bits,
// where only the chunks of labels longer than 6 bytes reach).
func suffixSeed(parent uint64) uint64 { return parent<<48 ^ 0x243F6A8885A308D3 }

// dotBytes returns w with 0x80 in each byte that is '.' and 0 elsewhere.
func dotBytes(w uint64) uint64 { return eqBytes(w, '.') }

// eqBytes returns w with 0x80 in each byte that is c and 0 elsewhere
// (exactly: no carry runs from one byte into the next).
func eqBytes(w uint64, c byte) uint64 {
	const lo7 = 0x7F7F7F7F7F7F7F7F
	x := w ^ uint64(c)*ones // c's bytes are 0
	return ^((x&lo7 + lo7) | x | lo7)
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

// publicSuffixLen returns the length of domain's public suffix by the
// list's both sections, whether the rule that gave it is ICANN's, and
// where the registrable domain (the suffix and one more label) starts
// (-1: none): publicsuffix.PublicSuffix(domain) of golang.org/x/net, whose
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
// Its work is linear in len(domain): it walks at most one label more than
// the list's tree is deep, reads each byte of those labels once to find
// the dots and hash them, and probes at most one slot more per label than
// the table's longest run of full slots (14; TestSuffixTableRun), reading
// a node's label only when its tag, parent and length match. It does not
// allocate, but for a string that netip.ParseAddr may take (digits and
// dots; or up to 4 hex digits, then a colon) and that is no IP address
// (never a domain the URL parser makes), whose failed parse does.
func publicSuffixLen(domain string) (n int, icann bool, registrable int) {
	if mayBeAddr(domain) {
		if _, err := netip.ParseAddr(domain); err == nil {
			return len(domain), false, -1
		}
	}
	return suffixWalk(domain)
}

// suffixWalk is publicSuffixLen for a string that is no IP address as
// net/netip parses it: a URL's domain never is one (the URL parser reads
// a host that ends in a number as an IPv4 address or fails, and a domain
// has no ':'; TestDomainIsNoAddr), so the URL parts skip mayBeAddr's
// look at the host's ends.
func suffixWalk(domain string) (n int, icann bool, registrable int) {
	suffixTable.once.Do(buildSuffixTable)
	parent := uint64(suffixRoot)
	end := len(domain)   // the label walked ends here
	start := len(domain) // where the suffix starts; len(domain): no rule matched yet
	var up uint64        // the node of the label after this one (0: none)
	l := 0               // where the label walked starts
walk:
	for {
		// The label that ends at end, its key's hash and its first chunk:
		// suffixLabel, inline (as a call per label it spilled the walk's
		// state to the stack and back: 60 instructions per URL on the web
		// corpus). TestSuffixLensNodes and FuzzSuffixLens hold the two to
		// each other: a hash that differs from the table's finds nothing.
		h, w := suffixSeed(parent), uint64(0)
		for p := end; ; p -= 8 {
			switch {
			case p >= 8:
				w = le64(domain[p-8 : p])
			case len(domain) >= 8:
				w = le64(domain[:8]) << (8 * (8 - p))
			default:
				i := p - 1
				for w = 0; i >= 0 && domain[i] != '.'; i-- {
					w = w<<8 | uint64(domain[i])
				}
				l, h = i+1, suffixMix(h^w)
				goto label
			}
			if d := dotBytes(w); d != 0 {
				i := (63 - bits.LeadingZeros64(d)) >> 3
				w = w >> (8 * i & 63) >> 8
				l, h = p-7+i, suffixMix(h^w)
				goto label
			}
			if p <= 8 {
				w >>= 8 * (8 - p) & 63
				l, h = 0, suffixMix(h^w)
				goto label
			}
			if domain[p-9] == '.' {
				l, h = p-8, suffixMix(h^w)
				goto label
			}
			h = suffixMix(h ^ w)
		}
	label:
		if up>>41&1 == 1 { // the parent's wildcard matches this label, listed or not
			icann, start = up>>40&1 == 1, l
		}

		// The node of key (parent, domain[l:end]): a slot whose tag,
		// parent and length match, and whose label does.
		n := end - l
		key := h&^(1<<suffixTagShift-1) | uint64(n)<<32 | parent
		var node, slot uint64
		if word, bit := suffixBit(h); suffixTable.filter[word]&bit == 0 {
			break walk // no node has this key
		}
		for slot = h % suffixSlots; ; slot = (slot + 1) % suffixSlots {
			node = suffixTable.slots[slot]
			if node == 0 {
				break walk
			}
			if node&suffixKey != key {
				continue
			}
			if suffixTable.first[slot] != w {
				continue
			}
			if n <= 8 {
				break // the first chunk is the whole label
			}
			// A longer label, compared eight bytes a step (the last
			// step overlaps the one before), inline: a call to
			// runtime.memequal here made the walk keep its state on
			// the stack. Every match of a listed label longer than 8
			// bytes runs it (the node tests); a label that differs
			// and still has the node's slot run, tag and first chunk
			// is a 1-in-2^37 case that no test constructs.
			off := node >> 16 & 0xFFFF
			a, b := suffixText[off:off+uint64(n)], domain[l:end]
			same := le64(a[n-8:]) == le64(b[n-8:])
			for i := 0; same && i+8 < n; i += 8 {
				same = le64(a[i:]) == le64(b[i:])
			}
			if same {
				break
			}
		}

		switch node >> 38 & 3 {
		case suffixRule:
			start = l
		case suffixException:
			start = end + 1
			break walk
		}
		if node>>41&1 == 0 { // with wildcard children, the ICANN bit waits for the child
			icann = node>>40&1 == 1
		}
		if l == 0 {
			break
		}
		end, parent, up = l-1, slot, node
	}
	if start == len(domain) { // the default rule "*": the last label
		start = strings.LastIndexByte(domain, '.') + 1
	}
	registrable = -1
	switch {
	case start == 0:
	case end == start-1: // the walk's last label is the one before the suffix (the common case)
		if l < end {
			registrable = l
		} // else it is empty: no registrable domain
	default:
		registrable = registrableStart(domain, start)
	}
	return len(domain) - start, icann, registrable
}

// mayBeAddr reports whether netip.ParseAddr could accept s: an IPv6
// address starts with "::" or with 1 to 4 hex digits and a colon (a zone
// after "%" may hold anything, "fe80::1%a.com"), an IPv4 address has only
// digits and dots. It reads at most the first 5 bytes and the last ones
// up to a letter.
func mayBeAddr(s string) bool {
	for i := 0; i < len(s) && i < 5; i++ {
		if s[i] == ':' {
			return true
		}
		if !isHex(s[i]) {
			break
		}
	}
	for i := len(s) - 1; i >= 0; i-- {
		if !isDigit(s[i]) && s[i] != '.' {
			return false
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
	n, icann, r := publicSuffixLen(name)
	l := domainLens{all: n, icann: n}
	if r >= 0 {
		l.registrable = len(name) - r
	}
	for !icann {
		rest := name[len(name)-l.icann:]
		i := strings.IndexByte(rest, '.')
		if i < 0 {
			break
		}
		l.icann, icann, _ = publicSuffixLen(rest[i+1:])
	}
	return l
}
