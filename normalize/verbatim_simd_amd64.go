//go:build goexperiment.simd && amd64

package normalize

import (
	"math/bits"
	"simd/archsimd"
	"unsafe"
)

// The verbatim scans 32 bytes a step with AVX2, in the GOEXPERIMENT=simd
// build (issue 18): the SWAR scans (verbatim_swar.go) take a CPU without
// AVX2 and spanOK's tables that have no nibbleSet (a profile's query
// rules). A scan never loads a byte outside its string: a step that would
// pass the end loads the last 32 bytes instead, whose first bytes were
// read already (or, in verbatimPath, belong to the authority and are
// ignored); a string shorter than 32 bytes is loaded by loadShort. Each
// return of a SIMD scan clears the upper halves of the vector registers
// (VZEROUPPER): the rest of the program is SSE code, which pays for dirty
// upper halves on Intel CPUs (false dependencies).

// simdScans is set when the CPU has AVX2 (VPSHUFB and VPMOVMSKB on 32
// bytes).
var simdScans = archsimd.X86.AVX2()

// A nibbleSet is a set of ASCII bytes as a table of the low nibble: bit h
// of entry l is set when the byte h<<4|l is in the set. A byte is in the
// set when set[low nibble] & 1<<(high nibble) != 0 (hiBit); a byte of
// 0x80 or more has no bit in hiBit, so it is in no set. The 16 entries
// are there twice: VPSHUFB looks up each 16-byte half of a 32-byte
// register in its own half of the table.
type nibbleSet [32]uint8

// hiBit maps a high nibble h to 1<<h (0 for h >= 8: no ASCII byte).
var hiBit = nibbleSet{1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128}

var lowNibble = [32]uint8{0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f,
	0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f}

// makeNibbleSet returns the nibbleSet of the bytes c for which in(c)
// holds, or nil when one of them is 0x80 or more (no nibbleSet holds it:
// the caller keeps the SWAR scan).
func makeNibbleSet(in func(c byte) bool) *nibbleSet {
	var t nibbleSet
	for c := range 256 {
		switch {
		case !in(byte(c)):
		case c >= 0x80:
			return nil
		default:
			t[c&15] |= 1 << (c >> 4)
			t[16+c&15] |= 1 << (c >> 4)
		}
	}
	return &t
}

// Sets of the scans; nil when a set has a byte of 0x80 or more (then the
// SWAR scan serves: never, with today's tables; TestScansMatchSWAR).
var (
	querySet, fragmentSet              *nibbleSet // vQuery's and vFragment's vOK
	pathOrdinary, pathSlash, pathAfter *nibbleSet // vPathWord: no wStop; wSlash; wAfter
	pathNote                           *nibbleSet // vPathWord: wNote
	pathSetsOK                         bool       // all four path sets were made
)

func init() {
	// This file's init runs after verbatim.go's and parse.go's, which fill
	// the tables read here (the go command hands the files to the compiler
	// sorted by name, and init functions run in that order).
	if set := makeNibbleSet(func(c byte) bool { return vHost[c]&vOK != 0 }); set != nil {
		hostSet, hostSIMD = *set, simdScans
	}
	querySet = makeNibbleSet(func(c byte) bool { return vQuery[c] == vOK })
	fragmentSet = makeNibbleSet(func(c byte) bool { return vFragment[c] == vOK })
	pathOrdinary = makeNibbleSet(func(c byte) bool { return vPathWord[c]&wStop == 0 })
	pathSlash = makeNibbleSet(func(c byte) bool { return vPathWord[c]&wSlash != 0 })
	pathAfter = makeNibbleSet(func(c byte) bool { return vPathWord[c]&wAfter != 0 })
	pathNote = makeNibbleSet(func(c byte) bool { return vPathWord[c]&wNote != 0 })
	pathSetsOK = pathOrdinary != nil && pathSlash != nil && pathAfter != nil && pathNote != nil
}

// load32 loads s[i:i+32] (a bounds check: never a byte past s).
func load32(s string, i int) archsimd.Uint8x32 {
	return archsimd.LoadUint8x32((*[32]uint8)(unsafe.Pointer(unsafe.StringData(s[i : i+32]))))
}

// load16 loads s[i:i+16].
func load16(s string, i int) archsimd.Uint8x16 {
	return archsimd.LoadUint8x16((*[16]uint8)(unsafe.Pointer(unsafe.StringData(s[i : i+16]))))
}

