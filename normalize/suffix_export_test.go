package normalize

import (
	"fmt"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// DomainLens is domainLens for the tests: the lengths of the public suffix
// (both sections, ICANN's) and of the registrable domain.
type DomainLens = domainLens

// SuffixLens is the lookup in the table (suffix.go).
var SuffixLens = suffixLens

// ComputeSuffixLens is the slow reference SuffixLens is tested against.
var ComputeSuffixLens = computeSuffixLens

// IsPublicSuffix is host.strip_www's test (www.go).
var IsPublicSuffix = isPublicSuffix

// IsPublicSuffixReference is IsPublicSuffix by x/net: the whole name is
// its public suffix with both sections of the list.
func IsPublicSuffixReference(name string) bool { return computeSuffixLens(name).all == len(name) }

// computeSuffixLens computes domainLens with golang.org/x/net's
// publicsuffix.PublicSuffix, whose data suffix_table.go holds: it takes
// the longest matching rule of either section; for ICANN's a private
// match is dropped label by label until an ICANN rule (or the default
// rule "*", a single label) matches what is left.
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

// A SuffixNode is a node of the list's tree as suffixNodes holds it.
type SuffixNode struct {
	Domain          string // its labels and its parents', "kawasaki.jp"
	Kind            int    // suffixRule, suffixException or suffixParentOnly
	ICANN, Wildcard bool
}

// SuffixNodes returns every node of suffixNodes.
func SuffixNodes() []SuffixNode {
	nodes := make([]SuffixNode, len(suffixNodes))
	for i, x := range suffixNodes {
		off, n := x>>14&0xFFFF, x>>30&63
		d := suffixText[off : off+n]
		if p := x & 0x3FFF; p != 0x3FFF {
			d += "." + nodes[p].Domain
		}
		nodes[i] = SuffixNode{d, int(x >> 36 & 3), x>>38&1 == 1, x>>39&1 == 1}
	}
	return nodes
}

// SuffixTableRun returns the longest run of full slots of the table and
// of its table of top-level rules: a lookup probes at most one more slot
// than that per label.
func SuffixTableRun() (slots, tops int) {
	suffixTable.once.Do(buildSuffixTable)
	return longestRun(suffixTable.slots[:]), longestRun(suffixTable.tops[:])
}

func longestRun(slots []suffixSlot) int {
	longest, run := 0, 0
	for i := range 2 * len(slots) { // twice around: a run may wrap
		if slots[i%len(slots)].node == 0 {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return longest
}

// All is the length of the public suffix with both sections of the list.
func (l domainLens) All() int { return l.all }

// ICANN is the length of the public suffix with ICANN's section only.
func (l domainLens) ICANN() int { return l.icann }

// SuffixDotsCut is the walk's test of a big-endian word of a host for a
// dot (suffixDots) and its cut at the last one (suffixCut): the bytes
// below the dot and how many they are; ok is false when there is no dot.
func SuffixDotsCut(w uint64) (first uint64, k int, ok bool) {
	d := suffixDots(w)
	if d == 0 {
		return 0, 0, false
	}
	first, k = suffixCut(w, d)
	return first, k, true
}

// SuffixTopsCheck compares suffixTable.tops, the walk's first step, with
// the main table, the reference it is built from, for every top-level
// label of the list: a rule of 1 to 7 bytes must be found there as the
// main table has it, with its own slot in place of its parent, and the
// table must hold nothing else. It returns what differs.
func SuffixTopsCheck() (errs []string) {
	suffixTable.once.Do(buildSuffixTable)
	want := map[uint64]uint64{} // key → node
	for _, x := range suffixNodes[:suffixTLDs] {
		off, n := x>>14&0xFFFF, x>>30&63
		label := suffixText[off : off+n]
		_, h, first := suffixLabel(label, len(label), suffixRoot)
		slot := suffixHome(h) // the main table's slot of the node
		for e := suffixTable.slots[slot]; e.node&0xFFFF != suffixRoot || e.node>>suffixOffset&0xFFFF != off; e = suffixTable.slots[slot] {
			slot = (slot + 1) % suffixSlots
		}
		if n > 7 {
			continue // not keyed in tops
		}
		key := suffixTopKey(first, int(n))
		if x>>36&3 == suffixRule {
			want[key] = suffixTable.slots[slot].node&^0xFFFF | slot
		}
		if got := suffixTop(key); got != want[key] {
			errs = append(errs, fmt.Sprintf("%q: tops has %#x, want %#x", label, got, want[key]))
		}
	}
	for _, e := range suffixTable.tops {
		if e.first != 0 && want[e.first] != e.node {
			errs = append(errs, fmt.Sprintf("tops holds key %#x, node %#x; want %#x", e.first, e.node, want[e.first]))
		}
	}
	return errs
}

// SuffixNearMisses returns up to count hosts whose walk compares a label
// longer than 8 bytes with a node's and finds them different: the label
// has the node's parent, length and first chunk (it differs in its last
// two bytes), its hash passes the filter, and its probes reach the node's
// slot. Such hosts are rare (about 1 in 250,000 labels so made), so it
// makes them from the list's nodes in order.
func SuffixNearMisses(count int) []string {
	suffixTable.once.Do(buildSuffixTable)
	nodes := SuffixNodes()
	slotOf := map[uint64]uint64{} // a node's parent's slot and offset → its slot
	for s, e := range suffixTable.slots {
		if e.node != 0 {
			slotOf[e.node&0xFFFF|e.node>>suffixOffset&0xFFFF<<16] = uint64(s)
		}
	}
	parentSlot := map[string]uint64{"": suffixRoot}
	var hosts []string
	const digits = "abcdefghijklmnopqrstuvwxyz0123456789"
	for i, x := range suffixNodes {
		off, n := x>>14&0xFFFF, x>>30&63
		label, rest, _ := strings.Cut(nodes[i].Domain, ".")
		parent := parentSlot[rest]
		own := slotOf[parent|off<<16]
		parentSlot[nodes[i].Domain] = own
		if n <= 8 {
			continue
		}
		for v := range len(digits) * len(digits) {
			c := label[:n-2] + string(digits[v%len(digits)]) + string(digits[v/len(digits)])
			if c == label {
				continue
			}
			_, h, _ := suffixLabel(c, len(c), parent)
			if word, bit := suffixBit(h); suffixTable.filter[word]>>(bit&63)&1 == 0 {
				continue
			}
			s := suffixHome(h)
			for s != own && suffixTable.slots[s].node != 0 {
				s = (s + 1) % suffixSlots
			}
			if s == own {
				hosts = append(hosts, strings.TrimSuffix("x."+c+"."+rest, "."))
				if len(hosts) == count {
					return hosts
				}
			}
		}
	}
	return hosts
}
