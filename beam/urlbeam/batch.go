package urlbeam

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/urlnorm/urlnorm/internal/dedup"
)

// Elements that carry many records (partial groups, groups, lines) as one
// []byte. Beam pays a fixed cost per element — the SDK's bookkeeping,
// a shuffle's key, a portable runner's copy over its data channel — so
// Dedup and the sinks shuffle batches of about chunkBytes, not one
// element per URL or line; []byte is coded by Beam as plain bytes.

// chunkBytes is the size at which a batch is emitted (a variable so that
// tests make batches of a few records).
var chunkBytes = 1 << 20

// shardOf spreads keys over n shards by their FNV-1a hash (the same on
// every worker).
func shardOf(key string, n int) int {
	h := uint64(14695981039346656037)
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= 1099511628211
	}
	return int(h % uint64(n))
}

// A partial batch holds partial groups: url, count, and the examples
// with their positions (file, seq, text). A group batch holds groups:
// url, count, example texts. Numbers are uvarints, strings a length and
// their bytes.

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendPartial(b []byte, url string, p *dedup.Partial) []byte {
	b = appendString(b, url)
	b = binary.AppendUvarint(b, uint64(p.Count))
	b = binary.AppendUvarint(b, uint64(len(p.Examples)))
	for _, s := range p.Examples {
		b = binary.AppendUvarint(b, uint64(uint32(s.File)))
		b = binary.AppendUvarint(b, uint64(s.Seq))
		b = appendString(b, s.Text)
	}
	return b
}

func appendGroup(b []byte, g *Group) []byte {
	b = appendString(b, g.URL)
	b = binary.AppendUvarint(b, uint64(g.Count))
	b = binary.AppendUvarint(b, uint64(len(g.Examples)))
	for _, ex := range g.Examples {
		b = appendString(b, ex)
	}
	return b
}

var errCorrupt = errors.New("urlbeam: a corrupt batch (the pipeline's workers run different urlnorm versions?)")

// reader decodes a batch; err is set at the first short or bad field.
type reader struct {
	b   []byte
	err error
}

func (r *reader) more() bool { return r.err == nil && len(r.b) > 0 }

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err, r.b = errCorrupt, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

// bytes returns the next string's bytes, shared with the batch.
func (r *reader) bytes() []byte {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.err, r.b = errCorrupt, nil
		return nil
	}
	s := r.b[:n:n]
	r.b = r.b[n:]
	return s
}

// num reads a number that must be at most max.
func (r *reader) num(max uint64) uint64 {
	v := r.uvarint()
	if v > max {
		r.err, r.b = errCorrupt, nil
		return 0
	}
	return v
}

// count reads a number of items, each at least one byte long.
func (r *reader) count() int {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.err, r.b = errCorrupt, nil
		return 0
	}
	return int(n)
}

// partial reads a partial group into p (its URL's bytes returned shared
// with the batch, the examples' texts copied).
func (r *reader) partial(p *dedup.Partial) (url []byte) {
	url = r.bytes()
	p.Count = int64(r.num(math.MaxInt64))
	p.Examples = p.Examples[:0]
	for range r.count() {
		file, seq := r.num(math.MaxUint32), r.num(math.MaxInt64)
		p.Examples = append(p.Examples, dedup.Spelling{File: int32(uint32(file)), Seq: int64(seq), Text: string(r.bytes())})
	}
	return url
}

// group reads a group.
func (r *reader) group() *Group {
	g := &Group{URL: string(r.bytes()), Count: int64(r.num(math.MaxInt64))}
	g.Examples = make([]string, r.count()) // never nil, as dedup.Partial.Group makes it
	for i := range g.Examples {
		g.Examples[i] = string(r.bytes())
	}
	return g
}

// decodeGroups returns the groups of a group batch.
func decodeGroups(b []byte, each func(*Group)) error {
	r := reader{b: b}
	for r.more() {
		g := r.group()
		if r.err == nil {
			each(g)
		}
	}
	return r.err
}
