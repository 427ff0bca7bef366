//go:build goexperiment.simd && amd64

package normalize

import (
	"encoding/binary"
	"math/bits"
	"simd/archsimd"
	"unsafe"
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

// slashesAt returns the bit mask of the '/' bytes of b[i:i+32] (bit k:
// b[i+k]), for AllPathSegments: one load and one compare, small enough to be
// inlined.
func slashesAt(b []byte, i int) uint32 {
	m := archsimd.LoadUint8x32((*[32]uint8)(b[i : i+32])).Equal(archsimd.LoadUint8x32(&slashBytes)).ToBits()
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

// pathTail is pathEnd for a tail s[i:] of 32 bytes or fewer (most URLs'
// path and query) in a URL of 32 bytes or more, small enough to be
// inlined (ok is false for the others, and without AVX2): pathEnd's last
// step alone, without its call and its loop's test.
func pathTail(s string, i int) (end int, ok bool) {
	n := len(s) - i
	if n > 32 || len(s) < 32 || !simdScans {
		return 0, false
	}
	x := archsimd.LoadUint8x32((*[32]uint8)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), len(s)-32))) // s[len(s)-32:] without load32's bounds checks
	m := uint64(x.Equal(archsimd.LoadUint8x32(&questionBytes)).Or(x.Equal(archsimd.LoadUint8x32(&hashBytes))).ToBits())
	archsimd.ClearAVXUpperBits()
	return i + bits.TrailingZeros64(m>>(uint(32-n)&63)|1<<(uint(n)&63)), true // lane k is s[i+k]; n when there is none
}

var periodBytes = [32]uint8{'.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.',
	'.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.'}

