package urlbeam

import (
	"encoding/binary"
	"errors"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/urlnorm/urlnorm/internal/dedup"
)

// randomGroups makes groups and partial groups with the edge cases of the
// encoding: empty URLs and examples, no examples, file -1 and the largest
// numbers, and texts longer than one varint byte of length.
func randomGroups(rng *rand.Rand, n int) ([]string, []dedup.Partial, []*Group) {
	text := func() string {
		b := make([]byte, rng.IntN(3)*rng.IntN(200))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return string(b)
	}
	urls := make([]string, n)
	partials := make([]dedup.Partial, n)
	groups := make([]*Group, n)
	for i := range n {
		urls[i] = text()
		p := dedup.Partial{Count: rng.Int64N(1 << 40)}
		if i == 0 {
			p.Count = math.MaxInt64
		}
		for range rng.IntN(4) {
			p.Examples = append(p.Examples, dedup.Spelling{File: rng.Int32() - math.MaxInt32/2, Seq: rng.Int64(), Text: text()})
		}
		if i == 1 {
			p.Examples = append(p.Examples, dedup.Spelling{File: -1, Seq: math.MaxInt64}, dedup.Spelling{File: math.MaxInt32})
		}
		partials[i] = p
		groups[i] = p.Group(urls[i])
	}
	return urls, partials, groups
}

// TestBatchRoundTrip: partial groups and groups decode to what was
// encoded, and every cut of a batch inside a record is errCorrupt (a cut
// between records is a shorter valid batch: Beam's coder frames each
// batch, so a cut batch never reaches the decoder whole).
func TestBatchRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	urls, partials, groups := randomGroups(rng, 50)

	var pb, gb []byte
	pEnds, gEnds := map[int]bool{0: true}, map[int]bool{0: true}
	for i := range urls {
		pb = appendPartial(pb, urls[i], &partials[i])
		gb = appendGroup(gb, groups[i])
		pEnds[len(pb)], gEnds[len(gb)] = true, true
	}

	r := reader{b: pb}
	var p dedup.Partial
	for i := 0; r.more(); i++ {
		url := r.partial(&p)
		if r.err != nil {
			t.Fatalf("partial %d: %v", i, r.err)
		}
		want := partials[i]
		if string(url) != urls[i] || p.Count != want.Count || !slices.Equal(p.Examples, want.Examples) {
			t.Fatalf("partial %d: got %q %d %v, want %q %d %v", i, url, p.Count, p.Examples, urls[i], want.Count, want.Examples)
		}
	}
	got, err := groupList(gb, nil)
	if err != nil || len(got) != len(groups) {
		t.Fatalf("groups: %d, %v; want %d", len(got), err, len(groups))
	}
	for i, g := range got {
		if g.URL != groups[i].URL || g.Count != groups[i].Count || !slices.Equal(g.Examples, groups[i].Examples) || g.Examples == nil {
			t.Fatalf("group %d: got %+v, want %+v", i, g, groups[i])
		}
	}

	for cut := range len(pb) {
		n, err := countPartials(pb[:cut])
		if pEnds[cut] != (err == nil) || err != nil && !errors.Is(err, errCorrupt) {
			t.Fatalf("partial batch cut at %d (a record end: %v): %d records, %v", cut, pEnds[cut], n, err)
		}
	}
	for cut := range len(gb) {
		n := 0
		err := decodeGroups(gb[:cut], func(*Group) { n++ })
		if gEnds[cut] != (err == nil) || err != nil && !errors.Is(err, errCorrupt) {
			t.Fatalf("group batch cut at %d (a record end: %v): %d records, %v", cut, gEnds[cut], n, err)
		}
	}
}

func countPartials(b []byte) (int, error) {
	r := reader{b: b}
	var p dedup.Partial
	n := 0
	for r.more() {
		r.partial(&p)
		if r.err == nil {
			n++
		}
	}
	return n, r.err
}

