//go:build linux

package normalize_test

import (
	"testing"
	"unsafe"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestSuffixWordsHuge pins that a cache of 2 MiB or more starts on a
// 2 MiB boundary (where transparent huge pages can back it), is zeroed
// and writable, and that a small one is an ordinary slice of the length
// asked.
func TestSuffixWordsHuge(t *testing.T) {
	const huge = 2 << 20
	w := normalize.SuffixWords(3 << 18) // 6 MiB, the process cache's size
	if len(w) != 3<<18 || uintptr(unsafe.Pointer(&w[0]))%huge != 0 {
		t.Fatalf("len %d at %p: want %d words on a 2 MiB boundary", len(w), &w[0], 3<<18)
	}
	for _, i := range []int{0, len(w) / 2, len(w) - 1} {
		if w[i] != 0 {
			t.Errorf("word %d = %#x, want 0", i, w[i])
		}
		w[i] = uint64(i)
	}
	if small := normalize.SuffixWords(24); len(small) != 24 || cap(small) != 24 {
		t.Errorf("small: len %d cap %d, want 24", len(small), cap(small))
	}
}