var semicolonBytes = [32]uint8{';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';',
	';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';', ';'}

// extension is Extension (extensionOf) from one load of the path's
// last 32 bytes, or fewer: the masks of its '/', '.' and ';' bytes give
// the last segment, its parameters' start and its last dot, where
// extensionOf's two backward scans (lastIndexByte) and its loop cost
// 140 instructions per URL of web and their branches on the data
// (url_extension 630 → 617 instructions per URL of web; test binaries
// alternated three times, 02:49 UTC, load 3.6: 50.2–51.1 → 45.9–46.9 ns
// per URL). When those bytes hold no '/' and the path is longer,
// extensionOf reads it. A path
// of 32 bytes or fewer is read in the URL's 32 bytes up to its end when
// the buffer has them (as AllPathSegments), else by loadShort. The masks are
// 64-bit and each shift count masked: a shift by 32 is one instruction.
func (u *URL) extension() string {
	if u.opaque {
		return ""
	}
	p := u.Path()
	if !simdScans {
		return extensionOf(p, u.plainPath)
	}
	n := len(p)
	base := 0 // bit k of the masks is p[base+k]
	var slash, dot, semi uint64
	switch {
	case n > 32:
		base = n - 32
		slash, dot, semi = pathMarks(load32(p, base))
	case u.pathEnd >= 32:
		s, d, m := pathMarks(load32(unsafe.String(unsafe.SliceData(u.buf), u.pathEnd), u.pathEnd-32))
		sh := uint(32-n) & 63
		slash, dot, semi = s>>sh, d>>sh, m>>sh
	default:
		x, at := loadShort(p)
		s, d, m := pathMarks(x)
		slash, dot, semi = uint64(positions(uint32(s), at)), uint64(positions(uint32(d), at)), uint64(positions(uint32(m), at))
	}
	archsimd.ClearAVXUpperBits()
	if slash == 0 && n > 32 {
		return extensionOf(p, u.plainPath) // the last '/' is further back
	}
	// The masks have no bit past the path's end (the lanes of a load
	// that ends there, shifted; loadShort's positions), so the last
	// segment is the bits from start on, and it ends at the path's end
	// unless a ';' cuts it. A dot before start needs no clearing: when
	// the last dot is one, the leading dots' test below answers "".
	start := uint(bits.Len64(slash)) // the last segment's first byte (after its '/')
	before := uint64(1)<<(start&63) - 1
	end := n
	if !u.plainPath {
		if m := semi &^ before; m != 0 {
			k := bits.TrailingZeros64(m) // the first ';'
			dot &= m&-m - 1
			end = base + k
		}
	}
	if dot == 0 {
		return ""
	}
	last := uint(bits.Len64(dot)) - 1
	if lead := uint(bits.TrailingZeros64(^(dot >> (start & 63)))); start+lead >= last {
		return "" // only dots before the last one: "/.htaccess", "/..x"
	}
	return p[base+int(last)+1 : end]
}

// pathMarks returns the masks of the '/', '.' and ';' bytes of x.
func pathMarks(x archsimd.Uint8x32) (slash, dot, semi uint64) {
	return uint64(x.Equal(archsimd.LoadUint8x32(&slashBytes)).ToBits()),
		uint64(x.Equal(archsimd.LoadUint8x32(&periodBytes)).ToBits()),
		uint64(x.Equal(archsimd.LoadUint8x32(&semicolonBytes)).ToBits())
}

var percentBytes = [32]uint8{'%', '%', '%', '%', '%', '%', '%', '%', '%', '%', '%', '%', '%', '%', '%', '%',
	'%', '%', '%', '%', '%', '%', '%', '%', '%', '%', '%', '%', '%', '%', '%', '%'}

// partsPath is verbatimPath for the path parts (ParseThroughPath): the
// same answer, v.pathEnd and v.plainPath, where a step takes one nibble
// lookup for the bytes that end the path or that the parser changes
// (pathOrdinary) and a compare each for '/', '.', '%' and ';' (wAfter
// and wNote are made of those), and verbatimPath's step four nibbleSet
// lookups, each mask mapped through positions: 140 instructions per URL
// of web, now 105 (url_path 463 → 440). The rest of the URL from the
// path's '/' at s[i] is 32 bytes or fewer in 86 % of web's URLs: one
// step, in the URL's last 32 bytes (their lanes before i shifted out), or
// in loadShort's for a URL shorter than 32 bytes (partsPathShort).
func partsPath(s string, i int, v *verbatimURL) int {
	ord := pathOrdinary // nil: no nibbleSet (never, TestScansMatchSWAR)
	if !simdScans || ord == nil {
		return verbatimPath(s, i, v)
	}
	if len(s) < 32 {
		return partsPathShort(s, i, v, ord)
	}
	var marked, carry uint64 // marked: "//", "/.", "/%", '%' or ';' seen (not plain)
	for j := i; ; j += 32 {
		// s[k:k+32] without load32's bounds checks: the last 32 bytes
		// when s[j+32] is past the end, lane sh is s[j] (those before
		// it are the authority's or read already).
		k := min(j, len(s)-32)
		stop, slash, after, note := partsMarks(archsimd.LoadUint8x32((*[32]uint8)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), k))), ord)
		sh := uint(j-k) & 63
		n := min(len(s)-j, 32)                                  // the bytes of s in this step
		end := bits.TrailingZeros64(stop>>sh | 1<<(uint(n)&63)) // n when none
		path := uint64(1)<<(uint(end)&63) - 1
		slash = slash >> sh & path
		pairs := (slash<<1 | carry) & (after >> sh) & path
		marked |= pairs | note>>sh&path
		// VZEROUPPER on the way out only: in the step it made the
		// compiler keep the compares' vectors across it (four spills and
		// reloads) and take their masks after it (url_path 448 → 440).
		if end < n && pathFast[s[j+end]] != pfEnd {
			archsimd.ClearAVXUpperBits()
			return -1 // a byte of the path percent-encode set or '\'
		}
		if dots := pairs &^ slash; dots != 0 { // "/." or "/%": a dot segment?
			archsimd.ClearAVXUpperBits()
			for ; dots != 0; dots &= dots - 1 {
				if dotSegment(s[j+bits.TrailingZeros64(dots):]) {
					return -1
				}
			}
		}
		if end < 32 || j+32 >= len(s) {
			archsimd.ClearAVXUpperBits()
			v.pathEnd, v.plainPath = j+end, marked == 0
			return j + end
		}
		carry = slash >> 31
	}
}

