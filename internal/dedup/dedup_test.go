package dedup

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

func TestTableAdd(t *testing.T) {
	tab := Table{}
	for _, in := range []string{"a", "A", "a", "b", "c"} {
		tab.Add([]byte("u"), []byte(in), 2)
	}
	g := tab["u"]
	// count every input; examples: the first 2 distinct spellings, a repeat
	// of a kept one does not take a place.
	if g.Count != 5 || !slices.Equal(g.Examples, []string{"a", "A"}) {
		t.Errorf("got %+v", *g)
	}
}

func TestSort(t *testing.T) {
	groups := map[string]*Group{
		"https://b": {URL: "https://b", Count: 2},
		"https://a": {URL: "https://a", Count: 2},
		"https://c": {URL: "https://c", Count: 5},
		"https://d": {URL: "https://d", Count: 1},
	}
	var got []string
	for _, g := range Sort(groups, 2, 0) {
		got = append(got, g.URL)
	}
	// largest first; ties by URL; --min-count 2 drops d
	if want := []string{"https://c", "https://a", "https://b"}; !slices.Equal(got, want) {
		t.Errorf("Sort = %v, want %v", got, want)
	}
	// --top 1
	if l := Sort(groups, 1, 1); len(l) != 1 || l[0].URL != "https://c" {
		t.Errorf("top 1 = %v", l)
	}
}

// TestPartialMatchesTable: the inputs split into parts in any way, each
// part added in any order and the parts merged in any order, give the
// groups of Table reading them in input order.
func TestPartialMatchesTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 2000 {
		max := rng.IntN(4)
		var ins []Spelling
		for f := range int32(1 + rng.IntN(3)) {
			for s := range int64(rng.IntN(12)) {
				ins = append(ins, Spelling{File: f, Seq: s, Text: string(rune('a' + rng.IntN(6)))})
			}
		}
		tab := Table{}
		for _, s := range ins {
			tab.Add([]byte("u"), []byte(s.Text), max)
		}
		shuffled := slices.Clone(ins)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		parts := make([]Partial, 1+rng.IntN(4))
		for _, s := range shuffled {
			parts[rng.IntN(len(parts))].Add(s, max)
		}
		var all Partial
		for _, i := range rng.Perm(len(parts)) {
			all.Merge(parts[i], max)
		}
		want := tab["u"]
		if want == nil {
			want = &Group{URL: "u"}
		}
		got := all.Group("u")
		if got.Count != want.Count || !slices.Equal(got.Examples, want.Examples) {
			t.Fatalf("round %d (max %d, inputs %v): merged %+v, in order %+v", round, max, ins, *got, *want)
		}
	}
}

func TestWriteCSV(t *testing.T) {
	n := normalize.MustLookup("default")
	list := []*Group{
		{URL: "https://example.com/a,b", Count: 2, Examples: []string{`HTTPS://example.com/a,b`, `https://example.com/a,b/"`}},
		{URL: "https://example.com", Count: 1, Examples: []string{"example.com"}},
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, list, n, 3); err != nil {
		t.Fatal(err)
	}
	// RFC 4180 quoting of URLs and examples, empty cells for the missing
	// examples, the profile's hash of the canonical URL.
	want := fmt.Sprintf("count,url,hash,example_1,example_2,example_3\n"+
		"2,\"https://example.com/a,b\",%s,\"HTTPS://example.com/a,b\",\"https://example.com/a,b/\"\"\",\n"+
		"1,https://example.com,%s,example.com,,\n",
		n.HashCanonical("https://example.com/a,b"), n.HashCanonical("https://example.com"))
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}