// loadShort loads s, shorter than 32 bytes, without a byte past its end:
// s[:16] and s[len(s)-16:] in the two halves when s has 16 bytes or more
// (at = len(s)-16: the lane of s[i] is i, or i-at+16), else s and zero
// bytes, from a copy on the stack (at = 16: the lane of s[i] is i).
// positions turns a mask of its lanes into a mask of positions in s.
func loadShort(s string) (x archsimd.Uint8x32, at uint) {
	if len(s) >= 16 {
		return x.SetLo(load16(s, 0)).SetHi(load16(s, len(s)-16)), uint(len(s) - 16)
	}
	var b [32]uint8
	copy(b[:], s)
	return archsimd.LoadUint8x32(&b), 16
}

// positions maps a mask of the lanes of loadShort's vector to the
// positions of their bytes in s (a byte in both halves: the same bit).
func positions(m uint32, at uint) uint32 { return m&0xffff | m>>16<<at }

// nibbles splits the bytes of x into their low nibbles (the index of a
// nibbleSet) and the bit of their high nibble (hiBit).
func nibbles(x archsimd.Uint8x32) (lo archsimd.Int8x32, col archsimd.Uint8x32) {
	mask := archsimd.LoadUint8x32(&lowNibble)
	hi := x.AsInt16x16().ShiftAllRight(4).AsUint8x32().And(mask) // VPSRAW: an immediate count (VPSRLW takes it from a register); the mask drops the bits shifted in
	return x.And(mask).AsInt8x32(), archsimd.LoadUint8x32((*[32]uint8)(&hiBit)).PermuteOrZeroGrouped(hi.AsInt8x32())
}

// in returns the bit mask of the bytes (lane i: bit i) in t, of which
// nibbles gave lo and col.
func (t *nibbleSet) in(lo archsimd.Int8x32, col archsimd.Uint8x32) uint32 {
	var zero archsimd.Uint8x32
	return ^archsimd.LoadUint8x32((*[32]uint8)(t)).PermuteOrZeroGrouped(lo).And(col).Equal(zero).ToBits()
}

// scanAuthority: see verbatim.go. A host of fewer than 32 bytes in a URL
// of 16 bytes or more (99 % of web's URLs) takes one load, inline
// (hostSpan's call and glue cost more than its scan): s[start:start+32],
// or s's last 32 bytes when s[start+32] is past the end (their lanes
// before start shifted out, and lanes not taken shifted in after the
// end), or the two halves of loadShort for a URL of 16 to 31 bytes (11 %
// of web's). hostAuthority takes the others.
func scanAuthority(s string, v *verbatimURL) int {
	start, folded := schemeStart(s)
	if start < 0 || len(s) < 16 || !hostSIMD {
		return hostAuthority(s, start, folded, v)
	}
	var lanes uint64
	j := len(s) - 32 // the last 32 bytes
	if j >= 0 {
		j = min(start, j) // 0 <= j <= len(s)-32: s[j:j+32] without load32's two bounds checks
		lanes = hostLanes(archsimd.LoadUint8x32((*[32]uint8)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), j))))
	} else {
		lanes, j = hostLanesShort(s), 0
	}
	archsimd.ClearAVXUpperBits()
	sh := uint(start-j) & 31                         // start < len(s), so start-j < 32
	bad := (lanes&0xffffffff | 0xffffffff<<32) >> sh // lane k is s[start+k]; those past s's end are not taken
	n := bits.TrailingZeros64(bad)                   // the first byte not taken: at most 32
	if n == 32 {
		return hostAuthority(s, start, folded, v) // a host of 32 bytes or more
	}
	up := (bad - 1) &^ (bad | lanes>>32>>sh) // the lanes before n whose 0x20 bit is clear
	lower := folded || up != 0 && upperAt(s, start, uint32(up))
	if r := afterHost(s, start, start+n, lower, v); r != hostTail {
		return r
	}
	return endAuthority(s, start, start+n, lower, v)
}

// hostLanesShort is hostLanes for s of 16 to 31 bytes, loaded as loadShort
// loads it, with lane k for s[k]: the lanes at len(s) and after it are
// not taken. (A call: the same code inline in scanAuthority measured 3
// instructions per URL of web more.)
func hostLanesShort(s string) uint64 {
	at := uint(len(s) - 16)
	var x archsimd.Uint8x32
	lanes := hostLanes(x.SetLo(load16(s, 0)).SetHi(load16(s, len(s)-16)))
	return uint64(positions(uint32(lanes), at)|^uint32(0)<<len(s)) | uint64(positions(uint32(lanes>>32), at))<<32
}

