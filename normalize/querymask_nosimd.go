//go:build !(goexperiment.simd && amd64)

package normalize

// queryMasks returns the bit masks of the '&' and of the '=' of q, of 8
// to maxMaskLen-1 bytes (bit i: q[i]): queryMasksSWAR; and other, not 0
// when a byte of q is not vOK in tab (nil: 0), spanSet's scan. The other
// build's reads the bytes once for all three.
func queryMasks(q string, tab *[256]uint8, set *nibbleSet) (amp, eq, other uint64) {
	amp, eq = queryMasksSWAR(q)
	return amp, eq, spanOther(q, tab, set)
}