// partsPathShort is partsPath for a URL shorter than 32 bytes (11 % of
// web's), read by loadShort: one step.
func partsPathShort(s string, i int, v *verbatimURL, ord *nibbleSet) int {
	x, at := loadShort(s)
	stop, slash, after, note := partsMarks(x, ord)
	sh, n := uint(i)&63, len(s)-i
	end := bits.TrailingZeros64(uint64(positions(uint32(stop), at))>>sh | 1<<(uint(n)&63)) // n when none
	path := uint64(1)<<(uint(end)&63) - 1
	slash = uint64(positions(uint32(slash), at)) >> sh & path
	pairs := slash << 1 & (uint64(positions(uint32(after), at)) >> sh) & path
	marked := pairs | uint64(positions(uint32(note), at))>>sh&path
	archsimd.ClearAVXUpperBits()
	if end < n && pathFast[s[i+end]] != pfEnd {
		return -1
	}
	for dots := pairs &^ slash; dots != 0; dots &= dots - 1 {
		if dotSegment(s[i+bits.TrailingZeros64(dots):]) {
			return -1
		}
	}
	v.pathEnd, v.plainPath = i+end, marked == 0
	return i + end
}

// partsMarks returns partsPath's masks of x: the bytes that end the path
// or that the parser changes, '/', those that make the segment after a
// '/' need a look ('/', '.', '%': wAfter) and '%' and ';' (wNote).
func partsMarks(x archsimd.Uint8x32, ord *nibbleSet) (stop, slash, after, note uint64) {
	sl := x.Equal(archsimd.LoadUint8x32(&slashBytes))
	pct := x.Equal(archsimd.LoadUint8x32(&percentBytes))
	stop, slash = uint64(^ord.in(nibbles(x))), uint64(sl.ToBits())
	after = uint64(sl.Or(pct).Or(x.Equal(archsimd.LoadUint8x32(&periodBytes))).ToBits())
	note = uint64(pct.Or(x.Equal(archsimd.LoadUint8x32(&semicolonBytes))).ToBits())
	return
}

// onePass: ParseThroughPath takes throughPath1 (which leaves a CPU
// without AVX2 to the scans).
const onePass = true

