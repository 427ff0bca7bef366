package normalize_test

import (
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// benchCorpora returns the benchmark corpora: "web" (kasztp + userbait),
// "web_dirty" and "all" from $URLNORM_DATA (default ../../shared/data/urls,
// see its PROVENANCE.md) when present, and always "kasztp" (shipped).
func benchCorpora(b *testing.B) []struct {
	name string
	urls []string
} {
	dir := os.Getenv("URLNORM_DATA")
	if dir == "" {
		dir = "../../shared/data/urls"
	}
	load := func(files ...string) []string {
		var out []string
		for _, f := range files {
			p := filepath.Join(dir, f)
			if _, err := os.Stat(p); err != nil {
				return nil
			}
			out = append(out, readLines(b, p)...)
		}
		return out
	}
	type corpus = struct {
		name string
		urls []string
	}
	cs := []corpus{{"kasztp", readLines(b, "../testdata/urls/kasztp.txt")}}
	for _, c := range []corpus{
		{"web", load("kasztp.txt", "userbait.txt")},
		{"web_dirty", load("web_dirty.txt")},
		{"all", load("kasztp.txt", "userbait.txt", "node_files.txt", "isaacs_files.txt")},
	} {
		if c.urls != nil {
			cs = append(cs, c)
		}
	}
	return cs
}

var sink string

// BenchmarkNormalize/<profile>/<corpus>: one URL per op, cycling through
// the corpus, so ns/op is ns/URL and allocs/op is allocs/URL.
func BenchmarkNormalize(b *testing.B) {
	corpora := benchCorpora(b)
	for _, name := range normalize.Names() {
		n := normalize.MustLookup(name)
		for _, c := range corpora {
			b.Run(name+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				urls := c.urls
				for i := 0; b.Loop(); i++ {
					sink, _ = n.Normalize(urls[i%len(urls)])
				}
			})
		}
	}
}

// BenchmarkHash/<profile>/<corpus>: Normalize + the profile's hex digest.
func BenchmarkHash(b *testing.B) {
	corpora := benchCorpora(b)
	for _, name := range normalize.Names() {
		n := normalize.MustLookup(name)
		for _, c := range corpora {
			b.Run(name+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				urls := c.urls
				for i := 0; b.Loop(); i++ {
					sink, _ = n.Hash(urls[i%len(urls)])
				}
			})
		}
	}
}

// BenchmarkAppendNormalized/<profile>/<corpus>: the zero-allocation path
// the SQL adapters use. Next to BenchmarkNormalize of the same profile and
// corpus it shows what the returned string costs.
func BenchmarkAppendNormalized(b *testing.B) {
	corpora := benchCorpora(b)
	for _, name := range normalize.Names() {
		n := normalize.MustLookup(name)
		for _, c := range corpora {
			b.Run(name+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				var buf []byte
				urls := c.urls
				for i := 0; b.Loop(); i++ {
					buf, _ = n.AppendNormalized(buf[:0], urls[i%len(urls)])
				}
			})
		}
	}
}

// BenchmarkNetURL is the reference peer in the same run: net/url
// Parse+String (issue 2 target: default ≥ 1.7× faster).
func BenchmarkNetURL(b *testing.B) {
	for _, c := range benchCorpora(b) {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			urls := c.urls
			for i := 0; b.Loop(); i++ {
				if u, err := url.Parse(urls[i%len(urls)]); err == nil {
					sink = u.String()
				}
			}
		})
	}
}

// BenchmarkPathological: runs of the bytes that drive the parser's and the
// rules' loops (reliability.md §4, normalize-url's ReDoS). ns/op must grow
// linearly with n: compare n=1k with n=10k.
func BenchmarkPathological(b *testing.B) {
	n := normalize.MustLookup("default")
	for _, size := range []int{1000, 10000} {
		for _, p := range []struct{ name, prefix, unit string }{
			{"percent", "http://h/", "%"},
			{"amp", "http://h/?", "&"},
			{"pairs", "http://h/?", "a=1&"},
			{"dotseg", "http://h/", "/."},
			{"dotdot", "http://h/", "/.."},
			{"semicolon", "http://h/", ";"},
			{"hash", "http://h/", ",#"},
			{"slashes", "http://h", "/"},
			{"idn", "http://", "é"},
		} {
			in := p.prefix + strings.Repeat(p.unit, size/len(p.unit))
			b.Run(p.name+"/"+strconv.Itoa(size), func(b *testing.B) {
				for b.Loop() {
					sink, _ = n.Normalize(in)
				}
			})
		}
	}
}
