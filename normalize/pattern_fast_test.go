package normalize

import (
	"slices"
	"strings"
	"testing"
)

// nameSetNames returns names on nameSet's edges: every length from 1 to
// 20 (the cases of a name's words: under 4, 4 to 7, 8 to 16, longer), the names of
// the built-in profiles' lists, and bytes that differ by 0x20 without
// being letters ('@' '`', '[' '{', 0xC1 0xE1), which ASCII case folding
// keeps apart.
func nameSetNames() []string {
	names := []string{"", "@", "`", "[", "{", "\xc1", "\xe1", "a@", "A`", "id", "ID", "Id", "iD", "utm_source", "UTM_SOURCE", "Utm_SourcE"}
	for n := 1; n <= 20; n++ {
		s := strings.Repeat("a", n)
		names = append(names, s, strings.ToUpper(s))
		// Each position in turn another letter, another case, a byte 0x20 away.
		for i := range n {
			for _, c := range []byte{'b', 'A', 'a' ^ 0x20 ^ 0x40, '\xe1'} {
				b := []byte(s)
				b[i] = c
				names = append(names, string(b))
			}
		}
	}
	for _, name := range Names() {
		p := MustLookup(name).Profile()
		lists := [][]string{p.Query.Keep}
		if p.Pagination != nil {
			lists = append(lists, p.Pagination.Params)
		}
		for _, g := range append(p.Query.Remove, p.Path.RemoveParams...) {
			lists = append(lists, g.Patterns)
		}
		for _, l := range lists {
			for _, s := range l {
				names = append(names, s, strings.ToUpper(s), s+"x", "x"+s)
			}
		}
	}
	return names
}

// TestNameSetMatchesReference: nameSet.has (a fast path: words lowercased
// as they are read, hashed, compared by words up to 16 bytes) says what
// the reference says, the name lowercased and compared with each of the
// set's, for sets of names on its edges: every length, names that differ
// in one byte anywhere (also in the middle of a long name, where the
// words do not reach), in case only, or by 0x20 in a byte that is not a
// letter.
func TestNameSetMatchesReference(t *testing.T) {
	names := nameSetNames()
	var as []string // "a" of every length
	for n := 1; n <= 20; n++ {
		as = append(as, strings.Repeat("a", n))
	}
	sets := [][]string{as, {"a"}, {"aaaa"}, {"aaaaaaaa"}, {"aaaaaaaaaaaaaaaa"}, {"aaaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaaaaaa"},
		{"@", "[", "\xc1"}, {"a@", "aaabaaaaaaaaaaaaaaaa"}, {"aab", "aaaba", "aaaaaba", "aaaaaaba", "aaaaaaaaaaaaaaab"}, {"id", "id"}}
	for _, name := range Names() {
		p := MustLookup(name).Profile()
		for _, g := range p.Query.Remove {
			var lits []string
			for _, s := range g.Patterns {
				if !strings.ContainsAny(s, "*~") {
					lits = append(lits, asciiLower(s))
				}
			}
			sets = append(sets, lits)
		}
	}
	long := make([]string, 100) // a set of many slots, probed past the end of the table
	for i := range long {
		long[i] = strings.Repeat("k", 1+i%20) + string(rune('a'+i/20))
	}
	sets = append(sets, long)
	names = append(names, long...)
	for _, lits := range sets {
		s := newNameSet(lits)
		for _, name := range names {
			if got, want := s.has(name), slices.Contains(lits, asciiLower(name)); got != want {
				t.Errorf("%q: has(%q) = %v, want %v", lits, name, got, want)
			}
		}
	}
}

// TestLowerWord: lowerWord lowercases A-Z in each byte of a word, and no
// other byte, for every byte at every position.
func TestLowerWord(t *testing.T) {
	for c := range 256 {
		for i := range 8 {
			b := []byte("xY@[`{\x80\xff")
			b[i] = byte(c)
			w := le64(string(b))
			want := le64(string(appendLower(nil, string(b))))
			if got := lowerWord(w); got != want {
				t.Fatalf("lowerWord(%q) = %#x, want %#x", b, got, want)
			}
		}
	}
}

// TestKeyFilterRows: keyFilter (mayRemove: one row of first bytes per
// length, the last for every length from 15 on, all ones where a regexp
// may match) lets through every key that a group removes, and removes
// (the matchers' own filters) says what the reference says (no filter,
// nameSet nor prefilter), for groups of
// regexps whose lengths fall in one row or past the last, globs of stars
// alone or with a prefix, and exact names of every row; the keys are
// every length from 0 to 70 of each first byte in both cases.
func TestKeyFilterRows(t *testing.T) {
	groups := [][]string{
		{"~^x{20}$"}, {"~^.{3,5}$"}, {"~^$"}, {"~*^y{14,16}z*$"}, {"*"}, {"**"}, {"a*b"}, {"*k"}, {"q"},
		{"abcdefghijklmnopqrstuvwxyz"}, {"abcdefghijklmno"}, {"abcdefghijklmn", "ZZ"},
	}
	var keys []string
	for n := range 71 {
		for _, c := range "axyzqkAXYZQK_%" {
			keys = append(keys, string(c)+strings.Repeat("x", max(n-1, 0))[:max(n-1, 0)], strings.Repeat(string(c), n))
		}
		keys = append(keys, "abcdefghijklmnopqrstuvwxyz"[:min(n, 26)], "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:min(n, 26)],
			strings.Repeat("y", n)+"z", "a"+strings.Repeat("Y", n)+"b", strings.Repeat("x", n)+"k")
	}
	for _, g := range groups {
		p := MustLookup("default").Profile()
		p.Name = "rows"
		p.Query.Remove = []ParamGroup{{Reason: "test", Patterns: g}}
		n, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := NewReference(p)
		for _, k := range keys {
			r, _ := n.removes(n.base, k)
			want, _ := ref.removes(ref.base, k)
			if r != want || want != "" && !n.mayRemove(k) {
				t.Errorf("%q: removes(%q) = %q, mayRemove %v; the reference removes %q", g, k, r, n.mayRemove(k), want)
			}
		}
	}
}

// TestContainsFoldOrHigh: the prefilter's search (8 bytes a step) says
// what the byte loops say, lit searched at every place of the lowercased
// name, or a byte that is not ASCII, for lits of letters, of other bytes
// and of one byte, in names of every length to 20 with lit (in both cases,
// and cut by the end) or a byte ≥ 0x80 at every place, and bytes 0x20
// away from lit's first.
func TestContainsFoldOrHigh(t *testing.T) {
	ref := func(s, lit string) bool { return strings.Contains(asciiLower(s), lit) || !isASCII(s) }
	for _, lit := range []string{"session", "s", "_g", "utm_", "k", "ab"} {
		var names []string
		for n := range 21 {
			base := strings.Repeat("x", n)
			names = append(names, base)
			for i := range n + 1 {
				for _, ins := range []string{lit, strings.ToUpper(lit), lit[:len(lit)-1], "\x80", "\xff", string(lit[0] ^ 0x20), string(lit[0] ^ 0x20 ^ 0x40)} {
					whole := base[:i] + ins + base[i:]
					names = append(names, whole[:min(n, len(whole))], whole) // cut to n bytes, and whole
				}
			}
		}
		for _, s := range names {
			if got, want := containsFoldOrHigh(s, lit), ref(s, lit); got != want {
				t.Errorf("containsFoldOrHigh(%q, %q) = %v, want %v", s, lit, got, want)
			}
		}
	}
}
