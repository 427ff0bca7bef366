package normalize

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestQueryMasksMatchBytes: queryMasksSWAR, on queries of 0 to 63 bytes,
// and queryMasks (this build's: AVX2 or SWAR), on queries of 8 to 63
// bytes cut from a longer string, give the '&' and the '=' of every byte;
// queryMasks' other is not 0 exactly when a byte is not in the profile's
// queryTab (nil: 0), and with AVX2 and a profile's querySet it holds
// exactly those bytes.
func TestQueryMasksMatchBytes(t *testing.T) {
	var ns []*Normalizer
	for _, name := range []string{"default", "edge-gateway", "w3lib", "clara", "curiousnow-v0"} {
		ns = append(ns, MustLookup(name))
	}
	const alphabet = "&=&=&=abZ09%+~;/!*\x00\x7f\x80\xff "
	r := rand.New(rand.NewPCG(24, 18))
	exact := 0
	for range 20000 {
		b := make([]byte, r.IntN(maxMaskLen)+8)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		q := string(b[4 : len(b)-4]) // bytes on both sides: a load past q would see them
		var amp, eq uint64
		for i := range len(q) {
			amp |= uint64(b2u(q[i] == '&')) << i
			eq |= uint64(b2u(q[i] == '=')) << i
		}
		if a, e := queryMasksSWAR(q); a != amp || e != eq {
			t.Fatalf("queryMasksSWAR(%q) = %b, %b; want %b, %b", q, a, e, amp, eq)
		}
		if len(q) < 8 {
			continue
		}
		if a, e, other := queryMasks(q, nil, nil); a != amp || e != eq || other != 0 {
			t.Fatalf("queryMasks(%q, nil) = %b, %b, %b; want %b, %b, 0", q, a, e, other, amp, eq)
		}
		for _, n := range ns {
			a, e, other := queryMasks(q, &n.queryTab, n.querySet)
			var want uint64
			for i := range len(q) {
				want |= uint64(b2u(n.queryTab[q[i]] != vOK)) << i
			}
			if a != amp || e != eq || (other != 0) != (want != 0) {
				t.Fatalf("%s: queryMasks(%q) = %b, %b, %b; want %b, %b, %b", n.Name(), q, a, e, other, amp, eq, want)
			}
			if simdScans && n.querySet != nil {
				if other != want {
					t.Fatalf("%s: queryMasks(%q) other %b; want %b", n.Name(), q, other, want)
				}
				exact++
			}
		}
	}
	if simdScans && exact == 0 {
		t.Error("no byte test by querySet")
	}
}

// maskProfiles returns the profiles of the masks' tests: the built-ins,
// removalProfiles, rules21EndsProfiles and rules21Profiles, those that
// read keys (not keylessQ: queryKept and appendQuery take the masks for
// them only).
func maskProfiles(t *testing.T) []*Normalizer {
	var ns []*Normalizer
	ps := slices.Concat(removalProfiles(t), rules21EndsProfiles(t), rules21Profiles(t))
	for _, p := range ps {
		n, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		if !n.keylessQ {
			ns = append(ns, n)
		}
	}
	return ns
}

// maskQuery returns a query of 8 to 63 bytes of up to maxAmpPieces-1
// pieces, made of the shapes the piece rules tell apart and keys the
// profiles remove, keep, or order by more than their first 7 bytes.
func maskQuery(r *rand.Rand) string {
	pieces := []string{"", "a", "a=", "=", "=v", "a=1", "a=10", "a=2", "b=1", "k=v=w", "k==", "abcdefg=1", "abcdefg",
		"abcdefgh=2", "abcdefgh=1", "abcdefgz", "abcdefg-x", "utm_source=x", "UTM_Source=1", "utm_keep=1", "utm_x",
		"gclid=2", "fbclid=a=b", "page=3", "Page=2", "p=1", "gone", "gone=", "x1=2", "xsession=1", "ref=r", "_ga=1",
		"z=26", "~", "Z=1", "a+b=c", "a%20b=1", "k=%41", "k=a;b", "k=/x", "é=1", "mysessionid=3", "start=4", "id=9"}
	for {
		qs := make([]string, 1+r.IntN(maxAmpPieces-1))
		for i := range qs {
			qs[i] = pieces[r.IntN(len(pieces))]
		}
		if q := strings.Join(qs, "&"); len(q) >= 8 && len(q) < maxMaskLen {
			return q
		}
	}
}

