package normalize

import (
	"strings"
	"testing"
)

// TestPathEndMatchesIndexByte holds pathEnd (the SIMD build's 32-byte
// scan, with AVX2) to pathEndIndexByte, the reference: strings of every
// length to 100 with a '?' or a '#' (or both, in either order) at every
// position, from every start i, so that each of the scan's cases meets
// the mark in each lane: a URL shorter than 32 bytes (loadShort, with
// and without its 16-byte halves), a tail of 32 bytes or fewer read in
// the URL's last 32 bytes, and the steps before it.
func TestPathEndMatchesIndexByte(t *testing.T) {
	check := func(s string) {
		t.Helper()
		for i := 0; i <= len(s); i++ {
			if got, want := pathEnd(s, i), pathEndIndexByte(s, i); got != want {
				t.Fatalf("pathEnd(%q, %d) = %d, want %d", s, i, got, want)
			}
		}
	}
	pathMarkCases(100, 7, check)
}

// pathMarkCases calls check with the path-end scans' inputs: strings of
// every length to maxLen with a '?' or a '#' at every position, and the
// other mark after it every step bytes, then a string whose bytes next to
// '?' and '#' ('>', '@', '"', '$') and with the high bit set are not
// marks.
func pathMarkCases(maxLen, step int, check func(string)) {
	for n := 0; n <= maxLen; n++ {
		base := strings.Repeat("a", n)
		check(base)
		for at := 0; at < n; at++ {
			for _, c := range []byte{'?', '#'} {
				b := []byte(base)
				b[at] = c
				check(string(b))
				for at2 := at + 1; at2 < n; at2 += step {
					b2 := append([]byte(nil), b...)
					b2[at2] = '?' + '#' - c
					check(string(b2))
				}
			}
		}
	}
	check("https://example.com/>@\"$\xbf\xa3\xff/x?y#z")
}