// TestBatchCorrupt: the fields a decoder must refuse — a length or a
// count past the batch's end, a varint that overflows, numbers out of
// their type's range — are errCorrupt, never a panic, a huge allocation
// or a wrapped number.
func TestBatchCorrupt(t *testing.T) {
	u := func(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }
	str := func(b []byte, s string) []byte { return append(u(b, uint64(len(s))), s...) }
	url := str(nil, "https://example.com/")
	cases := []struct {
		name    string
		partial []byte // nil: the case is for groups only
		group   []byte
	}{
		{"length past the end", u(nil, 100), u(nil, 100)},
		{"huge length", u(nil, math.MaxUint64), u(nil, math.MaxUint64)},
		{"varint overflow", append(url, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01), append(url, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)},
		{"unfinished varint", append(url, 0x80), append(url, 0x80)},
		{"count over MaxInt64", u(url, math.MaxInt64+1), u(url, math.MaxInt64+1)},
		{"more examples than bytes", u(u(url, 1), 1<<40), u(u(url, 1), 1<<40)},
		{"file over MaxUint32", u(u(u(u(url, 1), 1), math.MaxUint32+1), 0), nil},
		{"seq over MaxInt64", str(u(u(u(u(url, 1), 1), 0), math.MaxInt64+1), "a"), nil},
		{"example text past the end", u(u(u(u(url, 1), 1), 0), 0), u(u(url, 1), 1)},
	}
	for _, c := range cases {
		if c.partial != nil {
			if n, err := countPartials(c.partial); !errors.Is(err, errCorrupt) {
				t.Errorf("%s: partial batch: %d records, %v; want errCorrupt", c.name, n, err)
			}
		}
		if c.group != nil {
			if err := decodeGroups(c.group, func(*Group) {}); !errors.Is(err, errCorrupt) {
				t.Errorf("%s: group batch: %v; want errCorrupt", c.name, err)
			}
		}
	}
	// The stages that decode batches return the error (the runner retries
	// the bundle, then fails the job with it), never a partial result.
	var emitted int
	if err := unbatchGroups(append(appendGroup(nil, &Group{URL: "a", Count: 1, Examples: []string{}}), 0x80), func(Group) { emitted++ }); !errors.Is(err, errCorrupt) {
		t.Errorf("unbatchGroups: %v; want errCorrupt", err)
	}
	if err := (&pickFn{MinCount: 1}).ProcessElement(u(nil, 5), func([]byte) { emitted++ }); !errors.Is(err, errCorrupt) {
		t.Errorf("pickFn: %v; want errCorrupt", err)
	}
}

// FuzzDecodeGroups: any bytes decode to groups or errCorrupt without a
// panic, and what decodes encodes and decodes again to the same groups.
func FuzzDecodeGroups(f *testing.F) {
	_, _, groups := randomGroups(rand.New(rand.NewPCG(3, 4)), 5)
	var b []byte
	for _, g := range groups {
		b = appendGroup(b, g)
	}
	f.Add(b)
	f.Add([]byte{})
	f.Add([]byte{0x80})
	f.Fuzz(func(t *testing.T, b []byte) {
		list, err := groupList(b, nil)
		if err != nil {
			if !errors.Is(err, errCorrupt) {
				t.Fatal(err)
			}
			return
		}
		var again []byte
		for _, g := range list {
			again = appendGroup(again, g)
		}
		list2, err := groupList(again, nil)
		if err != nil || len(list2) != len(list) {
			t.Fatalf("re-encoded: %d groups, %v; want %d", len(list2), err, len(list))
		}
		for i, g := range list2 {
			if g.URL != list[i].URL || g.Count != list[i].Count || !slices.Equal(g.Examples, list[i].Examples) {
				t.Fatalf("group %d: %+v, then %+v", i, list[i], g)
			}
		}
	})
}

// TestShardOf: shardOf is FNV-1a of 64 bits, the hash the sinks used
// before batching, so a line lands in the same shard file as before.
func TestShardOf(t *testing.T) {
	for i := range 1000 {
		key := "https://example.com/" + strconv.Itoa(i)
		h := fnv.New64a()
		h.Write([]byte(key))
		for _, n := range []int{1, 7, 1024} {
			if got, want := shardOf(key, n), int(h.Sum64()%uint64(n)); got != want {
				t.Fatalf("shardOf(%q, %d) = %d, want %d", key, n, got, want)
			}
		}
	}
}
