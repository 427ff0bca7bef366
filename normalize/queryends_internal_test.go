package normalize

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestAmpEndsMatchesNextPiece: ampEnds gives the ends of the pieces that
// nextPiece reads (each '&', then len(q)) for queries of up to 40 bytes
// with a '&' at any one or two positions (in a word, at a word's edge, in
// the byte tail, first, last, doubled), and 0 for a query of more than
// maxAmpPieces pieces.
func TestAmpEndsMatchesNextPiece(t *testing.T) {
	check := func(q string) {
		t.Helper()
		var want []uint32
		for at := 0; at <= len(q); {
			p, _ := (&Normalizer{}).nextPiece(q, at, false, false)
			want = append(want, p.end)
			at = int(p.end) + 1
		}
		var ends [maxAmpPieces]uint32
		k := ampEnds(q, &ends)
		if len(want) > maxAmpPieces {
			if k != 0 {
				t.Fatalf("ampEnds(%q) = %d pieces, want 0 (more than %d)", q, k, maxAmpPieces)
			}
			return
		}
		if !slices.Equal(ends[:k], want) {
			t.Fatalf("ampEnds(%q) = %v, want %v", q, ends[:k], want)
		}
	}
	for size := range 41 {
		for _, fill := range []string{"a", "a=b", "=&"} {
			base := []byte(strings.Repeat(fill, size+1)[:size])
			for i := range size {
				for j := i; j < size; j++ {
					b := append([]byte(nil), base...)
					b[i], b[j] = '&', '&'
					check(string(b))
					b[i] = 'x'
					check(string(b))
				}
			}
			check(string(base))
		}
	}
	for n := 14; n <= 18; n++ { // around maxAmpPieces, in words and in the tail
		check(strings.Repeat("&", n-1))
		check(strings.Repeat("a=1&", n-1) + "z")
	}
}

// TestPairOrderMatchesCmpPair: pairLess and sortPairs order pairs as
// cmpPair (bytes.Compare) does, stable sort included, for pairs that
// differ in their first 8 bytes or after them, that are prefixes of each
// other, that have zero bytes, at every offset of buffers shorter and
// longer than a word (pairWord's three loads).
func TestPairOrderMatchesCmpPair(t *testing.T) {
	pieces := []string{"", "a", "a=1", "a=10", "a=2", "a\x00", "a\x00\x00", "abcdefgh", "abcdefg", "abcdefgh=1",
		"abcdefgh=2", "abcdefgh\x00", "utm_campaign=x", "utm_content=y", "\xff", "\xff\xff\xff\xff\xff\xff\xff\xff\xff", "m=13", "z=26"}
	r := rand.New(rand.NewPCG(20, 18))
	for range 20000 {
		// A buffer of random pieces, each at its own offset.
		k := 1 + r.IntN(6)
		var b []byte
		ps := make([]param, k)
		for i := range ps {
			s := pieces[r.IntN(len(pieces))]
			b = append(b, strings.Repeat("&", r.IntN(3))...)
			ps[i] = param{k0: uint32(len(b)), end: uint32(len(b) + len(s))}
			ps[i].k1 = ps[i].end
			b = append(b, s...)
		}
		b = append(b, strings.Repeat("&", r.IntN(3))...)
		for _, a := range ps {
			for _, c := range ps {
				if got, want := pairLess(b, a, c), cmpPair(b, a, c) < 0; got != want {
					t.Fatalf("pairLess(%q, %q) = %v, want %v", b[a.k0:a.end], b[c.k0:c.end], got, want)
				}
			}
		}
		got, want := slices.Clone(ps), slices.Clone(ps)
		sortPairs(got, b)
		slices.SortStableFunc(want, func(a, c param) int { return cmpPair(b, a, c) })
		if !slices.Equal(got, want) {
			t.Fatalf("sortPairs of %q: %v, want %v", b, got, want)
		}
	}
}