// hostAuthority is scanAuthority's end for the hosts that hostSpan scans
// (start -1: not http or https).
func hostAuthority(s string, start int, folded bool, v *verbatimURL) int {
	if start < 0 {
		return -1
	}
	i, up := hostSpan(s, start)
	return endAuthority(s, start, i, folded || up, v)
}

// hostSpan returns the end of the leading bytes of s[i:] that vHost takes
// (letters, digits, '-', '.', '_') and whether an uppercase letter is
// among them, 32 bytes a step (scanAuthority's step, from its load on),
// or with the SWAR scan for a string of fewer than 32 bytes and a CPU
// without AVX2: scanAuthority calls it for a URL of fewer than 16 bytes
// (1.5 % of web's) and a host of 32 bytes or more (3 %).
func hostSpan(s string, i int) (int, bool) {
	if !hostSIMD || len(s) < 32 {
		n, up := hostSpanSWAR(s[i:])
		return i + n, up
	}
	upper := false
	for ; ; i += 32 {
		j := min(i, len(s)-32) // the last 32 bytes when s[i+32] is past the end
		lanes := hostLanes(load32(s, j))
		archsimd.ClearAVXUpperBits()
		sh := uint(i-j) & 63                             // at most 32: i <= len(s)
		bad := (lanes&0xffffffff | 0xffffffff<<32) >> sh // lane k is s[i+k]
		up := (bad - 1) &^ (bad | lanes>>32>>sh)         // the lanes before the first not taken whose 0x20 bit is clear
		upper = upper || up != 0 && upperAt(s, i, uint32(up))
		if n := bits.TrailingZeros64(bad); n < 32 {
			return i + n, upper
		}
	}
}

// hostLanes returns the mask of the lanes of x that vHost does not take
// (bad) in its low 32 bits, and the mask of those whose 0x20 bit is set
// (bit5) in its high 32 bits: the bytes that vHost takes whose 0x20 bit
// is clear are the uppercase letters and '_' (one shift and a compare,
// where upperSet's test cost two loads and a shuffle more). One value,
// used before the branches that follow: the compiler moves a value used
// in a later block only to it, past VZEROUPPER, where a vector kept
// across it costs a spill and a reload.
func hostLanes(x archsimd.Uint8x32) uint64 {
	var zero archsimd.Int8x32
	var zeroU archsimd.Uint8x32
	lo, col := nibbles(x)
	bad := archsimd.LoadUint8x32((*[32]uint8)(&hostSet)).PermuteOrZeroGrouped(lo).And(col).Equal(zeroU).ToBits()
	bit5 := zero.Greater(x.AsUint16x16().ShiftAllLeft(2).AsInt8x32()).ToBits() // bit 5 is bit 7 after the shift: negative
	return uint64(bad) | uint64(bit5)<<32
}

// hostSet is vHost's vOK as a nibbleSet (a value: no pointer to load),
// and hostSIMD is set when hostSpan scans with it (on a CPU with AVX2:
// always, TestScansMatchSWAR).
var (
	hostSet  nibbleSet
	hostSIMD bool
)

// upperAt reports whether a lane of caps (lane k: s[i+k], a host byte
// whose 0x20 bit is clear) is an uppercase letter: a byte other than '_'.
func upperAt(s string, i int, caps uint32) bool {
	for ; caps != 0; caps &= caps - 1 {
		if s[i+bits.TrailingZeros32(caps)] != '_' {
			return true
		}
	}
	return false
}

// spanOK returns the length of the leading bytes of s whose class in tab
// is vOK: 32 bytes a step for vQuery and vFragment, the tables of
// scanVerbatim.
func spanOK(s string, tab *[256]uint8) int { return spanSet(s, tab, scanSet(tab)) }

// spanSet is spanOK for a table whose nibbleSet is set (nil: none, the
// SWAR scan): a profile's query tables (Normalizer.querySet, directSet),
// which scanSet does not know.
func spanSet(s string, tab *[256]uint8, set *nibbleSet) int {
	if !simdScans || set == nil {
		return spanOKSWAR(s, tab)
	}
	if len(s) < 32 {
		x, at := loadShort(s)
		n := bits.TrailingZeros32(positions(^set.in(nibbles(x)), at) | ^uint32(0)<<len(s))
		archsimd.ClearAVXUpperBits()
		return n
	}
	for j := 0; ; j += 32 {
		if j+32 > len(s) {
			j = len(s) - 32 // taken up to the old j
		}
		if bad := ^set.in(nibbles(load32(s, j))); bad != 0 {
			archsimd.ClearAVXUpperBits()
			return j + bits.TrailingZeros32(bad)
		}
		if j+32 == len(s) {
			archsimd.ClearAVXUpperBits()
			return len(s)
		}
	}
}

