package normalize_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

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

// TestHashWith: canonical_hash(url, profile, algorithm) picks the digest,
// whatever the profile's own hash; the profile still picks the canonical
// URL.
func TestHashWith(t *testing.T) {
	def, eg := normalize.MustLookup("default"), normalize.MustLookup("edge-gateway")
	// canonical: http://example.com/Path?a=2&z=1 (default)
	const in = "HTTP://Example.COM:80/Path?z=1&a=2#frag"
	// canonical: https://example.com/path/page?a=2&z=1 (edge-gateway)
	const egIn = "HTTPS://Example.Com:443/path//to/../page?z=1&a=2&utm_source=google#section"
	for _, c := range []struct {
		n              *normalize.Normalizer
		in, algo, want string
	}{
		// sha256sum of the canonical URL: sql/canonical_hash.test's first row
		{def, in, "sha256", "ba7635008b71b9cdf073bf395409863737487cf7ab64e6944afcc8215fa287cd"},
		// xxhsum -H64 (Debian's xxhash package) of the same bytes
		{def, in, "xxhash64", "f6299ce9b0ffd128"},
		// edge-gateway's own hash is xxhash64 (TestEdgeGatewayHash); sha256
		// replaces it, of the same canonical URL (sha256sum)
		{eg, egIn, "xxhash64", "96ba2d5b7d32d005"},
		{eg, egIn, "sha256", "2fbdc563cbe9827d3c82571e2922df2915fb4785f5075b8df586c210b2fcf781"},
	} {
		got, err := c.n.HashWith(c.in, c.algo)
		if err != nil || got != c.want {
			t.Errorf("%s HashWith(%q, %s) = %q, %v; want %s", c.n.Name(), c.in, c.algo, got, err, c.want)
		}
	}
}

// An unknown algorithm is a configuration error (try_ raises too) that
// names the algorithms there are; a bad URL is the profile's error.
func TestHashWithErrors(t *testing.T) {
	n := normalize.MustLookup("default")
	for _, algo := range []string{"xxh3", "SHA256", "", "md5"} {
		_, err := n.HashWith("https://example.com/", algo)
		if !errors.Is(err, normalize.ErrConfig) || !errors.Is(err, normalize.KindUnknownHash) ||
			!strings.Contains(err.Error(), "known algorithms: sha256, xxhash64") {
			t.Errorf("HashWith(%q) error %v; want unknown_hash (ErrConfig) listing sha256, xxhash64", algo, err)
		}
		if out, err := n.AppendHashWith([]byte("kept"), "https://example.com/", algo); err == nil || string(out) != "kept" {
			t.Errorf("AppendHashWith(%q) = %q, %v; want dst unchanged and an error", algo, out, err)
		}
	}
	_, err := n.HashWith("no scheme", "xxhash64")
	if normalize.KindOf(err) != "missing_scheme" || !errors.Is(err, normalize.ErrInvalid) {
		t.Errorf("HashWith(bad URL) error %v; want missing_scheme (ErrInvalid)", err)
	}
}

// TestKey: the join key is the XXH64 (seed 0) of the canonical URL's
// bytes as a two's-complement int64, the hex of HashWith(xxhash64) read
// as a signed number; both signs occur.
func TestKey(t *testing.T) {
	def := normalize.MustLookup("default")
	for _, c := range []struct {
		n    *normalize.Normalizer
		in   string
		want int64
	}{
		// 0x120b1e324a16e317: below 2⁶³, positive
		{def, "https://example.com/a?b=1", 1300166118766732055},
		// 0xa2c6e14dadc95727 (xxhsum -H64 of https://example.com/page) − 2⁶⁴
		{def, "HTTPS://example.com:443/page#top", -6717434070432131289},
		// edge-gateway assumes https: the same canonical URL, the same key
		{normalize.MustLookup("edge-gateway"), "example.com/page", -6717434070432131289},
	} {
		got, err := c.n.Key(c.in)
		if err != nil || got != c.want {
			t.Errorf("%s Key(%q) = %d, %v; want %d", c.n.Name(), c.in, got, err, c.want)
		}
		h, _ := c.n.HashWith(c.in, normalize.HashXXHash64)
		u, _ := strconv.ParseUint(h, 16, 64)
		canon, _ := c.n.Normalize(c.in)
		if int64(u) != got || int64(xxhash.Sum64String(canon)) != got {
			t.Errorf("%s Key(%q) = %d; its xxhash64 hex %s reads %d, xxhash of %q %d", c.n.Name(), c.in, got, h, int64(u), canon, int64(xxhash.Sum64String(canon)))
		}
	}
	k, err := def.Key("no scheme")
	if k != 0 || normalize.KindOf(err) != "missing_scheme" || !strings.HasPrefix(err.Error(), `urlnorm: key "no scheme"`) {
		t.Errorf("Key(bad URL) = %d, %v; want 0 and missing_scheme", k, err)
	}
}

// Spellings of one URL share one key; the key and the hex digest agree on
// every URL of the shipped corpus.
func TestKeyAgreesWithHash(t *testing.T) {
	n := normalize.MustLookup("default")
	seen := 0
	for _, u := range readLines(t, "../testdata/urls/kasztp.txt") {
		k, err := n.Key(u)
		h, herr := n.HashWith(u, normalize.HashXXHash64)
		if (err == nil) != (herr == nil) {
			t.Fatalf("%q: Key error %v, HashWith error %v", u, err, herr)
		}
		if err != nil {
			continue
		}
		if got := strconv.FormatUint(uint64(k), 16); strings.Repeat("0", 16-len(got))+got != h {
			t.Fatalf("%q: Key %d = %s, HashWith %s", u, k, got, h)
		}
		seen++
	}
	if seen < 1000 {
		t.Errorf("only %d URLs accepted", seen)
	}
}

func ExampleNormalizer_HashWith() {
	n := normalize.MustLookup("default") // its own hash is sha256
	h, _ := n.HashWith("HTTP://Example.COM:80/Path?z=1&a=2#frag", normalize.HashXXHash64)
	fmt.Println(h)
	_, err := n.HashWith("https://example.com/", "xxh3")
	fmt.Println(err)
	// Output:
	// f6299ce9b0ffd128
	// urlnorm: hash "xxh3": unknown_hash (known algorithms: sha256, xxhash64)
}

func ExampleNormalizer_Key() {
	n := normalize.MustLookup("default")
	a, _ := n.Key("HTTPS://example.com:443/page#top")
	b, _ := n.Key("https://example.com/page")
	fmt.Println(a, a == b)
	// the same 64 bits as the xxhash64 hex digest
	h, _ := n.HashWith("https://example.com/page", normalize.HashXXHash64)
	fmt.Printf("%016x %s\n", uint64(a), h)
	// Output:
	// -6717434070432131289 true
	// a2c6e14dadc95727 a2c6e14dadc95727
}