// throughPath1 is ParseThroughPath in one pass over the authority and
// the path, for a URL whose scheme, authority and path are written as the
// serializer writes them, in lowercase, without a port, with a host of
// fewer than 32 bytes, and whose path ends within the 64 bytes from the
// host's start (89 % of web's URLs); the others leave it where it stops,
// for the scans' code (throughPathScan, throughPathHost, throughPathRest).
// Two loads, s[start:start+32] and the 32 bytes after them (or the URL's
// last 32 bytes when those pass its end; loadShort's for a URL shorter
// than 32 bytes), each split into nibbles once for the host's set and the
// path's (onePassMarks), where scanAuthority and partsPath each loaded and
// split the bytes and called across a frame; and the URL's fields written
// here, without verbatimURL's copy (URL.setAuthority's fields:
// TestThroughPath1MatchesScan compares every field with throughPathScan's
// URL). url_path 436 → 418 instructions per URL of web (CPU time 0.63 →
// 0.59 of default's). An uppercase scheme ("HTTP://", 31 % of
// web_dirty's URLs) goes to the scans at once: carried through the pass
// to throughPath's copy it cost more (url_path on web_dirty 823 → 871),
// as most of those hosts are uppercase too and leave the pass late.
func (p *Parser) throughPath1(s string) (*URL, error) {
	start := lowerSchemeStart(s)
	ord := pathOrdinary // nil: no nibbleSet (never, TestScansMatchSWAR)
	if start < 0 || !hostSIMD || ord == nil {
		return p.throughPathScan(s)
	}
	// A URL shorter than 32 bytes: loadShort's vector, lane k for s[k]
	// (a = 0). The others: a, b := min(start, last), min(start+32, last)
	// with last the URL's last 32 bytes, without a branch: the compiler's
	// were mispredicted 0.43 times per URL of web (cachegrind's model).
	var host, stop, slash, after, note uint64
	a := 0
	if len(s) < 32 {
		host, stop, slash, after, note = onePassMarksShort(s, ord)
	} else {
		x, y := len(s)-32-start, len(s)-64-start
		a = start + x&(x>>63)
		host, stop, slash, after, note = onePassMarks(s, a, start+32+y&(y>>63), ord) // a <= b <= a+32
	}
	// The host from the first load (lane k: s[a+k]; the lanes before
	// start shifted out when a < start, where the URL's last 32 bytes
	// hold it all).
	d := uint(start-a) & 31
	bad := (host&0xffffffff | 0xffffffff<<32) >> d // past the load: not taken
	n := bits.TrailingZeros64(bad)                 // the host's length
	if n == 0 || n == 32 || (bad-1)&^(bad|host>>32>>d) != 0 {
		return p.throughPathScan(s) // an empty host, one of 32 bytes or more; or an uppercase letter or '_'
	}
	i := start + n          // the path's '/'?
	r := (d + uint(n)) & 63 // i-a, up to 32: a host to the end of a URL of 32 bytes or more
	slash >>= r             // bit k: s[i+k]
	if slash&1 == 0 {
		return p.throughPathHost(s, start, i) // a port, the end, another byte
	}
	// s[i-1], the host's last byte, read without the bounds check (i-1 is
	// in the first load's lanes): 3 instructions.
	if numberEnd[*(*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i-1))] {
		if endsInNumber(s[start:i], true) {
			return p.throughPathHost(s, start, i) // a number
		}
	}
	// The path ends at s's end when the loads hold it: onePassMarks' stop
	// bit there, where a bit set here when len(s)-a <= 64, without a
	// branch, cost 10 instructions (url_path 387 → 381 per URL of web; a
	// URL of exactly a+64 bytes now leaves, its bit past the mask's 64).
	stop >>= r
	if stop == 0 {
		return p.throughPathRest(s, start, i) // the path passes the loads
	}
	e := uint(bits.TrailingZeros64(stop)) & 63
	end := i + int(e)
	if end < len(s) && pathFast[s[end]] != pfEnd {
		return p.throughPathRest(s, start, i) // a byte of the path percent-encode set or '\'
	}
	path := uint64(1)<<e - 1
	slash &= path
	pairs := slash << 1 & (after >> r) & path // "//", "/.", "/%"
	if dots := pairs &^ slash; dots != 0 && dotSegments(s, i, dots) {
		return p.throughPathRest(s, start, i)
	}
	marked := pairs | note>>r&path
	p.alias(s, end)
	u := &p.u
	u.schemeEnd = start - 3
	u.userStart, u.userEnd, u.passStart, u.passEnd = start, start, start, start
	u.hostStart, u.hostEnd, u.authEnd, u.pathStart, u.pathEnd = start, i, i, i, end
	u.queryStart, u.fragStart = -1, -1
	u.port = -1
	u.hostKind, u.hostChars = HostDomain, csDNS|csRFC3986
	u.special, u.opaque, u.plainPath = true, false, marked == 0
	return u, nil
}

// dotSegments reports whether a segment after one of the '/' bytes of
// dots (bit k: s[i+k+1]) is a dot segment. A call of its own, which
// throughPath1 makes for a path with "/." or "/%": its loop there kept
// the values that live across dotSegment's call on the stack for every
// URL (url_path 392 → 387 instructions per URL of web).
//
//go:noinline
func dotSegments(s string, i int, dots uint64) bool {
	for ; dots != 0; dots &= dots - 1 {
		if dotSegment(s[i+bits.TrailingZeros64(dots):]) {
			return true
		}
	}
	return false
}

