package normalize_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestXXHash64 checks the xxhash64 digest (cespare/xxhash, seed 0) against
// vectors computed with an independent implementation (the XXH64
// specification, written out, which the package used before): empty
// input, the < 32-byte tail paths, the 32-byte stripe loop.
func TestXXHash64(t *testing.T) {
	p := normalize.MustLookup("edge-gateway").Profile()
	p.Name = "xxhash-vectors"
	n, err := normalize.New(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{"", "ef46db3751d8e999"},
		{"abc", "44bc2cf5ad770999"},
		{"https://example.com/", "a40dbfe31cfba1cf"},                  // 20 bytes: 8-, 4- and 1-byte tails
		{"https://example.com/path/page?a=2&z=1", "96ba2d5b7d32d005"}, // 38 bytes: one stripe
		{strings.Repeat("0123456789", 10) + "abc", "4724a2cb8c422dad"},
	} {
		if got := n.HashCanonical(c.in); got != c.want {
			t.Errorf("xxhash64(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestEdgeGatewayHash: edge-gateway.md "Cache key generation": XXHash64 of
// the normalized URL as 16 lowercase hex digits (the document's
// a1b2c3d4e5f67890 is a placeholder).
func TestEdgeGatewayHash(t *testing.T) {
	n := normalize.MustLookup("edge-gateway")
	const in = "HTTPS://Example.Com:443/path//to/../page?z=1&a=2&utm_source=google#section"
	got, err := n.Hash(in)
	if err != nil || got != "96ba2d5b7d32d005" {
		t.Errorf("Hash(%q) = %q, %v; want 96ba2d5b7d32d005", in, got, err)
	}
	for _, name := range []string{"curiousnow-v0", "clara"} {
		h, err := normalize.MustLookup(name).Hash(in)
		if err != nil || len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" {
			t.Errorf("%s Hash(%q) = %q, %v; want 64 lowercase hex digits (sha256)", name, in, h, err)
		}
	}
}

func ExampleNormalizer_Hash() {
	n := normalize.MustLookup("edge-gateway")
	u, _ := n.Normalize("HTTPS://Example.Com:443/path//to/../page?z=1&a=2&utm_source=google#section")
	h, _ := n.Hash(u)
	fmt.Println(u)
	fmt.Println(h)
	// Output:
	// https://example.com/path/page?a=2&z=1
	// 96ba2d5b7d32d005
}
