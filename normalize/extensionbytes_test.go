package normalize

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestExtensionMatchesBytes holds Extension (the SIMD build's one-load
// scan, extension, with AVX2) to extensionOf, the byte-by-byte
// reference, over paths made of '/', '.', ';', '%' and letters: every
// path of up to 6 of those bytes, then random paths of up to 80 bytes,
// behind hosts of 1 to 40 bytes (so that the URL's 32 bytes up to the
// path's end start before, at and after the path, and a short URL takes
// loadShort), as raw's bytes and as a copy (an uppercase host), and in a
// non-special URL (its path may have bytes the special ones escape).
func TestExtensionMatchesBytes(t *testing.T) {
	var p Parser
	check := func(raw string) {
		t.Helper()
		for _, parse := range []func(string) (*URL, error){p.Parse, p.ParseThroughPath} {
			u, err := parse(raw)
			if err != nil {
				t.Fatalf("%q: %v", raw, err)
			}
			if got, want := u.Extension(), extensionOf(u.Path(), u.plainPath); !u.opaque && got != want {
				t.Fatalf("%q: Extension() = %q, want %q (path %q, plain %v)", raw, got, want, u.Path(), u.plainPath)
			}
		}
	}
	const alphabet = "/.;%ab"
	var paths []string
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		paths = append(paths, prefix)
		if n == 0 {
			return
		}
		for i := range len(alphabet) {
			gen(prefix+alphabet[i:i+1], n-1)
		}
	}
	gen("/", 5)
	r := rand.New(rand.NewPCG(21, 18))
	for range 20000 {
		b := make([]byte, 1+r.IntN(80))
		b[0] = '/'
		for i := 1; i < len(b); i++ {
			b[i] = "/.;%abcd"[r.IntN(8)]
		}
		paths = append(paths, string(b))
	}
	for i, path := range paths {
		hostLen := 1 + i%40
		host := strings.Repeat("h", hostLen-1) + "a"
		check("https://" + host + path)
		check("https://" + strings.ToUpper(host) + path)
		if i%7 == 0 {
			check("foo://" + host + path)
			check("x:" + path)
		}
	}
}

// FuzzExtension holds Extension to extensionOf on whatever parses, with
// both parses that the SQL functions use (Parse, ParseThroughPath).
func FuzzExtension(f *testing.F) {
	for _, s := range []string{"https://example.com/a/b.tar.gz", "https://h/.htaccess", "https://h/a;b.c/d.e;f",
		"https://a-rather-long-host-name.example.com/" + strings.Repeat("x", 40) + ".pdf", "foo://h/a%2e.b", "x:/..x"} {
		f.Add(s)
	}
	var p Parser
	f.Fuzz(func(t *testing.T, s string) {
		for _, parse := range []func(string) (*URL, error){p.Parse, p.ParseThroughPath} {
			if u, err := parse(s); err == nil && !u.opaque {
				if got, want := u.Extension(), extensionOf(u.Path(), u.plainPath); got != want {
					t.Fatalf("%q: Extension() = %q, want %q", s, got, want)
				}
			}
		}
	})
}
