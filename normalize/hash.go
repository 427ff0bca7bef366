package normalize

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"

	"github.com/cespare/xxhash/v2"
)

// appendDigest appends the lowercase hex digest of b: 64 digits for
// sha256, 16 for xxhash64 (edge-gateway.md: "16-character lowercase
// hexadecimal").
func appendDigest(dst []byte, hash string, b []byte) []byte {
	if hash == HashXXHash64 {
		// XXH64 with seed 0, the library edge-gateway itself uses.
		var d [8]byte
		binary.BigEndian.PutUint64(d[:], xxhash.Sum64(b))
		return appendHex(dst, d[:])
	}
	d := sha256.Sum256(b)
	return appendHex(dst, d[:])
}

// appendHex appends b in lowercase hex, four bytes at a time with
// word arithmetic (a byte-at-a-time loop cost ~400 instructions per
// sha256 digest, this ~150).
func appendHex(dst, b []byte) []byte {
	n := len(dst)
	dst = slices.Grow(dst, 2*len(b))[:n+2*len(b)]
	out := dst[n:]
	i := 0
	for ; i+4 <= len(b); i += 4 {
		binary.BigEndian.PutUint64(out[2*i:], hex4(binary.BigEndian.Uint32(b[i:])))
	}
	for ; i < len(b); i++ {
		var w [8]byte
		binary.BigEndian.PutUint64(w[:], hex4(uint32(b[i])))
		out[2*i], out[2*i+1] = w[6], w[7]
	}
	return dst
}

// hex4 returns the 8 lowercase hex digits of x, most significant first
// (big-endian bytes): spread the nibbles one per byte, then add '0', and
// 'a'-'0'-10 more to those ≥ 10.
func hex4(x uint32) uint64 {
	v := uint64(x)
	v = (v | v<<16) & 0x0000FFFF0000FFFF
	v = (v | v<<8) & 0x00FF00FF00FF00FF
	v = (v | v<<4) & 0x0F0F0F0F0F0F0F0F
	ge10 := (v + 0x0606060606060606) >> 4 & 0x0101010101010101
	return v + 0x3030303030303030 + ge10*('a'-'0'-10)
}
