package ops

import (
	"encoding/binary"
	"strconv"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
	"github.com/urlnorm/urlnorm/normalize"
)

// Hash for edge-gateway prints the xxHash64 of the canonical URL as 16
// lowercase hex digits (edge-gateway.md); check it end to end against
// cespare.
func TestEdgeGatewayHashIsXXHash64(t *testing.T) {
	n := normalize.MustLookup("edge-gateway")
	for _, u := range []string{"https://example.com/a?b=1&a=2", "HTTPS://Example.COM:443/x/../y/?utm_source=z"} {
		c, err := n.Normalize(u)
		if err != nil {
			t.Fatal(err)
		}
		h, err := n.Hash(u)
		if err != nil {
			t.Fatal(err)
		}
		var d [8]byte
		binary.BigEndian.PutUint64(d[:], xxhash.Sum64String(c))
		if want := hexOf(d[:]); h != want {
			t.Errorf("Hash(%q) = %s, want xxhash64(%q) = %s", u, h, c, want)
		}
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	var s strings.Builder
	for _, c := range b {
		s.WriteByte(digits[c>>4])
		s.WriteByte(digits[c&15])
	}
	return s.String()
}

// Every op accepts a plain URL; the URL libraries reject the CSV residue
// that makes up most of the corpus errors (a line starting with a quote).
func TestOpsAcceptAndReject(t *testing.T) {
	names := map[string]bool{}
	for _, op := range All() {
		if names[op.Name] {
			t.Errorf("duplicate op name %q", op.Name)
		}
		names[op.Name] = true
		f := op.New()
		if !f("https://example.com/a/b?c=d") {
			t.Errorf("%s rejects a plain URL", op.Name)
		}
		if op.Group != GroupFloor && f(`"http://vim.wikia.com/wiki/x`) {
			t.Errorf("%s accepts a URL starting with a quote", op.Name)
		}
	}
	if !names[Default] {
		t.Fatalf("no %s op", Default)
	}
	for _, p := range normalize.Names() {
		if !names["Normalize/"+p] || !names["Hash/"+p] {
			t.Errorf("profile %s lacks Normalize or Hash", p)
		}
	}
}

func TestCanonicalInputIsCanonical(t *testing.T) {
	op := canonicalInputOp("default")
	in := op.Input([]string{"HTTP://A.example:80/x/./y/", "not a url", "https://b.example/"})
	if len(in) != 2 {
		t.Fatalf("Input = %q, want the two accepted URLs in canonical form", in)
	}
	n := normalize.MustLookup("default")
	for _, u := range in {
		if c, _ := n.Normalize(u); c != u {
			t.Errorf("%q is not canonical (→ %q)", u, c)
		}
	}
}

// The issue 18 ops compute what their SQL functions return: the xxhash64
// digest and the key of default's canonical URL, the same 64 bits.
func TestHashOps(t *testing.T) {
	const in = "HTTP://Example.COM:80/Path?z=1&a=2#frag" // xxhsum -H64 of its canonical URL: f6299ce9b0ffd128
	got := map[string]string{}
	for _, op := range HashOps() {
		if !op.New()(in) {
			t.Fatalf("%s rejects %q", op.Name, in)
		}
		switch op.Name {
		case "Hash/default xxhash64":
			got[op.Name] = SinkString
		case "Key/default":
			got[op.Name] = strconv.FormatUint(SinkU64, 16)
		case "AppendHash/default":
			got[op.Name] = string(SinkBytes)
		}
	}
	want := map[string]string{"Hash/default xxhash64": "f6299ce9b0ffd128", "Key/default": "f6299ce9b0ffd128",
		"AppendHash/default": "ba7635008b71b9cdf073bf395409863737487cf7ab64e6944afcc8215fa287cd"}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %q; want %s", k, got[k], w)
		}
	}
}
