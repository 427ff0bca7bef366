package normalize

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// removalProfiles returns every built-in profile and whatwg with removal
// rules (query.remove with exact names, a glob and a regexp, query.keep,
// pagination) under each query order (pair, key, key_value, the last
// with sort_decoded, none, keep) and combinations of drop_empty,
// drop_empty_pairs, bare_empty_value and form_encoding: the rules
// endsKeptOrRemoved reads (or refuses, sort_decoded).
func removalProfiles(t *testing.T) []Profile {
	t.Helper()
	var ps []Profile
	for _, name := range Names() {
		ps = append(ps, MustLookup(name).prof)
	}
	remove := []ParamGroup{{Reason: "tracking", Patterns: []string{"utm_*", "gclid", "abcdefg", "~*^x[a-z]*session$"}}}
	for _, order := range []string{OrderPair, OrderKey, OrderKeyValue, "", OrderKeep} {
		for i := range 8 {
			p := MustLookup("whatwg").prof
			p.Name = "whatwg-removal"
			p.Query = QueryRules{Order: order, DropEmpty: i&1 != 0, DropEmptyPairs: i&2 != 0, Remove: remove, Keep: []string{"utm_keep"}}
			switch i >> 2 {
			case 1:
				p.Query.BareEmptyValue, p.Query.FormEncoding = true, true
				p.Pagination = &Pagination{Params: []string{"page", "p"}}
			}
			ps = append(ps, p)
		}
	}
	for _, form := range []bool{false, true} {
		for _, rm := range [][]ParamGroup{nil, remove} {
			for _, order := range []string{OrderKey, OrderKeyValue} {
				p := MustLookup("whatwg").prof
				p.Name = "whatwg-decoded"
				p.Query = QueryRules{Order: order, SortDecoded: true, FormEncoding: form, Remove: rm}
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// TestEndsKeptOrRemovedMatchesReference: the one-pass split of a query
// for rules that remove parameters (ampEnds, endsKeptOrRemoved, the
// kept pieces sorted into keptPieces and copied by appendKept) writes
// what the reference writes, for every built-in profile and the custom
// profiles of removalProfiles, on verbatim URLs (and some that take the
// general path) whose queries hold removed keys, kept keys that share
// their first 7 bytes or their key with others, "k" and "k=", empty
// pieces, and more than maxAmpPieces pieces (the split piece by piece).
// It also asserts that the new path is taken: for each profile that
// removes parameters or orders them, and whose queries queryKept reads,
// some query is kept with its pieces put in order (kp.n > 0).
func TestEndsKeptOrRemovedMatchesReference(t *testing.T) {
	pieces := []string{"", "a", "a=", "a=1", "a=10", "a=2", "b=1", "abcdefg=1", "abcdefg", "abcdefgh=2", "abcdefgh=1",
		"abcdefgz", "utm_source=x", "utm_keep=1", "gclid=2", "page=3", "p=1", "xsession=1", "xsessionx=1",
		"z=26", "~", "k=a=b", "sid=1", "ref=a", "Z=1", "q+r=1"}
	prefixes := []string{"https://x.example/p?", "https://x.example/?", "http://x.example/a/b?", "https://x.example/a/./b?", "https://x.example?"}
	r := rand.New(rand.NewPCG(21, 18))
	for _, p := range removalProfiles(t) {
		fast, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := NewReference(p)
		if err != nil {
			t.Fatal(err)
		}
		sorted := 0
		for range 3000 {
			qs := make([]string, r.IntN(20))
			for i := range qs {
				qs[i] = pieces[r.IntN(len(pieces))]
			}
			q := strings.Join(qs, "&")
			in := prefixes[r.IntN(len(prefixes))] + q + []string{"", "#f"}[r.IntN(2)]
			got, gerr := fast.Normalize(in)
			want, werr := ref.Normalize(in)
			if got != want || (gerr == nil) != (werr == nil) {
				t.Fatalf("%s %+v: Normalize(%q) = %q, %v; reference %q, %v", p.Name, p.Query, in, got, gerr, want, werr)
			}
			var kp keptPieces
			if ok, rewrite, _ := fast.queryKept(q, &kp); ok && rewrite && kp.n > 0 {
				sorted++
			}
		}
		if (fast.page != nil || len(fast.base) > 0 || fast.order != nil) && fast.queryAsIs && !removesEvery(p.Query.Remove) && sorted == 0 {
			t.Errorf("%s %+v: no query kept in order by endsKeptOrRemoved", p.Name, p.Query)
		}
	}
}

// TestEndsKeptOrRemovedMatchesPieces: endsKeptOrRemoved says what the
// piece-by-piece test (piecesKeptOrRemoved past maxAmpPieces pieces)
// says of the same pieces: ok, rewrite and removed, and the kept pieces
// in kp are those appendKept writes from removed alone, in the same
// order (sortParams).
func TestEndsKeptOrRemovedMatchesPieces(t *testing.T) {
	pieces := []string{"a", "a=", "a=1", "a=10", "a=2", "b=1", "abcdefg=1", "abcdefg", "abcdefgh=2", "abcdefgh=1",
		"abcdefgz", "utm_source=x", "utm_keep=1", "gclid=2", "page=3", "p=1", "z=26", "~", "Z=1", ""}
	r := rand.New(rand.NewPCG(21, 25))
	for _, p := range removalProfiles(t) {
		n, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		if !(n.page != nil || len(n.base) > 0) {
			continue
		}
		for range 3000 {
			qs := make([]string, 1+r.IntN(maxAmpPieces))
			for i := range qs {
				qs[i] = pieces[r.IntN(len(pieces))]
			}
			q := strings.Join(qs, "&")
			var ends [maxAmpPieces]uint32
			k := ampEnds(q, &ends)
			var kp keptPieces
			ok, rewrite, removed := n.endsKeptOrRemoved(q, ends[:k], &kp)
			// The same pieces and 17 more to remove: piece by piece.
			long := q + strings.Repeat("&gclid=1", maxAmpPieces+1)
			wok, wrewrite, wremoved := n.piecesKeptOrRemoved(long, &keptPieces{})
			wremoved &= 1<<len(qs) - 1
			if wok {
				wrewrite = wremoved != 0 || n.outOfOrderAny(q, wremoved)
			}
			if ok != wok || ok && (rewrite != wrewrite || removed != wremoved) {
				t.Fatalf("%s %+v: endsKeptOrRemoved(%q) = %v, %v, %b; piece by piece %v, %v, %b", p.Name, p.Query, q, ok, rewrite, removed, wok, wrewrite, wremoved)
			}
			if !ok || !rewrite {
				continue
			}
			got := string(n.appendKept(nil, q, removed, &kp))
			want := string(n.appendKept(nil, q, removed, &keptPieces{}))
			if got != want {
				t.Fatalf("%s %+v: appendKept(%q) from kp = %q, from removed %q", p.Name, p.Query, q, got, want)
			}
		}
	}
}

// outOfOrderAny reports whether the pieces of q not in removed are out of
// the profile's order (piecesKeptOrRemoved's test, on its own).
func (n *Normalizer) outOfOrderAny(q string, removed uint64) bool {
	if n.order == nil {
		return false
	}
	b := []byte(q)
	var prev param
	kept := false
	for at := 0; at <= len(q); removed >>= 1 {
		p, _ := n.nextPiece(q, at, false, true)
		at = int(p.end) + 1
		if removed&1 != 0 {
			continue
		}
		if kept && n.outOfOrder(b, prev, p) {
			return true
		}
		prev, kept = p, true
	}
	return false
}
