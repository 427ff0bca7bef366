package normalize

import (
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

// SuffixTableRun returns the longest run of full slots of the table: a
// lookup probes at most one more slot than that per label.
func SuffixTableRun() int {
	suffixTable.once.Do(buildSuffixTable)
	longest, run := 0, 0
	for i := range 2 * suffixSlots { // twice around: a run may wrap
		if suffixTable.slots[i%suffixSlots] == 0 {
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
