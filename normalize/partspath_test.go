package normalize

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/urllist"
)

// partsLists returns the URLs of testdata/urls and of the shared lists
// ($URLNORM_DATA, or ../../shared/data/urls from the main checkout, or
// ../../../shared/data/urls from a worktree, when present).
func partsLists(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("../testdata/urls/*.txt")
	dir := os.Getenv("URLNORM_DATA")
	var more []string
	for _, d := range []string{dir, "../../shared/data/urls", "../../../shared/data/urls"} {
		if more, _ = filepath.Glob(filepath.Join(d, "*.txt")); d != "" && len(more) > 0 {
			break
		}
	}
	var urls []string
	for _, f := range append(files, more...) {
		lines, err := urllist.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		urls = append(urls, lines...)
	}
	return urls
}

// partsPathHand are paths that partsPath must refuse or mark as not plain:
// dot segments (also escaped), '\', bytes to percent-encode, non-ASCII,
// tab and newline (which the parser strips), "//", '%' and ';', a '?' or
// '#' right after the '/', and each of them near the 32-byte steps.
var partsPathHand = []string{
	"/", "/a", "/.", "/..", "/./", "/../", "/a/.", "/a/..", "/a/./b", "/a/../b", "/.a", "/..a", "/a.b/", "/a/.b",
	"/%2e", "/%2E", "/%2e%2e", "/.%2e/", "/%2e./x", "/%2", "/%", "/a%20b", "/a;b", "/a;b/c", "//", "/a//b", "/a/",
	"/a\\b", "/\\", "/a b", "/a\tb", "/a\nb", "/a\rb", "/é", "/a\x80", "/a\x7f", "/a\"b", "/a<b", "/a>b", "/a`b",
	"/a{b", "/a}b", "/a^b", "/a|b", "/?", "/#", "/a?b", "/a#b", "/a?b/../c", "/a#/./", "/a?%", "/a/.?x", "/a/..#x",
	"/\x00", "/a\x1fb", "/a~b!$&'()*+,=:@",
}

// TestPartsPathMatchesVerbatimPath holds partsPath (the SIMD build's
// one-load path check of ParseThroughPath) to verbatimPath, the check that
// default's scan and the parser take: the same answer, path end and
// plainness, over every URL of the lists, the hand paths behind hosts that
// put them before, across and after each 32-byte step and the URL's last
// 32 bytes (and in URLs shorter than 32 bytes), and random paths of the
// bytes that matter.
func TestPartsPathMatchesVerbatimPath(t *testing.T) {
	n := 0
	check := func(s string) {
		t.Helper()
		if checkPartsPath(t, s) {
			n++
		}
	}
	for _, s := range partsLists(t) {
		check(s)
	}
	tails := []string{"", "?q=1", "#f", "?" + strings.Repeat("q", 40), "#" + strings.Repeat("%", 40)}
	for _, p := range partsPathHand {
		for pad := range 70 {
			for _, host := range []string{"h.io", strings.Repeat("h", 30) + ".io"} {
				for _, tail := range tails {
					check("https://" + host + "/" + strings.Repeat("x", pad) + p + tail)
					check("https://" + host + strings.Repeat("/x", pad/2) + p + tail)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(22, 22))
	const alpha = "/.%;a2eE?#\\ \t\xc3"
	for range 200_000 {
		b := make([]byte, 1+rng.IntN(90))
		b[0] = '/'
		for k := 1; k < len(b); k++ {
			b[k] = alpha[rng.IntN(len(alpha))]
			if rng.IntN(3) == 0 {
				b[k] = 'a'
			}
		}
		check("http://" + strings.Repeat("h", 1+rng.IntN(40)) + string(b))
	}
	if n < 100_000 {
		t.Fatalf("only %d URLs with a verbatim authority and a path", n)
	}
}

// FuzzPartsPath holds partsPath to verbatimPath for any path behind hosts
// of any length.
func FuzzPartsPath(f *testing.F) {
	for _, p := range partsPathHand {
		f.Add(uint8(3), p)
	}
	f.Fuzz(func(t *testing.T, host uint8, path string) {
		s := "https://" + strings.Repeat("h", 1+int(host%64)) + "/" + path
		checkPartsPath(t, s)
	})
}

// checkPartsPath fails t when partsPath and verbatimPath disagree on s
// (their answer, the path's end, whether it is plain), for a URL whose
// authority scanAuthority reads and a path follows; it reports whether s
// is such a URL.
func checkPartsPath(t *testing.T, s string) bool {
	t.Helper()
	var v, w verbatimURL
	i := scanAuthority(s, &v)
	if i < 0 || i >= len(s) || s[i] != '/' {
		return false
	}
	w = v
	got, want := partsPath(s, i, &v), verbatimPath(s, i, &w)
	if got != want || got >= 0 && (v.pathEnd != w.pathEnd || v.plainPath != w.plainPath) {
		t.Fatalf("%q: partsPath %d (end %d, plain %v), verbatimPath %d (end %d, plain %v)",
			s, got, v.pathEnd, v.plainPath, want, w.pathEnd, w.plainPath)
	}
	return true
}
