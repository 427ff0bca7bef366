//go:build !(goexperiment.simd && amd64)

package normalize

// Without GOEXPERIMENT=simd on amd64 the verbatim scans are the SWAR ones
// (verbatim_swar.go); verbatim_simd_amd64.go has the other build's.

// hostSpan returns the end of the leading bytes of s[i:] that vHost takes
// and whether an uppercase letter is among them.
func hostSpan(s string, i int) (int, bool) {
	n, up := hostSpanSWAR(s[i:])
	return i + n, up
}

// spanSet returns the length of the leading bytes of s whose class in tab
// is vOK: the SIMD build scans with set, this one has none.
func spanSet(s string, tab *[256]uint8, _ *nibbleSet) int { return spanOKSWAR(s, tab) }

// nibbleSet is the SIMD build's form of a byte class; this build makes
// none (makeNibbleSet returns nil).
type nibbleSet struct{}

func makeNibbleSet(func(c byte) bool) *nibbleSet { return nil }

// spanOKAt returns i plus the length of the leading bytes of s[i:] whose
// class in tab is vOK.
func spanOKAt(s string, i int, tab *[256]uint8) int { return i + spanOKSWAR(s[i:], tab) }

// verbatimPath checks the path at s[i:]: see verbatimPathSWAR.
func verbatimPath(s string, i int, v *verbatimURL) int { return verbatimPathSWAR(s, i, v) }

// scanAuthority: see verbatim.go.
func scanAuthority(s string, v *verbatimURL) int {
	start, folded := schemeStart(s)
	if start < 0 {
		return -1
	}
	n, up := hostSpanSWAR(s[start:])
	if r := afterHost(s, start, start+n, folded || up, v); r != hostTail {
		return r
	}
	return endAuthority(s, start, start+n, folded || up, v)
}
