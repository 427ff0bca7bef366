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
// It is small enough to stay in the CPU's caches (512 KiB of slots, each
// a node and its label's first chunk in 16 bytes, so that a probe reads
// one line of memory; and the 32 KiB of suffixText), so a lookup costs a
// hash and a few loads per label instead of a cold line of memory: this
// replaced a 6 MiB cache keyed by whole hosts, whose lines a corpus of
// 30,149 distinct hosts (the web corpus) could not keep warm. A host's
// top-level label, the one every walk looks up, has a small table of its
// own (suffixTable.tops, keyed by the label's bytes: no hash of a parent,
// no filter), and the label before it is most often ruled out by the
// filter, so that most walks read no slot of the main table at all (on
// the web corpus, 8,703 lookups in it for 59,317 hosts).
//
// A slot's node, from the least significant bit (0: an empty slot; no
// label of the list is empty, so no node is 0):
//
//	[16 bits] its parent's slot (suffixRoot: a top-level label)
//	[16 bits] its label's length
//	[16 bits] its label's offset in suffixText
//	[ 2 bits] its type: suffixRule, suffixException or suffixParentOnly
//	[ 1 bit ] in the ICANN section
//	[ 1 bit ] its children match the wildcard
//
// The key (parent, length) is the low 32 bits: a probe compares them in
// one instruction.
const (
	suffixSlotBits = 15 // 10,533 nodes in 32,768 slots: 1.5 probes per lookup (that the filter lets through) on web_dirty's hosts
	suffixSlots    = 1 << suffixSlotBits
	suffixRoot     = 1<<16 - 1

	suffixRule       = 0 // a rule: the label and the ones after it are a public suffix
	suffixException  = 1 // an exception rule ("!city.kawasaki.jp"): its parent is the suffix
	suffixParentOnly = 2 // not a rule ("amazonaws.com"), only the parent of rules

	suffixOffset   = 32 // the node's bits
	suffixType     = 48
	suffixICANN    = 50
	suffixWildcard = 51
)

var suffixTable struct {
	once  sync.Once
	slots [suffixSlots]suffixSlot

	// filter has the bit suffixBit(h) of each node's hash h set: a label
	// whose bit is clear is not in the table, which a lookup knows from
	// these 32 KiB, warm in the first-level cache, rather than from a
	// slot that a label unlisted under its parent ("example" of
	// "www.example.com": most hosts have one) reads at random.
	filter [1 << (suffixFilterBits - 6)]uint64

	// tops holds the top-level rules of 1 to 7 bytes ("com", not
	// "xn--p1ai" nor "amazonaws"), keyed by suffixTopKey, for the walk's
	// first step: each slot's first is the key, its node the main table's
	// with its own slot in place of its parent's.
	tops [suffixTops]suffixSlot

	// tails and wild serve suffixQuick. tails has the bit
	// suffixTailBit(suffixTailHash(t)) set for the text t of every node
	// two labels deep ("co.uk", "blogspot.com", "amazonaws.com") and
	// three labels deep ("blogspot.co.uk"); wild has the bit
	// suffixWildBit(…) set for every top-level node of 1 to 7 bytes
	// whose children match the wildcard ("*.ck") or that is an
	// exception, and for the empty label.
	tails [1 << (suffixTailBits - 6)]uint64
	wild  [1 << (suffixWildBits - 6)]uint64
	// wildLens has the bit k set when wild has a label of k bytes.
	wildLens uint64

	// seconds has the bit suffixSecondBit of the text of every node two
	// labels deep ("co.uk", "blogspot.com"), for isSuffix: a domain whose
	// last two labels' bit is clear has no such node at its end.
	seconds [1 << (suffixSecondBits - 6)]uint64

	// pairs holds, for suffixQuick2, the nodes two labels deep whose
	// text has at most 7 bytes ("co.uk", "com.au") that are rules and
	// whose children do not match the wildcard, each as suffixPairKey
	// (0: an empty slot); tails then has the bits of the nodes three
	// labels deep too.
	pairs [suffixPairs]uint64
}

// suffixPairBits sizes suffixTable.pairs: 2,212 nodes in 4,096 slots.
const (
	suffixPairBits = 12
	suffixPairs    = 1 << suffixPairBits
)

// suffixPairKey is the key in suffixTable.pairs of the text of j ≤ 7
// bytes whose big-endian word is t (zero above its bytes).
func suffixPairKey(t uint64, j int) uint64 { return t | uint64(j)<<56 }

