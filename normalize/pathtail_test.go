package normalize

import "testing"

// TestPathTailMatchesIndexByte holds pathTail (the SIMD build's inline
// pathEnd for a tail of 32 bytes or fewer, which ParseWithoutPath takes
// first) to pathEndIndexByte, the reference: strings of every length to
// 70 with a '?' or a '#' (or both) at every position, from every start i.
// With AVX2 it also fails when pathTail declines a tail it is for (the
// fast path silently off), and always when it accepts one it is not for.
func TestPathTailMatchesIndexByte(t *testing.T) {
	taken := 0
	check := func(s string) {
		t.Helper()
		for i := 0; i <= len(s); i++ {
			got, ok := pathTail(s, i)
			short := len(s) >= 32 && len(s)-i <= 32
			if ok != (short && simdScans) {
				t.Fatalf("pathTail(%q, %d): ok %v, want %v", s, i, ok, short && simdScans)
			}
			if !ok {
				continue
			}
			taken++
			if want := pathEndIndexByte(s, i); got != want {
				t.Fatalf("pathTail(%q, %d) = %d, want %d", s, i, got, want)
			}
		}
	}
	pathMarkCases(70, 5, check)
	if simdScans && taken == 0 {
		t.Fatal("pathTail took no tail")
	}
}
