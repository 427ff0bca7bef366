// Command suffixgen writes normalize/suffix_table.go: the Public Suffix
// List of the golang.org/x/net version in go.mod, decoded from that
// package's data files (publicsuffix/data/text, nodes and children, whose
// layout its table.go describes) into one flat list of nodes that names
// each node's parent, for normalize's hash table (normalize/suffix.go).
//
//	go generate ./normalize   (runs: go run ../internal/suffixgen)
//
// A test regenerates the file and fails when the committed one differs, so
// that upgrading x/net without regenerating fails CI.
package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

func main() {
	out := "suffix_table.go" // go generate runs in normalize
	if len(os.Args) == 2 {
		out = os.Args[1]
	}
	dir, err := xnetDir()
	if err == nil {
		var src []byte
		if src, err = generate(dir); err == nil {
			err = os.WriteFile(out, src, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "suffixgen:", err)
		os.Exit(1)
	}
}

// xnetDir returns the directory of golang.org/x/net/publicsuffix at the
// version the main module requires.
func xnetDir() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/net").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m golang.org/x/net: %w", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "publicsuffix"), nil
}

// The layout of x/net's data that this decoder reads; table.go must
// declare the same constants (checkLayout), else its format changed and
// this decoder must follow it.
var layout = map[string]int{
	"nodesBits": 40, "nodesBitsChildren": 10, "nodesBitsICANN": 1, "nodesBitsTextOffset": 16, "nodesBitsTextLength": 6,
	"childrenBitsWildcard": 1, "childrenBitsNodeType": 2, "childrenBitsHi": 14, "childrenBitsLo": 14,
	"nodeTypeNormal": 0, "nodeTypeException": 1, "nodeTypeParentOnly": 2,
}

// A node of the list as normalize's table stores it (see the generated
// file's comment for the bits).
type node struct {
	parent             int // index in the list; -1 for a top-level label
	offset, length     int // the label: text[offset:offset+length]
	kind               int // nodeTypeNormal, nodeTypeException or nodeTypeParentOnly
	icann, wildcardKid bool
}

// generate returns the Go source of suffix_table.go for x/net's
// publicsuffix package in dir.
func generate(dir string) ([]byte, error) {
	table, err := os.ReadFile(filepath.Join(dir, "table.go"))
	if err != nil {
		return nil, err
	}
	consts, err := constants(table)
	if err != nil {
		return nil, err
	}
	var text, nodesData, childrenData []byte
	for _, f := range []struct {
		name string
		dst  *[]byte
	}{{"text", &text}, {"nodes", &nodesData}, {"children", &childrenData}} {
		if *f.dst, err = os.ReadFile(filepath.Join(dir, "data", f.name)); err != nil {
			return nil, err
		}
	}
	if len(nodesData)%5 != 0 || len(childrenData)%4 != 0 {
		return nil, fmt.Errorf("data/nodes (%d bytes) or data/children (%d bytes) is not whole records", len(nodesData), len(childrenData))
	}
	nodes, err := decode(text, nodesData, childrenData, consts["numTLD"])
	if err != nil {
		return nil, err
	}
	return render(version(table), text, nodes), nil
}

