//go:build goexperiment.simd && amd64

package normalize

import "simd/archsimd"

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
