package normalize

import (
	"crypto/sha256"
	"encoding/binary"
	"math/bits"
	"slices"
)

// appendDigest appends the lowercase hex digest of b: 64 digits for
// sha256, 16 for xxhash64 (edge-gateway.md: "16-character lowercase
// hexadecimal").
func appendDigest(dst []byte, hash string, b []byte) []byte {
	if hash == HashXXHash64 {
		var d [8]byte
		binary.BigEndian.PutUint64(d[:], XXHash64(b, 0))
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

// xxHash64 primes (XXH64 specification, Yann Collet).
const (
	prime1 uint64 = 0x9E3779B185EBCA87
	prime2 uint64 = 0xC2B2AE3D27D4EB4F
	prime3 uint64 = 0x165667B19E3779F9
	prime4 uint64 = 0x85EBCA77C2B2AE63
	prime5 uint64 = 0x27D4EB2F165667C5
)

// XXHash64 returns the XXH64 hash of b with the given seed, written from
// the XXH64 specification (edge-gateway's cache-key hash).
func XXHash64(b []byte, seed uint64) uint64 {
	n := len(b)
	var h uint64
	if n >= 32 {
		v1 := seed + prime1 + prime2
		v2 := seed + prime2
		v3 := seed
		v4 := seed - prime1
		for len(b) >= 32 {
			v1 = xxRound(v1, binary.LittleEndian.Uint64(b[0:]))
			v2 = xxRound(v2, binary.LittleEndian.Uint64(b[8:]))
			v3 = xxRound(v3, binary.LittleEndian.Uint64(b[16:]))
			v4 = xxRound(v4, binary.LittleEndian.Uint64(b[24:]))
			b = b[32:]
		}
		h = bits.RotateLeft64(v1, 1) + bits.RotateLeft64(v2, 7) +
			bits.RotateLeft64(v3, 12) + bits.RotateLeft64(v4, 18)
		h = xxMerge(h, v1)
		h = xxMerge(h, v2)
		h = xxMerge(h, v3)
		h = xxMerge(h, v4)
	} else {
		h = seed + prime5
	}
	h += uint64(n)
	for len(b) >= 8 {
		h ^= xxRound(0, binary.LittleEndian.Uint64(b))
		h = bits.RotateLeft64(h, 27)*prime1 + prime4
		b = b[8:]
	}
	if len(b) >= 4 {
		h ^= uint64(binary.LittleEndian.Uint32(b)) * prime1
		h = bits.RotateLeft64(h, 23)*prime2 + prime3
		b = b[4:]
	}
	for _, c := range b {
		h ^= uint64(c) * prime5
		h = bits.RotateLeft64(h, 11) * prime1
	}
	h ^= h >> 33
	h *= prime2
	h ^= h >> 29
	h *= prime3
	h ^= h >> 32
	return h
}

func xxRound(acc, in uint64) uint64 {
	acc += in * prime2
	acc = bits.RotateLeft64(acc, 31)
	return acc * prime1
}

func xxMerge(acc, v uint64) uint64 {
	acc ^= xxRound(0, v)
	return acc*prime1 + prime4
}
