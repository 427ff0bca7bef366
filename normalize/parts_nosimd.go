//go:build !(goexperiment.simd && amd64)

package normalize

// simdScans is false without GOEXPERIMENT=simd on amd64: the code that
// reads it takes its portable path, and the compiler drops the other.
const simdScans = false

// slashes returns the bit mask of the '/' bytes among the first
// min(len(s), 32) bytes of s (bit i: s[i]). The SIMD build's is one
// compare; AllPathSegments calls it only there (simdScans).
func slashes(s string) uint32 {
	var m uint32
	for i := range min(len(s), 32) {
		if s[i] == '/' {
			m |= 1 << i
		}
	}
	return m
}

// pathEnd returns where the path of a special URL that starts at s[i:]
// ends: at its first '?' or '#', or at the end of s.
func pathEnd(s string, i int) int { return pathEndIndexByte(s, i) }

// extension is Extension by extensionOf (the SIMD build's reads one
// load of the path's end).
func (u *URL) extension() string {
	if u.opaque {
		return ""
	}
	return extensionOf(u.Path(), u.plainPath)
}

// slashesAt returns the bit mask of the '/' bytes of b[i:i+32];
// AllPathSegments calls it only with simdScans.
func slashesAt(b []byte, i int) uint32 { return slashes(string(b[i : i+32])) }

// pathTail is the SIMD build's inline pathEnd for short tails; without
// it the caller calls pathEnd.
func pathTail(s string, i int) (end int, ok bool) { return 0, false }

// partsPath is the SIMD build's one-load verbatimPath for the path parts.
func partsPath(s string, i int, v *verbatimURL) int { return verbatimPath(s, i, v) }

// onePass is false: the portable build has no one-pass ParseThroughPath
// (throughPath1); it scans the authority and the path apart.
const onePass = false

// throughPath1 is never called without onePass.
func (p *Parser) throughPath1(s string) (*URL, error) { return p.throughPathFrom(s, -1) }