// scanSet returns the nibbleSet of spanOK's table tab, or nil.
func scanSet(tab *[256]uint8) *nibbleSet {
	switch tab {
	case &vQuery:
		return querySet
	case &vFragment:
		return fragmentSet
	}
	return nil
}

// spanOKAt returns i plus spanOK(s[i:], tab). A tail shorter than 32
// bytes of an s of 32 bytes or more (the query and the fragment of most
// URLs) is read in one load of s's last 32 bytes, whose lanes before i
// are shifted out, instead of loadShort's two loads or copy.
func spanOKAt(s string, i int, tab *[256]uint8) int {
	if j := len(s) - 32; i > j && j >= 0 && simdScans {
		if set := scanSet(tab); set != nil {
			bad := ^set.in(nibbles(load32(s, j))) >> uint(i-j) // lane k is s[i+k]
			n := bits.TrailingZeros32(bad | ^uint32(0)<<uint(len(s)-i))
			archsimd.ClearAVXUpperBits()
			return i + n
		}
	}
	return i + spanOK(s[i:], tab)
}

// verbatimPath checks the path at s[i:] as verbatimPathSWAR does (its
// comment says what is checked), 32 bytes a step: the step that meets a
// byte that ends the path or that the parser changes ends the path there
// (or the scan: -1); a '/' followed by '/', '.' or '%' makes the path not
// plain, and the segment after "/." or "/%" is tested for a dot segment
// where it starts (a '/' in the last byte of a step is carried to the
// next one).
func verbatimPath(s string, i int, v *verbatimURL) int {
	if !simdScans || !pathSetsOK {
		return verbatimPathSWAR(s, i, v)
	}
	plain, carry := true, uint32(0)
	for j := i; j < len(s); j += 32 {
		var stop, slash, after, note uint32
		path := ^uint32(0) // the bytes of the path in this step
		switch {
		case j+32 <= len(s):
			stop, slash, after, note = pathClasses(load32(s, j), 16)
		case len(s) >= 32:
			k := j - (len(s) - 32) // bytes before j in the last 32: the authority, or read already
			path <<= k
			carry <<= k
			j = len(s) - 32
			stop, slash, after, note = pathClasses(load32(s, j), 16)
		default: // the whole URL is shorter than 32 bytes: the first step, with positions from 0
			stop, slash, after, note = pathClasses(loadShort(s))
			path = (1<<len(s) - 1) &^ (1<<j - 1)
			j = 0
		}
		stop &= path
		end := 32
		if stop != 0 {
			end = bits.TrailingZeros32(stop) // the first byte that ends the path or that the parser changes
			if pathFast[s[j+end]] != pfEnd {
				archsimd.ClearAVXUpperBits()
				return -1 // a byte of the path percent-encode set or '\'
			}
			path &= 1<<end - 1
		}
		slash &= path
		if pairs := (slash<<1 | carry) & after & path; pairs != 0 {
			plain = false // "//", "/." or "/%"
			for dots := pairs &^ slash; dots != 0; dots &= dots - 1 {
				if dotSegment(s[j+bits.TrailingZeros32(dots):]) {
					archsimd.ClearAVXUpperBits()
					return -1
				}
			}
		}
		if note&path != 0 {
			plain = false
		}
		if end < 32 {
			archsimd.ClearAVXUpperBits()
			v.pathEnd, v.plainPath = j+end, plain
			return j + end
		}
		carry = slash >> 31
	}
	archsimd.ClearAVXUpperBits()
	v.pathEnd, v.plainPath = len(s), plain
	return len(s)
}

// pathClasses returns the masks of the bytes of x in verbatimPath's
// classes: those that end the path or that the parser changes (not
// pathOrdinary), '/', wAfter, wNote; positions of loadShort's s when at <
// 16.
func pathClasses(x archsimd.Uint8x32, at uint) (stop, slash, after, note uint32) {
	lo, col := nibbles(x)
	return positions(^pathOrdinary.in(lo, col), at), positions(pathSlash.in(lo, col), at),
		positions(pathAfter.in(lo, col), at), positions(pathNote.in(lo, col), at)
}
