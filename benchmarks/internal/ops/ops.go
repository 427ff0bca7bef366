// Package ops lists the operations the harness times side by side: our
// normalizer per profile, the peer libraries and the hashing/copy floors.
// Each operation processes one URL per call and reports whether it
// accepted it, so that every peer is timed the same way and its error
// count comes from the timed passes themselves.
package ops

import (
	"crypto/sha256"
	"net/url"
	"unsafe"

	"github.com/PuerkitoBio/purell"
	"github.com/cespare/xxhash/v2"
	whatwg "github.com/nlnwa/whatwg-url/url"
	"github.com/urlnorm/urlnorm/benchmarks/internal/corpus"
	"github.com/urlnorm/urlnorm/normalize"
)

// Groups, in report order.
const (
	GroupUrlnorm = "urlnorm"
	GroupPeer    = "peer"
	GroupFloor   = "floor"
)

// Op is one timed operation.
type Op struct {
	Name  string // unique, e.g. "Normalize/default", "net/url Parse+String"
	Group string
	// Profile is the urlnorm profile the op uses ("" for peers and floors).
	Profile string
	// Input, when set, derives the op's input list from the corpus (e.g.
	// the already-canonical URLs); otherwise the op runs on the corpus.
	Input func(urls []string) []string
	// New returns a fresh function for one goroutine: it processes one URL
	// and reports whether the URL was accepted. Per-op state (reused
	// buffers) lives in the closure.
	New func() func(s string) bool
}

// Sinks keep results alive so the compiler cannot drop the work.
var (
	SinkString string
	SinkBytes  []byte
	SinkU64    uint64
	SinkDigest [32]byte
)

// Default is the name of the op every ratio is taken against.
const Default = "Normalize/default"

// All returns every op: Normalize and Hash for each profile in
// normalize.Names(), AppendNormalized and canonical-input Normalize for
// default, the URL parts, the peers and the floors.
func All() []Op {
	var out []Op
	names := normalize.Names()
	for _, p := range names {
		out = append(out, normalizeOp(p))
	}
	for _, p := range names {
		out = append(out, hashOp(p))
	}
	out = append(out, appendOp("default"), canonicalInputOp("default"), acceptedHashOp("default"))
	out = append(out, HashOps()...)
	out = append(out, Parts()...)
	out = append(out, Peers()...)
	return append(out, Floors()...)
}

func normalizeOp(profile string) Op {
	return stringOp("Normalize", profile, (*normalize.Normalizer).Normalize)
}

func hashOp(profile string) Op {
	return stringOp("Hash", profile, (*normalize.Normalizer).Hash)
}

// stringOp times a Normalizer method that returns a string.
func stringOp(method, profile string, f func(*normalize.Normalizer, string) (string, error)) Op {
	n := normalize.MustLookup(profile)
	return Op{Name: method + "/" + profile, Group: GroupUrlnorm, Profile: profile,
		New: func() func(string) bool {
			return func(s string) bool {
				out, err := f(n, s)
				SinkString = out
				return err == nil
			}
		}}
}

// appendOp is the caller-buffer API the SQL adapters use.
func appendOp(profile string) Op {
	return bufferOp("AppendNormalized", profile, (*normalize.Normalizer).AppendNormalized)
}

// bufferOp times a Normalizer method that appends to a reused buffer.
func bufferOp(method, profile string, f func(*normalize.Normalizer, []byte, string) ([]byte, error)) Op {
	n := normalize.MustLookup(profile)
	return Op{Name: method + "/" + profile, Group: GroupUrlnorm, Profile: profile,
		New: func() func(string) bool {
			var buf []byte
			return func(s string) bool {
				var err error
				buf, err = f(n, buf[:0], s)
				SinkBytes = buf
				return err == nil
			}
		}}
}

// canonicalInputOp runs Normalize on the profile's own outputs: the
// common case in real data (96–98 % of web URLs are already canonical),
// where Normalize must return its input without allocating.
func canonicalInputOp(profile string) Op {
	op := normalizeOp(profile)
	op.Name += " (canonical input)"
	n := normalize.MustLookup(profile)
	op.Input = func(urls []string) []string {
		var out []string
		for _, u := range urls {
			if c, err := n.Normalize(u); err == nil {
				out = append(out, c)
			}
		}
		return out
	}
	return op
}

// acceptedHashOp runs Hash on the inputs the profile accepts: its
// allocations per URL are those of the success path (a rejected input
// also allocates its error value).
func acceptedHashOp(profile string) Op {
	op := hashOp(profile)
	op.Name += " (accepted input)"
	n := normalize.MustLookup(profile)
	op.Input = func(urls []string) []string { return corpus.Accepted(urls, n) }
	return op
}

// Peers are the other Go URL libraries, as configured in
// ../shared/notes/peer-performance.md.
func Peers() []Op {
	return []Op{
		{Name: "net/url Parse+String", Group: GroupPeer, New: stateless(func(s string) bool {
			u, err := url.Parse(s)
			if err != nil {
				return false
			}
			SinkString = u.String()
			return true
		})},
		{Name: "purell UsuallySafeGreedy|RemoveFragment|SortQuery", Group: GroupPeer, New: stateless(func(s string) bool {
			out, err := purell.NormalizeURLString(s, PurellFlags)
			SinkString = out
			return err == nil
		})},
		{Name: "whatwg-url Parse+Href", Group: GroupPeer, New: stateless(func(s string) bool {
			u, err := whatwg.Parse(s)
			if err != nil {
				return false
			}
			SinkString = u.Href(false)
			return true
		})},
	}
}

// PurellFlags is the purell configuration compared against.
const PurellFlags = purell.FlagsUsuallySafeGreedy | purell.FlagRemoveFragment | purell.FlagSortQuery

// Floors are the per-URL costs no normalizer can go below: hashing the
// input as it is, copying it, lowercasing it.
func Floors() []Op {
	return []Op{
		{Name: "sha256 (floor)", Group: GroupFloor, New: stateless(func(s string) bool {
			SinkDigest = sha256.Sum256(bytesOf(s))
			return true
		})},
		{Name: "xxhash64 cespare (floor)", Group: GroupFloor, New: stateless(func(s string) bool {
			SinkU64 = xxhash.Sum64String(s)
			return true
		})},
		{Name: "copy (floor)", Group: GroupFloor, New: func() func(string) bool {
			var buf []byte
			return func(s string) bool {
				buf = append(buf[:0], s...)
				SinkBytes = buf
				return true
			}
		}},
		{Name: "ASCII lower (floor)", Group: GroupFloor, New: func() func(string) bool {
			var buf []byte
			return func(s string) bool {
				buf = appendLower(buf[:0], s)
				SinkBytes = buf
				return true
			}
		}},
	}
}

func stateless(f func(string) bool) func() func(string) bool {
	return func() func(string) bool { return f }
}

// bytesOf views s as bytes without copying; the callee only reads.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// appendLower is what a database's lower() does for ASCII text.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}
