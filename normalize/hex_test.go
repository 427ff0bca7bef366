package normalize

import (
	"encoding/hex"
	"testing"
)

// TestHexDigest checks the hex encodings of a sha256 digest (hex32: the
// AVX2 one in the GOEXPERIMENT=simd build on a CPU with AVX2, and the
// word-at-a-time one) against encoding/hex, with every byte value in
// every position, and appendDigest's xxhash64 digits after a prefix.
func TestHexDigest(t *testing.T) {
	encoders := []struct {
		name string
		hex  func(*[64]byte, *[32]byte)
	}{{"hex32", hex32}, {"hex32SWAR", hex32SWAR}}
	for _, e := range encoders {
		for k := range 256 {
			var d [32]byte
			for i := range d {
				d[i] = byte(k + i*(2*k+1)) // byte k+i·odd: every value at every position over the ks
			}
			var h [64]byte
			e.hex(&h, &d)
			if want := hex.EncodeToString(d[:]); string(h[:]) != want {
				t.Fatalf("%s(%x) = %s, want %s", e.name, d, h, want)
			}
		}
	}
	// xxhash64's 8 bytes (XXH64 of "abc", TestXXHash64), after a prefix
	got := string(appendDigest([]byte("x:"), HashXXHash64, []byte("abc")))
	if got != "x:44bc2cf5ad770999" {
		t.Errorf("appendDigest(xxhash64, abc) = %q", got)
	}
}
