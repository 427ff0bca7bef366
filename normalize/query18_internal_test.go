package normalize

import (
	"strings"
	"testing"
)

// TestKeyEndMatchesIndexByte: keyEnd's word steps and byte loop give
// IndexByte's answer (the first '=' of q[at:end], or end) for every piece
// bounds of queries of up to 40 bytes with an '=' or a '&' at each
// position: the '=' in the first, a later or the last word, past end (the
// next piece's), in the byte loop's tail, or none.
func TestKeyEndMatchesIndexByte(t *testing.T) {
	for size := range 41 {
		for _, fill := range []string{"a", "&", "=", "a=&"} {
			base := []byte(strings.Repeat(fill, size+1)[:size])
			for at := range size + 1 {
				for pos := range size {
					for _, c := range []byte{'=', '&', 'x'} {
						b := append([]byte(nil), base...)
						b[pos] = c
						q := string(b)
						end := len(q)
						if i := strings.IndexByte(q[at:], '&'); i >= 0 {
							end = at + i
						}
						want := end
						if i := strings.IndexByte(q[at:end], '='); i >= 0 {
							want = at + i
						}
						if got := keyEnd(q, at, end); got != want {
							t.Fatalf("keyEnd(%q, %d, %d) = %d, want %d", q, at, end, got, want)
						}
					}
				}
			}
		}
	}
}
