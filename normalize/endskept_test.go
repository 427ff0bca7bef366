package normalize

import (
	"math/bits"
	"strings"
	"testing"
)

// rules21EndsProfiles returns profiles that read keys (appendEndsKept's):
// order none, keep, pair, key and key_value × drop_empty ×
// drop_empty_pairs × bare_empty_value × explicit_empty_value ×
// form_encoding × sort_decoded, with removal groups (names, a glob, a
// regexp), query.keep and pagination, or pagination alone.
func rules21EndsProfiles(t *testing.T) []Profile {
	var ps []Profile
	for _, order := range []string{"", OrderKeep, OrderPair, OrderKey, OrderKeyValue} {
		for bits := range 1 << 7 {
			p := MustLookup("whatwg").Profile()
			p.Name = "r21-ends"
			p.Query.Order = order
			q := &p.Query
			q.DropEmpty, q.DropEmptyPairs, q.BareEmptyValue = bits&1 != 0, bits&2 != 0, bits&4 != 0
			q.ExplicitEmptyValue, q.FormEncoding, q.SortDecoded = bits&8 != 0, bits&16 != 0, bits&64 != 0
			if bits&32 != 0 {
				q.Remove = []ParamGroup{{Reason: "tracking", Patterns: []string{"utm_*", "fbclid", "~^x[0-9]$", "gone"}}}
				q.Keep = []string{"utm_keep"}
				p.Pagination = &Pagination{Params: []string{"page"}}
			} else {
				p.Pagination = &Pagination{Params: []string{"p"}}
			}
			if err := p.Validate(); err != nil {
				continue // explicit_empty_value with bare_empty_value, sort_decoded without a key order
			}
			ps = append(ps, p)
		}
	}
	if len(ps) < 200 {
		t.Fatalf("%d profiles", len(ps))
	}
	return ps
}

// rules21Queries are queries of every shape the piece rules tell apart.
var rules21Queries = []string{
	"", "&", "&&", "=", "k", "k=", "k=v", "=v", "k=v=w", "a=1&b=2", "b=2&a=1", "k=&k", "k&k=", "a=1&&b=2", "&a=1",
	"a=1&", "utm_source=x", "utm_source=x&a=1", "a=1&utm_source=x", "utm_source=x&fbclid=y", "utm_keep=1&x1=2&x=3",
	"page=2", "p=3&page=2", "gone", "gone=", "gone&gone=&=&a", "UTM_Source=1&Page=2&GONE=3", "fbclid=a=b&k=v",
	"a=b=c&utm_medium=1", "x9=&x99=1", "k=a+b&c=d%20e", "k=%41&gone=1",
	"b=&b&a=", "b&b=&a", "a=2&a=1&a&a=", "ab=1&a=2&a&abcdefgh=1&abcdefg=2&abcdefgh&abcdefgh=", "z=1&y=&x9=1&gone=&w", "k=v&k=&k&k=v=w",
	"abcdefg=&abcdefg-x", "abcdefg-x&abcdefg=", "%7A=1&b=2", "b=2&%7A=1", "a+=1&a!=2", "a!=2&a+=1", "a%2B=1&a+=2",
	strings.Repeat("a=1&", 15) + "utm_x=2", strings.Repeat("a=1&", 16) + "utm_x=2", strings.Repeat("&", 15), strings.Repeat("gone&", 16),
}

// TestAppendEndsKeptMatchesSplit: appendEndsKept and appendEndsSorted
// (the pieces on ampEnds' ends, written as they are read, or keyed and
// sorted by sortKeys) write what splitQuery's direct
// split, sortParams and appendParams write for every profile of
// rules21EndsProfiles whose order it takes (endsKeyed), or
// refuses (ok false) exactly where splitQuery does (a piece the rules
// rewrite); and Normalize gives the reference's result on general-path
// and verbatim URLs with these queries.
func TestAppendEndsKeptMatchesSplit(t *testing.T) {
	taken := 0
	for _, p := range rules21EndsProfiles(t) {
		n, _ := New(p)
		ref, _ := NewReference(p)
		for _, q := range rules21Queries {
			for _, masked := range []bool{false, true} {
				var ends [maxAmpPieces]uint32
				k, eq := ampEnds(q, &ends), noMask
				if masked {
					// The ends and '=' of queryMasks, as appendQuery takes them
					// for a query of 8 to 63 bytes (keyEndIn).
					amp, m := queryMasksSWAR(q)
					if uint(len(q)-8) >= maxMaskLen-8 || bits.OnesCount64(amp) >= maxAmpPieces {
						continue
					}
					k, eq = maskEnds(amp, len(q), &ends), m
				}
				if k == 0 || !n.endsKeyed {
					continue
				}
				write := n.appendEndsKept
				if n.order != nil {
					write = n.appendEndsSorted
				}
				got, ok := write([]byte("x"), q, ends[:k], eq, &n.baseKeys)
				st := new(state)
				ps, b, wantOK := n.splitQuery(st, nil, q, &n.baseKeys, nil, false, true)
				if wantOK {
					n.sortParams(ps, b)
				}
				want := "x"
				if wantOK && !(n.query.DropEmpty && (len(ps) == 0 || len(ps) == 1 && ps[0].k0 == ps[0].end)) {
					want = "x?" + string(appendParams(nil, ps, b))
				}
				switch {
				case ok != wantOK:
					t.Errorf("%+v: appendEndsKept(%q) ok %v, splitQuery %v", p.Query, q, ok, wantOK)
				case !ok && string(got) != "x":
					t.Errorf("%+v: appendEndsKept(%q) refused but wrote %q", p.Query, q, got)
				case ok && string(got) != want:
					t.Errorf("%+v: appendEndsKept/Sorted(%q) = %q, splitQuery and appendParams %q", p.Query, q, got, want)
				case ok:
					taken++
				}
			}
			for _, u := range []string{"http://a.test/a/../b?" + q, "http://a.test/b?" + q, "HTTP://A.test/b?" + q + "#f"} {
				got, err := n.Normalize(u)
				want, wantErr := ref.Normalize(u)
				if got != want || (err == nil) != (wantErr == nil) {
					t.Errorf("%+v: Normalize(%q) = %q, %v; the reference %q, %v", p.Query, u, got, err, want, wantErr)
				}
			}
		}
	}
	if taken == 0 {
		t.Error("appendEndsKept never wrote a query")
	}
}
