//go:build goexperiment.simd && amd64

package normalize

import (
	"math/bits"
	"simd/archsimd"
)

var slashBytes = [32]uint8{'/', '/', '/', '/', '/', '/', '/', '/', '/', '/', '/', '/', '/', '/', '/', '/',
	'/', '/', '/', '/', '/', '/', '/', '/', '/', '/', '/', '/', '/', '/', '/', '/'}

// slashes returns the bit mask of the '/' bytes among the first
// min(len(s), 32) bytes of s (bit i: s[i]): one 32-byte compare. Only
// with simdScans (AVX2).
func slashes(s string) uint32 {
	slash := archsimd.LoadUint8x32(&slashBytes)
	var m uint32
	if len(s) >= 32 {
		m = load32(s, 0).Equal(slash).ToBits()
	} else {
		x, at := loadShort(s) // no byte past s: no '/' past it
		m = positions(x.Equal(slash).ToBits(), at)
	}
	archsimd.ClearAVXUpperBits()
	return m
}

var questionBytes = [32]uint8{'?', '?', '?', '?', '?', '?', '?', '?', '?', '?', '?', '?', '?', '?', '?', '?',
	'?', '?', '?', '?', '?', '?', '?', '?', '?', '?', '?', '?', '?', '?', '?', '?'}

var hashBytes = [32]uint8{'#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#',
	'#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#'}

// pathEnd returns where the path of a special URL that starts at s[i:]
// ends: at its first '?' or '#', or at the end of s. With AVX2 it reads
// 32 bytes a step (two compares and a mask), where pathEndIndexByte's two
// strings.IndexByte calls ('#' over the rest of the URL, then '?' before
// it) cost a call and its setup each: url_query 479 → 407 instructions
// per URL of web. A tail of 32 bytes or fewer (most URLs' path and
// query) in a URL of 32 bytes or more is read in one load of the URL's
// last 32 bytes, its lanes before i shifted out (as spanOKAt); a URL
// shorter than 32 bytes in loadShort's (no byte past s).
func pathEnd(s string, i int) int {
	if !simdScans {
		return pathEndIndexByte(s, i)
	}
	q, h := archsimd.LoadUint8x32(&questionBytes), archsimd.LoadUint8x32(&hashBytes)
	for len(s)-i > 32 {
		x := load32(s, i)
		if m := x.Equal(q).Or(x.Equal(h)).ToBits(); m != 0 {
			archsimd.ClearAVXUpperBits()
			return i + bits.TrailingZeros32(m)
		}
		i += 32
	}
	n := len(s) - i // 0 to 32
	var m uint64
	if len(s) >= 32 {
		x := load32(s, len(s)-32)
		m = uint64(x.Equal(q).Or(x.Equal(h)).ToBits()) >> ((32 - n) & 63) // lane k is s[i+k]
	} else {
		x, at := loadShort(s)
		m = uint64(positions(x.Equal(q).Or(x.Equal(h)).ToBits(), at)) >> (i & 63)
	}
	archsimd.ClearAVXUpperBits()
	return i + bits.TrailingZeros64(m|1<<(n&63)) // n when there is none
}