// constants returns table.go's integer constants, after checking that its
// layout is the one decode reads.
func constants(table []byte) (map[string]int, error) {
	consts := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^\s*(?:const\s+)?(\w+)\s*=\s*(\d+)\s*$`).FindAllSubmatch(table, -1) {
		consts[string(m[1])], _ = strconv.Atoi(string(m[2]))
	}
	for name, want := range layout {
		if got, ok := consts[name]; !ok || got != want {
			return nil, fmt.Errorf("x/net's table.go has %s = %d (present %v), this decoder reads %d: its data format changed", name, got, ok, want)
		}
	}
	if consts["numTLD"] == 0 {
		return nil, fmt.Errorf("x/net's table.go declares no numTLD")
	}
	return consts, nil
}

// version returns x/net's description of the list's revision.
func version(table []byte) string {
	if m := regexp.MustCompile(`const version = (".*")`).FindSubmatch(table); m != nil {
		if v, err := strconv.Unquote(string(m[1])); err == nil {
			return v
		}
	}
	return "unknown"
}

// decode walks x/net's tree from its top-level labels (nodes [0, numTLD))
// and returns its nodes in x/net's order, each with its parent; it fails
// unless every node but the top-level ones has exactly one parent that
// comes before it (normalize builds its table in one pass in this order).
func decode(text, nodesData, childrenData []byte, numTLD int) ([]node, error) {
	get40 := func(i int) uint64 {
		var b [8]byte
		copy(b[3:], nodesData[5*i:5*i+5])
		return binary.BigEndian.Uint64(b[:])
	}
	nodes := make([]node, len(nodesData)/5)
	seen := make([]bool, len(nodes))
	for i := range nodes {
		nodes[i].parent = -2 // unreached
	}
	for i := range numTLD {
		nodes[i].parent = -1
	}
	for i := range nodes {
		if nodes[i].parent == -2 {
			return nil, fmt.Errorf("node %d comes before its parent or has none", i)
		}
		x := get40(i)
		n := &nodes[i]
		n.length = int(x & (1<<6 - 1))
		n.offset = int(x >> 6 & (1<<16 - 1))
		n.icann = x>>22&1 == 1
		ci := int(x >> 23 & (1<<10 - 1))
		if 4*ci+4 > len(childrenData) || n.offset+n.length > len(text) {
			return nil, fmt.Errorf("node %d points past the data", i)
		}
		c := binary.BigEndian.Uint32(childrenData[4*ci:])
		lo, hi := int(c&(1<<14-1)), int(c>>14&(1<<14-1))
		n.kind = int(c >> 28 & 3)
		n.wildcardKid = c>>30&1 == 1
		if lo > hi || hi > len(nodes) {
			return nil, fmt.Errorf("node %d has children [%d, %d)", i, lo, hi)
		}
		for k := lo; k < hi; k++ {
			if k <= i || seen[k] {
				return nil, fmt.Errorf("node %d's child %d comes before it or has two parents", i, k)
			}
			seen[k] = true
			nodes[k].parent = i
		}
	}
	return nodes, nil
}

// render returns the generated file.
func render(version string, text []byte, nodes []node) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `// Code generated by go run ../internal/suffixgen; DO NOT EDIT.

package normalize

// suffixListVersion is the Public Suffix List's revision, as golang.org/x/net
// names it (the data's licence: THIRD_PARTY_NOTICES.md).
const suffixListVersion = %q

// suffixTLDs is how many nodes of suffixNodes are top-level labels (the
// first ones).
const suffixTLDs = %d

// suffixText holds the labels of suffixNodes, overlapping where one label
// is a substring of another (x/net's text).
const suffixText = "" +
`, version, countTLDs(nodes))
	for i := 0; i < len(text); i += 96 {
		fmt.Fprintf(&b, "\t%s", strconv.Quote(string(text[i:min(i+96, len(text))])))
		if i+96 < len(text) {
			b.WriteString(" +")
		}
		b.WriteString("\n")
	}
	b.WriteString(`
// suffixNodes is the list's tree, each node after its parent. A node, from
// the least significant bit:
//
//	[14 bits] its parent's index (0x3FFF: none, a top-level label)
//	[16 bits] its label's offset in suffixText
//	[ 6 bits] its label's length
//	[ 2 bits] its type: 0 a rule, 1 an exception rule ("!city.kawasaki.jp"), 2 not a rule (only a parent)
//	[ 1 bit ] in the list's ICANN section
//	[ 1 bit ] its children match the wildcard ("*.kawasaki.jp")
var suffixNodes = [...]uint64{
`)
	for i, n := range nodes {
		parent := uint64(0x3FFF)
		if n.parent >= 0 {
			parent = uint64(n.parent)
		}
		x := parent | uint64(n.offset)<<14 | uint64(n.length)<<30 | uint64(n.kind)<<36 | b2u(n.icann)<<38 | b2u(n.wildcardKid)<<39
		if i%8 == 0 {
			b.WriteString("\t")
		}
		fmt.Fprintf(&b, "%#010x,", x)
		if i%8 == 7 || i == len(nodes)-1 {
			b.WriteString("\n")
		} else {
			b.WriteString(" ")
		}
	}
	b.WriteString("}\n")
	return b.Bytes()
}

func countTLDs(nodes []node) int {
	n := 0
	for n < len(nodes) && nodes[n].parent == -1 {
		n++
	}
	return n
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
