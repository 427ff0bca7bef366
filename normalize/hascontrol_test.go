package normalize

import (
	"strings"
	"testing"
)

// TestHasControl checks the word-at-a-time scan against a byte loop for
// every length up to 40 and every position of one control byte, including
// the overlapping last word.
func TestHasControl(t *testing.T) {
	naive := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if s[i] < 0x20 {
				return true
			}
		}
		return false
	}
	for n := 0; n <= 40; n++ {
		base := strings.Repeat("a\x7f\x80 ~\xff", 7)[:n] // bytes at and above 0x20, high bytes
		if hasControl(base) {
			t.Fatalf("hasControl(%q) = true", base)
		}
		for i := 0; i < n; i++ {
			for _, c := range []byte{0x00, 0x09, 0x0a, 0x0d, 0x1f} {
				s := base[:i] + string(c) + base[i+1:]
				if got := hasControl(s); got != naive(s) || !got {
					t.Fatalf("hasControl(%q) = %v", s, got)
				}
			}
		}
	}
}
