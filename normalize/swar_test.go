package normalize

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// hostSpanBytes is hostSpan a byte at a time: its reference.
func hostSpanBytes(s string) (int, bool) {
	j, upper := 0, false
	for ; j < len(s) && vHost[s[j]] != 0; j++ {
		upper = upper || vHost[s[j]]&vUpper != 0
	}
	return j, upper
}

// TestHostSpan: hostSpan takes what vHost takes, byte by byte: every byte
// value at every offset of hosts of 0 to 24 bytes (the word loop, its
// tail, the word the byte ends), with an uppercase letter before it,
// after it, or none; and random strings of host bytes and others.
func TestHostSpan(t *testing.T) {
	check := func(s string) {
		t.Helper()
		n, up := hostSpan(s, 0)
		wn, wup := hostSpanBytes(s)
		if n != wn || up != wup {
			t.Fatalf("hostSpan(%q) = %d, %v; want %d, %v", s, n, up, wn, wup)
		}
	}
	for size := range 25 {
		base := strings.Repeat("a", size)
		for at := range size {
			for c := range 256 {
				b := []byte(base)
				b[at] = byte(c)
				check(string(b))
				if at+1 < size {
					b[at+1] = 'Q' // an uppercase letter after it
					check(string(b))
					b[at+1] = 'a'
				}
				if at > 0 {
					b[0] = 'Q' // before it
					check(string(b))
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(18, 3))
	for range 100000 {
		check(randomScanInput(rng, 30, 8, "abcxyzABCXYZ0189-._", "abzAZ09-._/:?#%@[]`{\x00\x7f\x80\xff"))
	}
}

// randomScanInput returns a random string of fewer than size bytes for the
// scan tests: bytes of common, and one in oneIn of rare.
func randomScanInput(rng *rand.Rand, size, oneIn int, common, rare string) string {
	b := make([]byte, rng.IntN(size))
	for i := range b {
		if rng.IntN(oneIn) == 0 {
			b[i] = rare[rng.IntN(len(rare))]
		} else {
			b[i] = common[rng.IntN(len(common))]
		}
	}
	return string(b)
}

// TestLowerASCII: lowerASCII lowercases every ASCII letter and only them,
// at every length (the overlapping last word) and offset.
func TestLowerASCII(t *testing.T) {
	var all []byte
	for c := range 0x80 {
		all = append(all, byte(c))
	}
	all = append(all, "HTTPS://EXAMPLE.COM@[]`{"...)
	for size := range len(all) + 1 {
		for at := 0; at+size <= len(all); at += 7 {
			b := []byte(string(all[at : at+size]))
			lowerASCII(b)
			for i, c := range all[at : at+size] {
				if b[i] != lower(c) {
					t.Fatalf("lowerASCII(%q)[%d] = %q, want %q", all[at:at+size], i, b[i], lower(c))
				}
			}
		}
	}
}