// lowerSchemeStart is schemeStart for "https://" and "http://" in
// lowercase, which throughPath1 takes (the others: -1, for the scans):
// without schemeStart's folding and its second compare (url_path 378 →
// 369 instructions per URL of web, web_dirty 802 → 797). The words are
// schemeStart's (httpsWord, httpWord).
func lowerSchemeStart(s string) int {
	if len(s) < 8 {
		return -1
	}
	switch w := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Pointer(unsafe.StringData(s)))[:]); {
	case w == httpsWord:
		return 8
	case w&first7Bytes == httpWord:
		return 7
	}
	return -1
}

// throughPathHost is throughPath1's way out for a host s[start:i] that
// scanAuthority would end with endAuthority: a number (an IPv4 address),
// a host followed by a port (web_dirty's), or not by the path's '/':
// endAuthority, then the path (throughPathFrom) or the general
// parser, as throughPathScan, without the authority read again.
func (p *Parser) throughPathHost(s string, start, i int) (*URL, error) {
	if j := endAuthority(s, start, i, false, &p.p.pre); j >= 0 && j < len(s) && s[j] == '/' {
		return p.throughPathFrom(s, j)
	}
	p.p.preInput, p.p.preState = s, preNo
	return p.throughPathParse(s)
}

// throughPathRest is throughPath1's way out for a path that it does not
// finish (longer than its loads, or one the parser changes): the
// authority, read already, into the verbatim state, then the path's scan
// or the general parser from the path on (throughPathFrom), where
// throughPathScan would read the authority again (web's URLs with a
// longer path, 7 %; and most of web_dirty's).
func (p *Parser) throughPathRest(s string, start, i int) (*URL, error) {
	p.p.pre.setHost(start, i, false)
	return p.throughPathFrom(s, i)
}

// onePassMarks returns throughPath1's masks of the 32 bytes at
// s[a:] (hostLanes') and of the 64 bytes from s[a], with s[b:b+32] (a <=
// b <= a+32) for the second half (bit k: s[a+k]), for a URL of 32 bytes
// or more: the bytes that end the path or that the parser changes (and
// s's end when the second load is the URL's last 32 bytes), '/',
// those that make the segment after a '/' need a look, and '%' and ';'
// (partsMarks'). Not inlined: inline, the compiler took each mask in the
// block that reads it, after VZEROUPPER, and kept the vectors across it
// on the stack (url_path 440 instructions per URL of web, 423 with the
// call). A leaf without a frame: loadShort's buffer and its copy's call
// (onePassMarksShort) gave it a frame and a stack check, 9 instructions
// a call.
//
//go:noinline
func onePassMarks(s string, a, b int, ord *nibbleSet) (host, stop, slash, after, note uint64) {
	base := unsafe.Pointer(unsafe.StringData(s))
	xa := archsimd.LoadUint8x32((*[32]uint8)(unsafe.Add(base, a)))
	xb := archsimd.LoadUint8x32((*[32]uint8)(unsafe.Add(base, b)))
	host = hostLanes(xa)
	stopA, slashA, afterA, noteA := partsMarks(xa, ord)
	stopB, slashB, afterB, noteB := partsMarks(xb, ord)
	archsimd.ClearAVXUpperBits()
	sh := uint(b-a) & 63
	stopB |= 1 << 32 // s's end when the second load is the URL's last 32 bytes (b-a < 32), shifted out when b-a = 32
	return host, stopA | stopB<<sh, slashA | slashB<<sh, afterA | afterB<<sh, noteA | noteB<<sh
}

// onePassMarksShort is onePassMarks for a URL shorter than 32 bytes, read
// by loadShort, its masks mapped to positions (bit k: s[k]; stop's bit
// len(s), s's end).
//
//go:noinline
func onePassMarksShort(s string, ord *nibbleSet) (host, stop, slash, after, note uint64) {
	x, at := loadShort(s)
	h := hostLanes(x)
	stop, slash, after, note = partsMarks(x, ord)
	archsimd.ClearAVXUpperBits()
	host = uint64(positions(uint32(h), at)) | uint64(positions(uint32(h>>32), at))<<32
	return host, uint64(positions(uint32(stop), at)) | 1<<(uint(len(s))&63), uint64(positions(uint32(slash), at)),
		uint64(positions(uint32(after), at)), uint64(positions(uint32(note), at))
}