// TestKeptPiecesMatchSort: for default's keyless rules, piecesKept on a
// query of pieces (empty ones, pieces equal in their first 8 bytes or
// whole, more than maxAmpPieces) says what the general rules say: not
// kept with an empty piece, a rewrite when the pieces are out of cmpPair
// order, and appendKept then writes them as a stable sort by cmpPair does,
// from the pieces piecesKept sorted (kp) or, past maxAmpPieces, from its
// own split.
func TestKeptPiecesMatchSort(t *testing.T) {
	n := MustLookup("default")
	if !n.keylessQ {
		t.Fatal("default's query rules are not keyless")
	}
	pieces := []string{"", "a", "a=1", "a=10", "a=2", "abcdefgh", "abcdefgh=1", "abcdefgh=2", "utm_campaign=x",
		"utm_content=y", "m=13", "z=26", "~", "A=1"}
	r := rand.New(rand.NewPCG(18, 20))
	for range 20000 {
		ps := make([]string, 1+r.IntN(20))
		for i := range ps {
			ps[i] = pieces[r.IntN(len(pieces))]
		}
		q := strings.Join(ps, "&")
		var kp keptPieces
		ok, rewrite := n.piecesKept(q, &kp)
		sorted := slices.Clone(ps)
		slices.SortStableFunc(sorted, strings.Compare)
		wantOK, wantRewrite := !slices.Contains(ps, ""), !slices.Equal(ps, sorted)
		if ok != wantOK || ok && rewrite != wantRewrite {
			t.Fatalf("piecesKept(%q) = %v, %v; want %v, %v", q, ok, rewrite, wantOK, wantRewrite)
		}
		if !ok || !rewrite {
			continue
		}
		if (kp.n > 0) != (len(ps) <= maxAmpPieces) {
			t.Fatalf("piecesKept(%q): %d pieces sorted, of %d", q, kp.n, len(ps))
		}
		if got, want := string(n.appendKept(nil, q, 0, &kp)), "?"+strings.Join(sorted, "&"); got != want {
			t.Fatalf("appendKept(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestAppendEndsMatchesReference: appendQuery's keyless split (ampEnds,
// appendEnds) writes what the reference writes, for default and for
// whatwg with each keyless combination of query.order (pair, none),
// drop_empty and drop_empty_pairs, on URLs that take the general path (a
// dot segment, an uppercase host with an escape) and the verbatim one,
// with queries of empty pieces, "", pieces equal in their first 7 bytes,
// and more than maxAmpPieces pieces (the split piece by piece).
func TestAppendEndsMatchesReference(t *testing.T) {
	var ps []Profile
	ps = append(ps, MustLookup("default").prof)
	for _, order := range []string{OrderPair, ""} {
		for _, de := range []bool{false, true} {
			for _, dep := range []bool{false, true} {
				p := MustLookup("whatwg").prof
				p.Name = "whatwg-keyless"
				p.Query = QueryRules{Order: order, DropEmpty: de, DropEmptyPairs: dep}
				ps = append(ps, p)
			}
		}
	}
	pieces := []string{"", "a", "a=1", "a=10", "abcdefg=1", "abcdefg=2", "abcdefgh", "utm_campaign=x", "utm_content=y", "z=26", "~"}
	prefixes := []string{"https://x.example/a/./b?", "HTTPS://X.EXAMPLE/%41?", "https://x.example/p?", "sc://x/y?"}
	r := rand.New(rand.NewPCG(25, 11))
	for _, p := range ps {
		fast, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		if !fast.keylessQ {
			t.Fatalf("%s %+v: not keyless", p.Name, p.Query)
		}
		ref, _ := NewReference(p)
		for range 4000 {
			qs := make([]string, r.IntN(20))
			for i := range qs {
				qs[i] = pieces[r.IntN(len(pieces))]
			}
			in := prefixes[r.IntN(len(prefixes))] + strings.Join(qs, "&") + []string{"", "#f"}[r.IntN(2)]
			got, gerr := fast.Normalize(in)
			want, werr := ref.Normalize(in)
			if got != want || (gerr == nil) != (werr == nil) {
				t.Fatalf("%s %+v: Normalize(%q) = %q, %v; reference %q, %v", p.Name, p.Query, in, got, gerr, want, werr)
			}
		}
	}
}

// TestAppendPctMatchesRest: appendPct's word steps write what
// appendPctRest, its reference, writes, under each combination of the
// percent rules, for strings of up to 40 bytes of escapes (upper- and
// lowercase hex, unreserved or not, hex digits that a stray '%' before
// them would turn into an escape), stray '%' (at the end, before one hex
// digit) and plain bytes, after a prefix that ends in a stray '%' or
// not.
func TestAppendPctMatchesRest(t *testing.T) {
	parts := []string{"a", "/", "%41", "%7e", "%7E", "%2F", "%2f", "%", "%4", "%%", "%36", "%61", "%zz", "~", "abcdefgh"}
	r := rand.New(rand.NewPCG(18, 25))
	for _, dec := range []bool{false, true} {
		for _, up := range []bool{false, true} {
			for _, stray := range []bool{false, true} {
				n := &Normalizer{pctAny: true}
				n.pct = PercentRules{DecodeUnreserved: dec, UppercaseHex: up, EncodeStray: stray}
				for range 20000 {
					var sb strings.Builder
					for sb.Len() < r.IntN(41) {
						sb.WriteString(parts[r.IntN(len(parts))])
					}
					s := sb.String()
					prefix := []string{"", "x", "%", "%3"}[r.IntN(4)]
					got := string(n.appendPct([]byte(prefix), s))
					want := string(n.appendPctRest([]byte(prefix), s, len(prefix)))
					if got != want {
						t.Fatalf("%+v: appendPct(%q, %q) = %q, want %q", n.pct, prefix, s, got, want)
					}
				}
			}
		}
	}
}