// TestMasksKeptOrRemovedMatchesEnds: on random queries of 8 to 63 bytes,
// masksKeptOrRemoved (without a byte test) says what
// endsKeptOrRemoved (on ampEnds' ends) says, and puts the same pieces in
// kp; queryKept, which takes the masks and may test the bytes with them,
// says what the pieces' test and queryTab say; appendEndsKept and
// appendEndsSorted write the same with the masks' ends and '=' as with
// ampEnds' ends and keyEnd; and Normalize gives the reference's result.
func TestMasksKeptOrRemovedMatchesEnds(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 25))
	taken, rewritten, refs, kept := 0, 0, 0, 0
	for _, n := range maskProfiles(t) {
		ref, err := NewReference(n.prof)
		if err != nil {
			t.Fatal(err)
		}
		// 15 to 17 pieces: the masks take up to maxAmpPieces (done), as
		// ampEnds; the pieces' test the others (queryKept).
		for _, q := range []string{strings.Repeat("b&", 14) + "a", strings.Repeat("b&", 15) + "a", strings.Repeat("b&", 16) + "a",
			strings.Repeat("z=1&", 15) + "a=1", strings.Repeat("gclid=1&", 7) + "a", "&" + strings.Repeat("a=1&", 15)} {
			var kp, wkp keptPieces
			_, _, _, done := n.masksKeptOrRemoved(q, nil, &keptPieces{})
			if pieces := strings.Count(q, "&") + 1; done != (pieces <= maxAmpPieces) {
				t.Fatalf("%s: masksKeptOrRemoved(%q), %d pieces: done %v", n.Name(), q, pieces, done)
			}
			ok, rewrite, removed := n.queryKept(q, &kp)
			wok, wrewrite, wremoved := n.piecesKeptOrRemoved(q, &wkp)
			if n.page == nil && len(n.base) == 0 {
				wok, wrewrite = n.piecesKept(q, &wkp)
				wremoved = 0
			}
			if ok != wok || ok && (rewrite != wrewrite || removed != wremoved || kp != wkp) {
				t.Fatalf("%s: queryKept(%q) = %v, %v, %b; the pieces' test %v, %v, %b", n.Name(), q, ok, rewrite, removed, wok, wrewrite, wremoved)
			}
		}
		for i := range 400 {
			q := maskQuery(r)
			amp, eq := queryMasksSWAR(q)
			var ends [maxAmpPieces]uint32
			k := ampEnds(q, &ends)
			var kp, wkp keptPieces
			ok, rewrite, removed, done := n.masksKeptOrRemoved(q, nil, &kp)
			wok, wrewrite, wremoved := n.endsKeptOrRemoved(q, ends[:k], &wkp)
			if !done || ok != wok || ok && (rewrite != wrewrite || removed != wremoved || kp != wkp) {
				t.Fatalf("%s %+v: masksKeptOrRemoved(%q) = %v, %v, %b, %v; endsKeptOrRemoved %v, %v, %b, %v",
					n.Name(), n.prof.Query, q, ok, rewrite, removed, kp, wok, wrewrite, wremoved, wkp)
			}
			if ok {
				taken++
				if rewrite {
					rewritten++
				}
			}

			// queryKept is asked about the queries the verbatim scan takes
			// (vQuery), its callers read rewrite and removed when ok.
			if spanOKSWAR(q, &vQuery) == len(q) {
				ok, rewrite, removed = n.queryKept(q, &kp)
				if n.page != nil || len(n.base) > 0 {
					wok, wrewrite, wremoved = n.piecesKeptOrRemoved(q, &wkp)
				} else {
					wok, wrewrite = n.piecesKept(q, &wkp)
					wremoved = 0
				}
				wok = wok && spanOKSWAR(q, &n.queryTab) == len(q)
				if ok != wok || ok && (rewrite != wrewrite || removed != wremoved) {
					t.Fatalf("%s %+v: queryKept(%q) = %v, %v, %b; the pieces and the bytes %v, %v, %b",
						n.Name(), n.prof.Query, q, ok, rewrite, removed, wok, wrewrite, wremoved)
				}
				kept++
			}
			if n.endsKeyed {
				write := n.appendEndsKept
				if n.order != nil {
					write = n.appendEndsSorted
				}
				var mends [maxAmpPieces]uint32
				mk := maskEnds(amp, len(q), &mends)
				got, gok := write([]byte("x"), q, mends[:mk], eq, &n.baseKeys)
				want, wok := write([]byte("x"), q, ends[:k], noMask, &n.baseKeys)
				if gok != wok || string(got) != string(want) || mends != ends {
					t.Fatalf("%s %+v: on the masks of %q %q, %v (ends %v); on ampEnds %q, %v (ends %v)",
						n.Name(), n.prof.Query, q, got, gok, mends[:mk], want, wok, ends[:k])
				}
			}

			if i%8 == 0 {
				for _, u := range []string{"http://a.test/b?" + q, "http://a.test/a/../b?" + q + "#f"} {
					got, err := n.Normalize(u)
					want, wantErr := ref.Normalize(u)
					if got != want || (err == nil) != (wantErr == nil) {
						t.Fatalf("%s %+v: Normalize(%q) = %q, %v; the reference %q, %v", n.Name(), n.prof.Query, u, got, err, want, wantErr)
					}
					refs++
				}
			}
		}
	}
	if taken == 0 || rewritten == 0 || refs == 0 || kept == 0 {
		t.Errorf("masksKeptOrRemoved kept %d queries, rewrote %d; queryKept asked %d; %d URLs against the reference", taken, rewritten, kept, refs)
	}
}

// TestMaskEndsMatchAmpEnds: maskEnds on a query's '&' mask gives
// ampEnds' ends.
func TestMaskEndsMatchAmpEnds(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 26))
	for range 5000 {
		q := maskQuery(r)
		amp, _ := queryMasksSWAR(q)
		var ends, mends [maxAmpPieces]uint32
		k, mk := ampEnds(q, &ends), maskEnds(amp, len(q), &mends)
		if k != mk || ends != mends || mk != bits.OnesCount64(amp)+1 {
			t.Fatalf("maskEnds(%q) = %v; ampEnds %v", q, mends[:mk], ends[:k])
		}
	}
}