const suffixWildBits = 12

// suffixTailBits sizes suffixTable.tails: the 5,480 nodes two labels deep
// and the 2,628 three labels deep in 262,144 bits (32 KiB), 3.0 % of them
// set.
const suffixTailBits = 18

// suffixSecondBits sizes suffixTable.seconds: the 5,480 nodes two labels
// deep in 131,072 bits (16 KiB).
const suffixSecondBits = 17

// suffixSecondBit returns the bit of suffixTable.seconds of a domain's
// last two labels, from w, the big-endian word of its last 8 bytes (of a
// shorter text: its bytes, zero above), and d, w's dots (dotBytes, not 0):
// w's bytes below its second-to-last dot, or all of w when it has one dot
// (a second-level label that reaches past the word: "blogspot.com" is
// "spot.com"). One word, whatever the labels' lengths: texts that share
// their last 8 bytes share a bit, which only sends a domain to the walk.
func suffixSecondBit(w, d uint64) uint64 {
	if d2 := d & (d - 1); d2 != 0 {
		w &= suffixBelow[bits.TrailingZeros64(d2)>>3&7]
	}
	return suffixMix(w) >> (64 - suffixSecondBits)
}

// suffixTopBits sizes suffixTable.tops: 1,098 labels in 4,096 slots (64
// KiB, of which a corpus reads the few lines of its common labels), 1.08
// probes per lookup on the web corpora's hosts.
const (
	suffixTopBits = 12
	suffixTops    = 1 << suffixTopBits
)

// suffixTopKey is the key in suffixTable.tops of a label of k ≤ 7 bytes
// whose first chunk is first (zero above its k bytes): its length above
// its bytes, and a top bit that no empty slot has.
func suffixTopKey(first uint64, k int) uint64 { return 1<<63 | uint64(k)<<56 | first }

// suffixTopHome returns the slot of suffixTable.tops where the probes for
// a key start.
func suffixTopHome(key uint64) uint64 { return suffixMix(key) >> (64 - suffixTopBits) }

// suffixTop returns the node of the top-level rule whose key is key
// (suffixTopKey), with its own slot in place of its parent; or 0 when
// there is none.
func suffixTop(key uint64) uint64 {
	for i := suffixTopHome(key); ; i++ {
		e := &suffixTable.tops[i&(suffixTops-1)]
		if e.first == key || e.first == 0 {
			return e.node
		}
	}
}

// A suffixSlot is a node of the table (0: an empty slot) and its label's
// first chunk (suffixLabel: most labels whole).
type suffixSlot struct{ node, first uint64 }

const suffixFilterBits = 18 // 10,533 nodes in 262,144 bits: 4 % of unlisted labels pass

// suffixBit returns the filter's word and bit of a key's hash h: the 18
// bits below the slot's (suffixHome). The bit is a shift count that the
// shift masks to 6 bits.
func suffixBit(h uint64) (word, bit uint64) {
	return h >> (64 - suffixSlotBits - suffixFilterBits + 6) & (1<<(suffixFilterBits-6) - 1), h >> (64 - suffixSlotBits - suffixFilterBits)
}

// suffixHome returns the slot where the probes for a key's hash h start:
// its top bits (a product's, which all of the key's bits reach).
func suffixHome(h uint64) uint64 { return h >> (64 - suffixSlotBits) }

