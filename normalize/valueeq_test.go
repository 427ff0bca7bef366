package normalize

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// w3l21Pieces are pieces with no '=', one, and more, in the key, the
// value or at the end, for the queries of the tests of pieceRuleEnds.
var w3l21Pieces = []string{"", "k", "k=", "=", "k=v", "=v", "k=v=w", "k==", "==", "a=b=", "utm_source=1", "utm_source=a=b",
	"b=2", "abcdefgh=1=2", "abcdefghij=xyz", "x=%41", "p=2", "page=3=4"}

// w3l21Query returns a query of 1 to maxAmpPieces+2 pieces of
// w3l21Pieces (more than maxAmpPieces: the loops on the ends refuse it).
func w3l21Query(r *rand.Rand) string {
	qs := make([]string, 1+r.IntN(maxAmpPieces+2))
	for i := range qs {
		qs[i] = w3l21Pieces[r.IntN(len(w3l21Pieces))]
	}
	return strings.Join(qs, "&")
}

// TestPieceRuleEndsMatchesPieceRule: on the pieces of a query (ampEnds),
// pieceRuleEnds says what pieceRule says of each piece but a "k=v" whose
// value has an '=' under form encoding, and valueEq after the loop says
// whether there is such a piece: the loops on the ends (endsKeptOrRemoved,
// appendEndsKept, appendEndsSorted) refuse exactly the queries with a
// piece pieceRule says the rules rewrite, and keep the others' rules, for
// every profile of rules21EndsProfiles (form encoding or not).
func TestPieceRuleEndsMatchesPieceRule(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 21))
	formEq := 0
	for _, p := range rules21EndsProfiles(t) {
		n, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		if n.formEq {
			formEq++
		}
		for range 200 {
			q := w3l21Query(r)
			var ends [maxAmpPieces]uint32
			k := ampEnds(q, &ends)
			if k == 0 {
				continue // more than maxAmpPieces: the loops on the ends are not asked
			}
			refused, wantRefused := false, false
			at, bare := 0, 0
			for _, e32 := range ends[:k] {
				e := int(e32)
				k1 := keyEnd(q, at, e)
				w, want := n.pieceRuleEnds(q, at, k1, e, &bare), n.pieceRule(q, at, k1, e)
				deferred := w == pieceKept && want == pieceRewritten && n.formEq && k1+1 < e && strings.Contains(q[k1+1:e], "=")
				if w != want && !deferred {
					t.Fatalf("%+v: pieceRuleEnds(%q, piece %q) = %d, pieceRule %d", p.Query, q, q[at:e], w, want)
				}
				refused, wantRefused = refused || w == pieceRewritten, wantRefused || want == pieceRewritten
				at = e + 1
			}
			if refused = refused || n.valueEqIn(q, k-bare, noMask); refused != wantRefused {
				t.Fatalf("%+v: %q refused %v (valueEq %v), by pieceRule %v", p.Query, q, refused, n.valueEqIn(q, k-bare, noMask), wantRefused)
			}
		}
	}
	if formEq == 0 {
		t.Fatal("no profile with form encoding's '=' rule")
	}
}

// TestValueEqQueriesMatchReference: w3lib and edge-gateway (form
// encoding: pieceRuleEnds and valueEq decide their queries'
// '=') and the other built-ins that read keys give the reference's
// result on verbatim and general-path URLs with queries of pieces with
// one '=', none or more; and for w3lib's rules, endsKeptOrRemoved (the
// loop on the ends of piecesKept) says what the piece-by-piece loop
// says of the same query (the pieces and a 17th that keeps it from the
// ends).
func TestValueEqQueriesMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 21))
	for _, name := range []string{"w3lib", "edge-gateway", "curiousnow-v0", "crawler-commons", "clara"} {
		p := MustLookup(name).Profile()
		n, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := NewReference(p)
		if err != nil {
			t.Fatal(err)
		}
		if name == "w3lib" || name == "edge-gateway" {
			if !n.formEq {
				t.Fatalf("%s: no form encoding's '=' rule", name)
			}
		}
		for range 3000 {
			q := w3l21Query(r)
			for _, u := range []string{"http://a.test/b?" + q, "HTTP://A.test/a/../b?" + q + "#f"} {
				got, err := n.Normalize(u)
				want, wantErr := ref.Normalize(u)
				if got != want || (err == nil) != (wantErr == nil) {
					t.Fatalf("%s: Normalize(%q) = %q, %v; the reference %q, %v", name, u, got, err, want, wantErr)
				}
			}
			if name != "w3lib" || strings.Count(q, "&") >= maxAmpPieces {
				continue
			}
			ok, rewrite := n.piecesKept(q, &keptPieces{})
			wok, _ := n.piecesKept(q+strings.Repeat("&k=v", maxAmpPieces), &keptPieces{})
			if ok != wok {
				t.Fatalf("w3lib: piecesKept(%q) = %v, %v; piece by piece %v", q, ok, rewrite, wok)
			}
		}
	}
}
