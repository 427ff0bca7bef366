package normalize

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"strings"
	"unsafe"

	"github.com/cespare/xxhash/v2"
)

// KindUnknownHash is a hash algorithm name that is not HashSHA256 or
// HashXXHash64 (canonical_hash's third argument): a mistake in the query
// or the program, not in the data.
var KindUnknownHash = &Kind{"unknown_hash", ErrConfig}

// hashAlgorithms are the digests a canonical hash can be computed with:
// the values of a profile's hash setting and of HashWith's algorithm.
// appendDigest computes each.
var hashAlgorithms = [...]string{HashSHA256, HashXXHash64}

// CheckHashAlgorithm returns nil when name is HashSHA256 or HashXXHash64,
// else an error of kind unknown_hash that lists them.
func CheckHashAlgorithm(name string) error {
	if slices.Contains(hashAlgorithms[:], name) {
		return nil
	}
	return newError("hash", name, KindUnknownHash, "known algorithms: "+strings.Join(hashAlgorithms[:], ", "))
}

// HashWith returns the hex digest of the canonical form of raw computed
// with algorithm (HashSHA256: 64 digits, HashXXHash64: 16) instead of the
// profile's own hash: SQL's canonical_hash(url, profile, algorithm).
func (n *Normalizer) HashWith(raw, algorithm string) (string, error) {
	var buf [64]byte
	b, err := n.AppendHashWith(buf[:0], raw, algorithm)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// AppendHashWith appends what HashWith returns to dst.
func (n *Normalizer) AppendHashWith(dst []byte, raw, algorithm string) ([]byte, error) {
	if err := CheckHashAlgorithm(algorithm); err != nil {
		return dst, err
	}
	return n.appendHash(dst, raw, algorithm)
}

// appendHash appends the digest of raw's canonical form, hashed straight
// from raw or the pooled output buffer (no copy, no string).
func (n *Normalizer) appendHash(dst []byte, raw, algorithm string) ([]byte, error) {
	out, st, err := n.canonical("hash", raw)
	if err != nil {
		return dst, err
	}
	dst = appendDigest(dst, algorithm, out)
	n.release(st)
	return dst, nil
}

// Key returns the 64-bit join key of raw: the XXH64 digest (seed 0) of
// the bytes of its canonical form, its 64 bits read as a two's-complement
// int64 — what SQL's canonical_key returns in DuckDB (BIGINT) and SQLite
// (INTEGER), and int64(xxhash.Sum64String(canonical)) in Go. Its 16-digit
// hex spelling is HashWith(raw, HashXXHash64). It is not a cryptographic
// digest: n distinct URLs collide with a probability of about n²/2⁶⁵.
func (n *Normalizer) Key(raw string) (int64, error) {
	out, st, err := n.canonical("key", raw)
	if err != nil {
		return 0, err
	}
	k := int64(xxhash.Sum64(out))
	n.release(st)
	return k, nil
}

// canonical returns raw's canonical form, to be read before the caller
// calls release(st): raw's own bytes when the form is raw or a prefix of
// it (st nil: no pool, no copy), else the output buffer of a pooled state.
// A panic below leaves the state to the garbage collector.
func (n *Normalizer) canonical(op, raw string) ([]byte, *state, error) {
	var v verbatimURL
	c, same, vOK := n.verbatimCanon(raw, &v)
	if same && c.same {
		return unsafe.Slice(unsafe.StringData(raw), c.end), nil, nil // read only: the digests do not write
	}
	st := n.pool.Get().(*state)
	if same {
		st.out = c.append(st.out[:0], raw)
		return st.out, st, nil
	}
	if k := n.runScanned(st, raw, &v, vOK); k != nil {
		err := st.err(op, raw, k)
		n.pool.Put(st)
		return nil, nil, err
	}
	return st.out, st, nil
}

// release puts back the state canonical took from the pool, if any.
func (n *Normalizer) release(st *state) {
	if st != nil {
		n.pool.Put(st)
	}
}

// appendDigest appends the lowercase hex digest of b: 64 digits for
// sha256, 16 for xxhash64 (edge-gateway.md: "16-character lowercase
// hexadecimal").
func appendDigest(dst []byte, hash string, b []byte) []byte {
	if hash == HashXXHash64 {
		// XXH64 with seed 0, the library edge-gateway itself uses.
		var h [16]byte
		x := xxhash.Sum64(b)
		binary.BigEndian.PutUint64(h[0:8], hex4(uint32(x>>32)))
		binary.BigEndian.PutUint64(h[8:16], hex4(uint32(x)))
		return append(dst, h[:16]...)
	}
	d := sha256.Sum256(b)
	n := len(dst)
	dst = slices.Grow(dst, 64)[:n+64] // the digits written in place: no copy
	hex32((*[64]byte)(dst[n:]), &d)
	return dst
}

// hex32SWAR writes the 64 hex digits of a sha256 digest a word at a time
// (hex32 without AVX2). Fixed-size arrays and a constant trip count leave
// no bounds checks: Hash takes 200 instructions less per URL than with a
// loop over slices (cachegrind).
func hex32SWAR(h *[64]byte, d *[32]byte) {
	for i := range 8 {
		binary.BigEndian.PutUint64(h[8*i:], hex4(binary.BigEndian.Uint32(d[4*i:])))
	}
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