// buildSuffixTable fills suffixTable from suffixNodes, whose nodes come
// after their parents.
func buildSuffixTable() {
	slotOf := make([]uint16, len(suffixNodes)) // a node's index → its slot
	var buf [3 * 64]byte                       // suffixNodeText's: 3 labels of up to 63 bytes
	bit := suffixWildBit(0)                    // an empty top-level label (suffixQuick)
	suffixTable.wild[bit>>6] |= 1 << (bit & 63)
	suffixTable.wildLens = 1
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
		s := suffixHome(h)
		for suffixTable.slots[s%suffixSlots].node != 0 {
			s++
		}
		s %= suffixSlots
		suffixTable.slots[s] = suffixSlot{parent | n<<16 | off<<suffixOffset | (x>>36&15)<<suffixType, first}
		word, bit := suffixBit(h)
		suffixTable.filter[word] |= 1 << (bit & 63)
		slotOf[i] = uint16(s)
		if parent == suffixRoot && n <= 7 && (x>>36&3 == suffixException || x>>39&1 == 1) {
			bit := suffixWildBit(first)
			suffixTable.wild[bit>>6] |= 1 << (bit & 63)
			suffixTable.wildLens |= 1 << n
		}
		if text, depth := suffixNodeText(buf[:0], i); depth == 2 || depth == 3 {
			if depth == 2 {
				var w uint64 // the text's last 8 bytes, zero above fewer
				for _, c := range text[max(len(text)-8, 0):] {
					w = w<<8 | uint64(c)
				}
				bit := suffixSecondBit(w, dotBytes(w))
				suffixTable.seconds[bit>>6] |= 1 << (bit & 63)
			}
			bit := suffixTailBit(suffixTailHash(text))
			suffixTable.tails[bit>>6] |= 1 << (bit & 63)
			if depth == 2 && len(text) <= 7 && x>>36&3 == suffixRule && x>>39&1 == 0 {
				var t uint64
				for i := range len(text) {
					t = t<<8 | uint64(text[i])
				}
				key := suffixPairKey(t, len(text))
				p := suffixMix(key) >> (64 - suffixPairBits)
				for suffixTable.pairs[p%suffixPairs] != 0 {
					p++
				}
				suffixTable.pairs[p%suffixPairs] = key
			}
		}
		if parent == suffixRoot && x>>36&3 == suffixRule && n <= 7 {
			key := suffixTopKey(first, int(n))
			t := suffixTopHome(key)
			for suffixTable.tops[t%suffixTops].first != 0 {
				t++
			}
			suffixTable.tops[t%suffixTops] = suffixSlot{suffixTable.slots[s].node&^0xFFFF | s, key}
		}
	}
}

// suffixLabel returns where the label of s that ends at end starts (0, or
// after a dot), the hash of the key (parent, that label), and the label's
// first chunk. A label is hashed in chunks of 8 bytes counted from its
// end, each a big-endian word (the label's last byte in the low bits),
// the first chunk having 1 to 8 bytes (none for an empty label), zero
// above them: a multiply per chunk (suffixMix) from the last. The table
// holds fixed keys, so a fixed hash gives every process the same table
// (its longest run of full slots, which bounds a lookup's probes, is
// pinned by a test).
//
// It reads s a word at a time from end, finding the dot and hashing in one
// pass: the word at p holds s[p-8:p], also when fewer than 8 bytes are
// left (the word of s[:8] shifted down, zero above; only a string shorter
// than 8 bytes is read a byte at a time). The first chunk is then the word
// with the bytes up to the last dot cleared.
func suffixLabel(s string, end int, parent uint64) (start int, hash, first uint64) {
	h := suffixSeed(parent)
	for p := end; ; p -= 8 {
		var w uint64
		switch {
		case p >= 8:
			w = be64(s[p-8 : p])
		case len(s) >= 8:
			w = be64(s[:8]) >> (8 * (7 - p) & 63) >> 8 // s[:p] in the low bytes
		default: // s is shorter than 8 bytes
			i, sh := p-1, 0
			for ; i >= 0 && s[i] != '.'; i, sh = i-1, sh+8 {
				first |= uint64(s[i]) << sh
			}
			return i + 1, suffixMix(h ^ first), first
		}
		if d := suffixDots(w); d != 0 {
			first, k := suffixCut(w, d)
			return p - k, suffixMix(h ^ first), first
		}
		// No dot: the 8 bytes (those of them in s) are the label's first
		// chunk when s or the label starts before them.
		if p <= 8 {
			return 0, suffixMix(h ^ w), w
		}
		if s[p-9] == '.' {
			return p - 8, suffixMix(h ^ w), w
		}
		h = suffixMix(h ^ w)
	}
}

// suffixDots marks the last dot of w, a big-endian word of a string (its
// last byte in the low bits): 0x80 in the lowest byte that is '.' and 0
// below it, or 0 when w has no dot. Bytes above that dot may be marked
// too (a borrow runs up from it, "./"): only the lowest mark is exact,
// and it is the one the walk wants. It is dotBytes' test with one
// operation less (TestSuffixDots holds it to a byte loop), and the walk
// tests every word of a label with it.
func suffixDots(w uint64) uint64 {
	x := w ^ '.'*ones // the dots' bytes are 0
	return (x - ones) &^ x & (0x80 * ones)
}

