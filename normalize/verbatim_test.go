package normalize

import (
	"fmt"
	"strings"
)

// VerbatimMismatch parses in with the parser's fast paths and with none
// (the reference) and describes the first difference: the error kind, or
// the URL's buffer and fields (offsets, port, host kind and charset,
// plainPath). "" when they agree. It also reports whether the verbatim
// scan took in, so that tests can count their reach.
func VerbatimMismatch(in string) (diff string, verbatim bool) {
	var v verbatimURL
	verbatim = scanVerbatim(in, &v)
	var fast, ref URL
	pf, pr := parser{}, parser{reference: true}
	kf, kr := pf.parse(&fast, in, nil), pr.parse(&ref, in, nil)
	switch {
	case kf != kr:
		return fmt.Sprintf("error %v, reference %v", kf, kr), verbatim
	case kf != nil:
		return "", verbatim
	}
	// The reference leaves plainPath false (unknown): the fast paths may
	// only set it when the path has no '%', ';' or "//".
	if fast.plainPath {
		if path := fast.Path(); strings.ContainsAny(path, "%;") || strings.Contains(path, "//") {
			return fmt.Sprintf("plainPath set for path %q", path), verbatim
		}
		ref.plainPath = true
	}
	f, r := fmt.Sprintf("%q %+v", fast.buf, fieldsOf(&fast)), fmt.Sprintf("%q %+v", ref.buf, fieldsOf(&ref))
	if f != r {
		return "fast " + f + "\nreference " + r, verbatim
	}
	return "", verbatim
}

// fieldsOf is u without its buffer, for printing.
func fieldsOf(u *URL) URL {
	c := *u
	c.buf = nil
	return c
}

// VerbatimEligible reports whether n takes verbatimCanon (compileVerbatim).
func VerbatimEligible(n *Normalizer) bool { return n.same }
