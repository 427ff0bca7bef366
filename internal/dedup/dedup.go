// Package dedup groups inputs by canonical URL the way `urlnorm dedup`
// reports them: each group's size and its first distinct spellings,
// largest group first, then by URL. The CLI adds inputs one by one in
// input order (Table); a distributed run (Beam) adds them in any order
// with their positions and merges partial groups (Partial): both give the
// same groups, and the same writers print them.
package dedup

import (
	"bufio"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/urlnorm/urlnorm/internal/cliio"
	"github.com/urlnorm/urlnorm/normalize"
)

// Group is the inputs with one canonical URL.
type Group struct {
	URL      string
	Count    int64
	Examples []string // the first distinct spellings, in input order
}

// Table holds the groups of a stream read in input order, by URL.
type Table map[string]*Group

// Add counts one input spelled in whose canonical URL is url; in becomes
// an example if fewer than max distinct spellings are kept so far.
func (t Table) Add(url, in []byte, max int) {
	g := t[string(url)] // no allocation for the lookup
	if g == nil {
		g = &Group{URL: string(url)}
		t[g.URL] = g
	}
	g.Count++
	if len(g.Examples) >= max {
		return
	}
	for _, ex := range g.Examples {
		if ex == string(in) {
			return
		}
	}
	g.Examples = append(g.Examples, string(in))
}

// Compare orders groups as the report lists them: larger count first,
// then by URL (bytewise), so two runs print the same thing.
func Compare(a, b *Group) int {
	if a.Count != b.Count {
		if a.Count > b.Count {
			return -1
		}
		return 1
	}
	return strings.Compare(a.URL, b.URL)
}

// Sort lists the groups with at least minCount inputs in report order,
// the first top of them (all when top is 0).
func Sort(groups map[string]*Group, minCount int64, top int) []*Group {
	list := make([]*Group, 0, len(groups))
	for _, g := range groups {
		list = append(list, g)
	}
	return Pick(list, minCount, top)
}

// Pick is Sort for a list of groups (reordered and filtered in place).
func Pick(list []*Group, minCount int64, top int) []*Group {
	list = slices.DeleteFunc(list, func(g *Group) bool { return g.Count < minCount })
	slices.SortFunc(list, Compare)
	if top > 0 && len(list) > top {
		list = list[:top]
	}
	return list
}

// Report is the summary of a run and, in JSON, its groups.
type Report struct {
	Profile    string      `json:"profile"` // name@version
	Inputs     int64       `json:"inputs"`
	Invalid    int64       `json:"invalid"`
	Distinct   int64       `json:"distinct"`
	Duplicates int64       `json:"duplicates"`
	Groups     []JSONGroup `json:"groups"`
}

// JSONGroup is a group in the JSON report.
type JSONGroup struct {
	Count    int64    `json:"count"`
	URL      string   `json:"url"`
	Hash     string   `json:"hash"`
	Examples []string `json:"examples"`
}

// WriteJSON writes r with the groups of list (hashed with n).
func WriteJSON(w io.Writer, r Report, list []*Group, n *normalize.Normalizer) error {
	r.Groups = make([]JSONGroup, len(list))
	for i, g := range list {
		r.Groups[i] = JSONGroup{g.Count, g.URL, n.HashCanonical(g.URL), append([]string{}, g.Examples...)}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteCSV writes the header count,url,hash,example_1…example_N and one
// row per group (hashed with n), empty cells for missing examples.
func WriteCSV(w io.Writer, list []*Group, n *normalize.Normalizer, examples int) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	buf := []byte("count,url,hash")
	for i := 1; i <= examples; i++ {
		buf = append(buf, ",example_"...)
		buf = strconv.AppendInt(buf, int64(i), 10)
	}
	buf = append(buf, '\n')
	for _, g := range list {
		buf = strconv.AppendInt(buf, g.Count, 10)
		buf = append(buf, ',')
		buf = cliio.AppendCSV(buf, g.URL)
		buf = append(buf, ',')
		buf = append(buf, n.HashCanonical(g.URL)...)
		for i := range examples {
			buf = append(buf, ',')
			if i < len(g.Examples) {
				buf = cliio.AppendCSV(buf, g.Examples[i])
			}
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
		buf = buf[:0]
	}
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	return bw.Flush()
}