// suffixCut returns the bytes of w below its last dot (the others
// cleared) and how many they are; d is suffixDots(w) ≠ 0.
func suffixCut(w, d uint64) (first uint64, k int) {
	k = bits.TrailingZeros64(d) >> 3 // the dot's top bit is 8k+7
	return w & suffixBelow[k&7], k
}

// suffixBelow[k] is the mask of a word's k low bytes: read from memory,
// not made by a shift by a variable count, which x86 takes in one
// register only (CX), out of which the walk then moves its values.
var suffixBelow = [8]uint64{0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, 0xFF_FFFFFFFF, 0xFFFF_FFFFFFFF, 0xFFFFFF_FFFFFFFF}

// suffixProbe returns the first slot from h's on whose node has key (the
// parent and the length, the node's low 32 bits) and whose label starts
// with first, and that node; or the empty slot that ends the run, and 0.
func suffixProbe(h uint64, key uint32, first uint64) (slot, node uint64) {
	for slot = h; ; slot++ {
		e := &suffixTable.slots[slot&(suffixSlots-1)]
		if e.node == 0 || uint32(e.node) == key && e.first == first {
			return slot & (suffixSlots - 1), e.node
		}
	}
}

// suffixSeed starts the hash of a key with its parent's slot, spread over
// the word by a multiply.
func suffixSeed(parent uint64) uint64 { return parent * 0x9E3779B97F4A7C15 }

// dotBytes returns w with 0x80 in each byte that is '.' and 0 elsewhere.
func dotBytes(w uint64) uint64 { return eqBytes(w, '.') }

// eqBytes returns w with 0x80 in each byte that is c and 0 elsewhere
// (exactly: no carry runs from one byte into the next).
func eqBytes(w uint64, c byte) uint64 {
	const lo7 = 0x7F7F7F7F7F7F7F7F
	x := w ^ uint64(c)*ones // c's bytes are 0
	return ^((x&lo7 + lo7) | x | lo7)
}

// suffixMix is the hash's step: a multiply by an odd constant
// (splitmix64's), whose top bits every bit of x reaches, and the slot
// (suffixHome) and the filter's bit (suffixBit) are taken from them. It
// was the 128-bit product's halves folded; one 64-bit multiply spares
// the two registers x86 takes it in (8 instructions per URL on the web
// corpus).
func suffixMix(x uint64) uint64 { return x * 0xBF58476D1CE4E5B9 }

