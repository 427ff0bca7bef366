package normalize

import (
	"encoding/hex"
	"testing"
)

// TestHexDigest checks the word-at-a-time hex encoding of both digests
// against encoding/hex, with every nibble value in every position and a
// prefix in dst.
func TestHexDigest(t *testing.T) {
	for k := range 16 {
		var d [32]byte
		for i := range d {
			d[i] = byte(i*37 + 11 + k*16) // every nibble value shows up
		}
		d[0], d[1], d[2] = 0x00, 0xff, 0x9a
		var h [64]byte
		hex32(&h, &d)
		if want := hex.EncodeToString(d[:]); string(h[:]) != want {
			t.Fatalf("hex32(%x) = %s, want %s", d, h, want)
		}
	}
	// xxhash64's 8 bytes (XXH64 of "abc", TestXXHash64), after a prefix
	got := string(appendDigest([]byte("x:"), HashXXHash64, []byte("abc")))
	if got != "x:44bc2cf5ad770999" {
		t.Errorf("appendDigest(xxhash64, abc) = %q", got)
	}
}
