package normalize

import (
	"encoding/hex"
	"testing"
)

// TestAppendHex checks the word-at-a-time hex encoder against
// encoding/hex for every length up to 40 and a prefix in dst.
func TestAppendHex(t *testing.T) {
	b := make([]byte, 40)
	for i := range b {
		b[i] = byte(i*37 + 11) // every nibble value shows up
	}
	b[0], b[1], b[2] = 0x00, 0xff, 0x9a
	for n := 0; n <= len(b); n++ {
		got := string(appendHex([]byte("x:"), b[:n]))
		if want := "x:" + hex.EncodeToString(b[:n]); got != want {
			t.Fatalf("appendHex(%x) = %q, want %q", b[:n], got, want)
		}
	}
}