// be64 returns s's first 8 bytes as a big-endian word (len(s) ≥ 8).
func be64(s string) uint64 {
	_ = s[7]
	return uint64(s[7]) | uint64(s[6])<<8 | uint64(s[5])<<16 | uint64(s[4])<<24 |
		uint64(s[3])<<32 | uint64(s[2])<<40 | uint64(s[1])<<48 | uint64(s[0])<<56
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
// the dots and hash them (the last 8 bytes twice when the top-level label
// is not in suffixTable.tops), and probes at most one slot more per label
// than the table's longest run of full slots (13, and 9 in tops;
// TestSuffixTableRun), reading a node's label only when its parent,
// length and first chunk match. It does not allocate, but for a string
// that netip.ParseAddr may take (digits and dots; or up to 4 hex digits,
// then a colon) and that is no IP address (never a domain the URL parser
// makes), whose failed parse does.
func publicSuffixLen(domain string) (n int, icann bool, registrable int) {
	if mayBeAddr(domain) {
		if _, err := netip.ParseAddr(domain); err == nil {
			return len(domain), false, -1
		}
	}
	return suffixWalk(domain)
}

// suffixNodeText appends to text the labels of suffixNodes[i] and its
// parents' ("co.uk") when it is at most 3 labels deep, and returns it and
// the node's depth.
func suffixNodeText(text []byte, i int) ([]byte, int) {
	depth := 0
	for p := i; p != 0x3FFF; p = int(suffixNodes[p] & 0x3FFF) {
		depth++
	}
	if depth > 3 {
		return text, depth
	}
	for ; i != 0x3FFF; i = int(suffixNodes[i] & 0x3FFF) {
		off, n := suffixNodes[i]>>14&0xFFFF, suffixNodes[i]>>30&63
		if len(text) > 0 {
			text = append(text, '.')
		}
		text = append(text, suffixText[off:off+n]...)
	}
	return text, depth
}

// suffixTailHash is the hash of t, the last two or three labels of a
// domain and the dots between them, for suffixTable.tails: a multiply
// (suffixMix) per chunk of 8 bytes counted from t's end, each a
// big-endian word, and a last one for the 0 to 7 bytes left (zero above
// them). suffixQuick computes it inline, from the host's end.
func suffixTailHash(t []byte) uint64 {
	h, p := uint64(0), len(t)
	for ; p >= 8; p -= 8 {
		h = suffixMix(h ^ be64(string(t[p-8:p])))
	}
	var c uint64
	for i := range p {
		c = c<<8 | uint64(t[i])
	}
	return suffixMix(h ^ c)
}

// suffixWildBit returns the bit of suffixTable.wild of a top-level label
// of up to 7 bytes whose big-endian word is first (zero above its bytes):
// labels that differ in their leading NULs share it, which only sends a
// host to the walk.
func suffixWildBit(first uint64) uint64 { return suffixMix(first) >> (64 - suffixWildBits) }

// suffixTailBit returns the bit of suffixTable.tails of a hash.
func suffixTailBit(h uint64) uint64 { return h >> (64 - suffixTailBits) }

// suffixQuick is suffixWalk's public suffix and registrable domain for
// the common domain, or registrable -1 when it cannot tell. The common
// domain ("www.example.com": 88 % of the web corpus's hosts, 75 % of
// web_dirty's; 95 % and 81 % with suffixQuick2's) ends in a top-level label of 1 to 7 bytes whose children
// do not match the wildcard (suffixTable.wild), and its last two labels
// are no node of the list (suffixTable.tails; not "co.uk" nor
// "blogspot.com"): its public suffix is then the top-level label, listed
// or not (an unlisted one is the default rule's suffix), and its
// registrable domain the last two labels, when the one before the
// top-level label is not empty. It reads the bytes of those two labels
// a word at a time from the end, finding the dots and hashing them
// (suffixTailHash) in one pass, and one bit of each table; none of the
// walk's (suffixTable.tops, filter, slots), whose steps label by label
// take ~150 instructions on such a host. When the last two labels have
// at most 7 bytes and may be a node ("co.uk"), suffixQuick2 looks one
// label further. The caller builds the table first (suffixTable.once,
// not tested here on every call). TestSuffixQuickNodes and
// TestSuffixQuickCorpus hold it to x/net.
func suffixQuick(domain string) (n, registrable int) {
	if len(domain) < 8 {
		return 0, -1
	}
	w := be64(domain[len(domain)-8:])
	d := dotBytes(w) // exact: the lowest marks are the last dots
	if d == 0 {
		return 0, -1
	}
	k := bits.TrailingZeros64(d) >> 3
	if suffixTable.wildLens>>k&1 != 0 { // not for "com": all of the list's wildcard labels have 2 bytes
		if bit := suffixWildBit(w & suffixBelow[k&7]); suffixTable.wild[bit>>6]>>(bit&63)&1 != 0 {
			return 0, -1 // a wildcard's or an exception's label, or an empty one
		}
	}
	var h uint64
	l, j := 0, 8 // where the two labels start; how many bytes they are when fewer than 8
	if d &= d - 1; d != 0 {
		j = bits.TrailingZeros64(d) >> 3 // both dots in the last word
		h, l = suffixMix(w&suffixBelow[j&7]), len(domain)-j
	} else {
		// suffixTail, inline: as a call it cost 11 instructions per URL
		// of the web corpus.
		h = suffixMix(w)
		for p := len(domain) - 8; ; p -= 8 {
			if p >= 8 {
				w = be64(domain[p-8 : p])
			} else {
				w = be64(domain[:8]) >> (8 * (7 - p) & 63) >> 8 // domain[:p], zero above
			}
			if d := suffixDots(w); d != 0 {
				c, i := suffixCut(w, d)
				h, l = suffixMix(h^c), p-i
				break
			}
			if p < 8 {
				h = suffixMix(h ^ w)
				break
			}
			h = suffixMix(h ^ w)
		}
	}
	if l == len(domain)-k-1 {
		return 0, -1 // the label before the top-level one is empty
	}
	if bit := suffixTailBit(h); suffixTable.tails[bit>>6]>>(bit&63)&1 == 0 {
		return k, l
	}
	if j < 8 {
		return suffixQuick2(domain, w, d, j)
	}
	return 0, -1 // maybe a node
}

// suffixTail returns the hash (suffixTailHash) of the last labels of
// domain up to the first dot before p and where they start, from h, the
// hash of the chunks of 8 bytes after p.
func suffixTail(domain string, p int, h uint64) (hash uint64, start int) {
	for ; ; p -= 8 {
		var w uint64
		if p >= 8 {
			w = be64(domain[p-8 : p])
		} else {
			w = be64(domain[:8]) >> (8 * (7 - p) & 63) >> 8 // domain[:p], zero above
		}
		if d := suffixDots(w); d != 0 {
			c, j := suffixCut(w, d)
			return suffixMix(h ^ c), p - j
		}
		if p < 8 {
			return suffixMix(h ^ w), 0
		}
		h = suffixMix(h ^ w)
	}
}

// suffixQuick2 is suffixQuick for a domain whose last two labels, its
// last j ≤ 7 bytes, may be a node: when they are a rule whose children do
// not match the wildcard (suffixTable.pairs: "co.uk", "com.au"; 7 % of
// the web corpus's hosts) and the last three labels are no node
// (suffixTable.tails), the suffix is the two labels and the registrable
// domain the three. w is the domain's last 8 bytes and d their dots'
// marks (dotBytes) without the last dot's.
func suffixQuick2(domain string, w, d uint64, j int) (n, registrable int) {
	key := suffixPairKey(w&suffixBelow[j&7], j)
	for p := suffixMix(key) >> (64 - suffixPairBits); ; p++ {
		if e := suffixTable.pairs[p&(suffixPairs-1)]; e == key {
			break
		} else if e == 0 {
			return 0, -1
		}
	}
	var h uint64
	l := 0 // where the three labels start
	if d &= d - 1; d != 0 {
		i := bits.TrailingZeros64(d) >> 3 // three dots in the last word
		h, l = suffixMix(w&suffixBelow[i&7]), len(domain)-i
	} else {
		h, l = suffixTail(domain, len(domain)-8, suffixMix(w))
	}
	if bit := suffixTailBit(h); suffixTable.tails[bit>>6]>>(bit&63)&1 != 0 || l == len(domain)-j-1 {
		return 0, -1 // maybe a node; or the label before the two is empty
	}
	return j, l
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

	// The top-level label first, from suffixTable.tops, when the last 8
	// bytes hold it and its dot and it is a rule ("com"; 99.3 % of the
	// web corpus's walks): one word read, a key that is the label itself,
	// no filter, no wildcard to look at. The walk below goes on from the
	// label before it (there is one: the dot); it starts from the top when
	// the label is any other (longer, unlisted, not a rule). The ICANN bit
	// is the node's own, even when its children match the wildcard: the
	// label before it is such a child, and gives the same bit.
	if len(domain) >= 8 {
		if w := be64(domain[len(domain)-8:]); suffixDots(w) != 0 {
			first, k := suffixCut(w, suffixDots(w))
			if node := suffixTop(suffixTopKey(first, k)); node != 0 {
				t := len(domain) - k
				start, l, end = t, t, t-1
				parent, up, icann = node&0xFFFF, node, node>>suffixICANN&1 == 1
			}
		}
	}
walk:
	for {
		// The label that ends at end, its key's hash and its first chunk:
		// suffixLabel, inline (as a call per label it spilled the walk's
		// state to the stack and back: 60 instructions per URL on the web
		// corpus). TestSuffixLensNodes and FuzzSuffixLens hold the two to
		// each other: a hash that differs from the table's finds nothing.
		h, w := suffixSeed(parent), uint64(0)
	chunks:
		for p := end; ; p -= 8 {
			switch {
			case p >= 8:
				w = be64(domain[p-8 : p])
			case len(domain) >= 8:
				w = be64(domain[:8]) >> (8 * (7 - p) & 63) >> 8
			default:
				i, sh := p-1, 0
				for w = 0; i >= 0 && domain[i] != '.'; i, sh = i-1, sh+8 {
					w |= uint64(domain[i]) << sh
				}
				l = i + 1
				break chunks
			}
			if d := suffixDots(w); d != 0 {
				var k int
				w, k = suffixCut(w, d)
				l = p - k
				break
			}
			if p <= 8 {
				l = 0
				break
			}
			if domain[p-9] == '.' {
				l = p - 8
				break
			}
			h = suffixMix(h ^ w)
		}
		h = suffixMix(h ^ w)
		if up>>suffixWildcard&1 == 1 { // the parent's wildcard matches this label, listed or not
			icann, start = up>>suffixICANN&1 == 1, l
		}

		// The node of key (parent, domain[l:end]): a slot whose parent,
		// length and first chunk match, and whose label does.
		if word, bit := suffixBit(h); suffixTable.filter[word]>>(bit&63)&1 == 0 {
			// No node has this key. When the suffix starts after this
			// label (most hosts: "example" of "www.example.com"), the
			// label starts the registrable domain, unless it is empty.
			if start == end+1 && l < end {
				return len(domain) - start, icann, l
			}
			break walk
		}
		n := end - l
		slot, node := suffixHome(h), uint64(0)
		for {
			if slot, node = suffixProbe(slot, uint32(n<<16)|uint32(parent), w); node == 0 {
				break walk
			}
			if n <= 8 {
				break // the first chunk is the whole label
			}
			// A longer label, compared eight bytes a step (the last
			// step overlaps the one before), inline: a call to
			// runtime.memequal here made the walk keep its state on
			// the stack. Every match of a listed label longer than 8
			// bytes runs it (the node tests); a label that differs
			// and still has the node's parent, length and first chunk
			// and reaches its slot is rare, and TestSuffixLensNearMisses
			// builds some.
			off := node >> suffixOffset & 0xFFFF
			a, b := suffixText[off:off+uint64(n)], domain[l:end]
			same := le64(a[n-8:]) == le64(b[n-8:])
			for i := 0; same && i+8 < n; i += 8 {
				same = le64(a[i:]) == le64(b[i:])
			}
			if same {
				break
			}
			slot++
		}

		switch node >> suffixType & 3 {
		case suffixRule:
			start = l
		case suffixException:
			start = end + 1
			break walk
		}
		if node>>suffixWildcard&1 == 0 { // with wildcard children, the ICANN bit waits for the child
			icann = node>>suffixICANN&1 == 1
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

// notSuffixEnd reports that s[from:] is surely no public suffix, for a
// string s of n ≥ 8 bytes (lowercase) whose last 8 are the big-endian
// word w (from is 0, or s[from-1] is a dot): s[from:] has two labels or
// more, the last one of at most 7 bytes and no wildcard's nor exception's
// (suffixTable.wild), and its last two labels are no node of the list
// (suffixTable.seconds: not "co.uk", not "blogspot.com"). The walk would
// then stop at the top-level label, listed or not (the default rule), so
// the suffix is that label alone. Otherwise it cannot tell (false). The
// caller builds the table first (suffixTable.once).
func notSuffixEnd(w uint64, n, from int) bool {
	d := dotBytes(w)
	if d == 0 {
		return false // a top-level label of 8 bytes or more
	}
	k := bits.TrailingZeros64(d) >> 3 // the top-level label's length
	if n-k-1 < from {
		return false // s[from:] is one label
	}
	if suffixTable.wildLens>>k&1 != 0 { // not for "com": all of the list's wildcard labels have 2 bytes
		if bit := suffixWildBit(w & suffixBelow[k&7]); suffixTable.wild[bit>>6]>>(bit&63)&1 != 0 {
			return false // a wildcard's or an exception's label, or an empty one
		}
	}
	bit := suffixSecondBit(w, d)
	return suffixTable.seconds[bit>>6]>>(bit&63)&1 == 0
}

// isSuffix reports whether s[from:] (from is 0, or s[from-1] is a dot),
// which is no IP address (suffixWalk), is a public suffix by itself
// (suffixWalk's length is len(s)-from), the test host.strip_www asks about
// what follows a www label ("www.example.com", from 4). Most such domains
// ("example.com") have two labels or more and end in two that are no node
// of the list: notSuffixEnd tells from the last 8 bytes of s, which hold
// the top-level label and its dot also when s[from:] is shorter
// ("www.pwc.com"; a label ends at s[from-1]'s dot as it ends at the start
// of s[from:]), for 81 % of the www hosts of web and web_dirty. Of the
// others, suffixQuick tells most ("bbc.co.uk": 18 %) and the walk the
// rest (1 %).
func isSuffix(s string, from int) bool {
	suffixTable.once.Do(buildSuffixTable)
	if len(s) >= 8 && notSuffixEnd(be64(s[len(s)-8:]), len(s), from) {
		return false
	}
	if len(s)-from >= 8 {
		if _, r := suffixQuick(s[from:]); r >= 0 {
			return false
		}
	}
	n, _, _ := suffixWalk(s[from:])
	return n == len(s)-from
}
