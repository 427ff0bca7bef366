//go:build goexperiment.simd && amd64

package normalize

import "simd/archsimd"

var ampBytes = [32]uint8{'&', '&', '&', '&', '&', '&', '&', '&', '&', '&', '&', '&', '&', '&', '&', '&',
	'&', '&', '&', '&', '&', '&', '&', '&', '&', '&', '&', '&', '&', '&', '&', '&'}

var eqSignBytes = [32]uint8{'=', '=', '=', '=', '=', '=', '=', '=', '=', '=', '=', '=', '=', '=', '=', '=',
	'=', '=', '=', '=', '=', '=', '=', '=', '=', '=', '=', '=', '=', '=', '=', '='}

// queryMasks returns the bit masks of the '&' and of the '=' of q, of 8
// to maxMaskLen-1 bytes (bit i: q[i]), and other, not 0 when a byte of q
// is not vOK in tab (a profile's queryTab, whose nibbleSet is set; tab
// nil: 0): with AVX2 two loads of 32 bytes at most (q's first and last 32,
// which overlap: a byte in both has the same bit), two compares and the
// set's test each, where queryKept read q again for its byte test
// (spanSet); else queryMasksSWAR (and spanSet's scan, other's lowest bit
// then).
func queryMasks(q string, tab *[256]uint8, set *nibbleSet) (amp, eq, other uint64) {
	if !simdScans {
		amp, eq = queryMasksSWAR(q)
		return amp, eq, spanOther(q, tab, set)
	}
	if tab == nil {
		set = nil // no byte test
	}
	a, e := archsimd.LoadUint8x32(&ampBytes), archsimd.LoadUint8x32(&eqSignBytes)
	if len(q) >= 32 {
		lo, hi, at := load32(q, 0), load32(q, len(q)-32), uint(len(q)-32)
		amp = uint64(lo.Equal(a).ToBits()) | uint64(hi.Equal(a).ToBits())<<at
		eq = uint64(lo.Equal(e).ToBits()) | uint64(hi.Equal(e).ToBits())<<at
		if set != nil {
			other = uint64(^set.in(nibbles(lo))) | uint64(^set.in(nibbles(hi)))<<at
		}
	} else {
		x, at := loadShort(q) // no byte past q: no '&' nor '=' past it
		amp, eq = uint64(positions(x.Equal(a).ToBits(), at)), uint64(positions(x.Equal(e).ToBits(), at))
		if set != nil {
			other = uint64(positions(^set.in(nibbles(x)), at)) & (1<<len(q) - 1) // loadShort's zeros past q are in no set
		}
	}
	archsimd.ClearAVXUpperBits()
	if set == nil {
		return amp, eq, spanOther(q, tab, nil) // a table without a nibbleSet
	}
	return amp, eq, other
}
