//go:build goexperiment.simd && amd64

package normalize

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"github.com/urlnorm/urlnorm/internal/urllist"
)

// scansAgree reports, for every place of s where a scan may start, the
// first difference between the SIMD scans and the SWAR scans they stand in
// for (issue 18: the two builds give identical answers), or "".
func scansAgree(s string) string {
	for k := 0; k <= len(s); k++ {
		if d := scansAgreeAt(s, k); d != "" {
			return d
		}
	}
	return ""
}

// scansAgreeAt is scansAgree for the scans that start at s[k].
func scansAgreeAt(s string, k int) string {
	t := s[k:]
	if n, up := hostSpan(s, k); true {
		if wn, wup := hostSpanSWAR(t); n != k+wn || up != wup {
			return diff("hostSpan", s, n, up, k+wn, wup) + fmt.Sprintf(" from %d", k)
		}
	}
	for _, tab := range []*[256]uint8{&vQuery, &vFragment} {
		if n, wn := spanOK(t, tab), spanOKSWAR(t, tab); n != wn {
			return diff("spanOK", t, n, tab == &vQuery, wn, tab == &vQuery)
		}
		if n, wn := spanOKAt(s, k, tab), k+spanOKSWAR(t, tab); n != wn {
			return diff("spanOKAt", s, n, tab == &vQuery, wn, tab == &vQuery) + fmt.Sprintf(" from %d", k)
		}
	}
	for _, ts := range profileTabs() {
		if n, wn := spanSet(t, ts.tab, ts.set), spanOKSWAR(t, ts.tab); n != wn {
			return diff("spanSet "+ts.name, t, n, false, wn, false)
		}
	}
	if k < len(s) && s[k] == '/' {
		var v, w verbatimURL
		if n, wn := verbatimPath(s, k, &v), verbatimPathSWAR(s, k, &w); n != wn || v != w {
			return diff("verbatimPath", s, n, v.plainPath, wn, w.plainPath) + fmt.Sprintf(" from %d", k)
		}
	}
	return ""
}

// profileTabs returns the built-in profiles' query tables that have a
// nibbleSet (queryTab and directTab: spanSet), one of each content.
var profileTabs = sync.OnceValue(func() []profileTab {
	var out []profileTab
	seen := map[[256]uint8]bool{}
	for _, name := range Names() {
		n := MustLookup(name)
		for _, ts := range []profileTab{{name + " queryTab", &n.queryTab, n.querySet}, {name + " directTab", &n.directTab, n.directSet}} {
			if ts.set != nil && !seen[*ts.tab] {
				seen[*ts.tab] = true
				out = append(out, ts)
			}
		}
	}
	return out
})

type profileTab struct {
	name string
	tab  *[256]uint8
	set  *nibbleSet
}

// TestProfileSets: the query tables of edge-gateway and w3lib (form
// encoding) have a nibbleSet, so that the scans above compare spanSet's
// SIMD path with the SWAR scan on them.
func TestProfileSets(t *testing.T) {
	for _, name := range []string{"edge-gateway", "w3lib"} {
		if n := MustLookup(name); n.querySet == nil || n.directSet == nil {
			t.Errorf("%s: no nibbleSet of its query tables", name)
		}
	}
	t.Logf("%d tables", len(profileTabs()))
}

// hostSpanAtSWAR is hostSpan's SWAR scan with hostSpan's arguments.
func hostSpanAtSWAR(s string, i int) (int, bool) {
	n, up := hostSpanSWAR(s[i:])
	return i + n, up
}

func diff(name, s string, n int, b bool, wn int, wb bool) string {
	return fmt.Sprintf("%s(%q) = %d, %v; SWAR: %d, %v", name, s, n, b, wn, wb)
}

func needSIMD(t testing.TB) {
	if !simdScans {
		t.Skip("the CPU has no AVX2: the SIMD scans are the SWAR ones")
	}
}

// TestScansMatchSWAR: the SIMD scans give the SWAR scans' answers on every
// URL of the corpus ($URLNORM_DATA's lists when set, testdata's otherwise),
// from every offset.
func TestScansMatchSWAR(t *testing.T) {
	needSIMD(t)
	if querySet == nil || fragmentSet == nil || !hostSIMD || !pathSetsOK {
		t.Fatal("a scan's set has a byte of 0x80 or more: that scan is not made with SIMD")
	}
	files, _ := filepath.Glob("../testdata/urls/*.txt")
	if dir := os.Getenv("URLNORM_DATA"); dir != "" {
		files, _ = filepath.Glob(filepath.Join(dir, "*.txt"))
	}
	if len(files) == 0 {
		t.Fatal("no URL lists")
	}
	n := 0
	for _, f := range files {
		urls, err := urllist.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range urls {
			if d := scansAgree(u); d != "" {
				t.Fatal(d)
			}
		}
		n += len(urls)
	}
	t.Logf("%d URLs of %d lists", n, len(files))
}

// TestScansMatchSWAREdges: every byte value at every position of strings
// of 0 to 80 bytes that each scan takes whole (so that the byte meets
// every lane of a 32-byte step, the last lane, the overlapping last step
// and the SWAR tail), after a '/' too (a pair across two steps), and after
// authorities of every length (the path's first step starts anywhere);
// then random strings of the bytes the scans look at.
func TestScansMatchSWAREdges(t *testing.T) {
	needSIMD(t)
	check := func(s string) {
		t.Helper()
		if d := scansAgreeAt(s, 0); d != "" {
			t.Fatal(d)
		}
		if d := scansAgreeAt("/"+s, 0); d != "" { // a path
			t.Fatal(d)
		}
	}
	fillers := []string{"a", "Z", "9", "-", "=", "/"}
	for size := range 81 {
		for _, f := range fillers {
			base := strings.Repeat(f, size)
			for at := range size {
				for c := range 256 {
					b := []byte(base)
					b[at] = byte(c)
					check(string(b))
					if at > 0 {
						b[at-1] = '/'
						check(string(b))
					}
				}
			}
		}
	}
	checkPath := func(s string, k int) {
		t.Helper()
		if d := scansAgreeAt(s, k); d != "" {
			t.Fatal(d)
		}
	}
	// Paths after authorities of 8 to 40 bytes, with '.', '%', '/', '?',
	// '#' and a byte to encode at every place.
	for host := range 33 {
		prefix := "http://" + strings.Repeat("h", host+1)
		for size := range 70 {
			base := []byte(prefix + "/" + strings.Repeat("p", size))
			for at := len(prefix) + 1; at < len(base); at++ {
				for _, c := range []byte("./%?#;\x00 \\\x80a") {
					b := append([]byte(nil), base...)
					b[at] = c
					checkPath(string(b), len(prefix))
					b[at-1] = '/'
					checkPath(string(b), len(prefix))
					if at+1 < len(b) {
						b[at+1] = '.'
						checkPath(string(b), len(prefix))
					}
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(18, 32))
	for range 50000 {
		s := randomScanInput(rng, 100, 6, "abcxyzABCXYZ0189-._/", "abzAZ09-._/:?#%;=&+@[]`{\\ \t\x00\x7f\x80\xff")
		if d := scansAgree(s); d != "" {
			t.Fatal(d)
		}
	}
}

// TestScansPageEnd: a string that ends where a readable page ends, the
// next page unmapped: a scan that loads a byte past the string's end
// faults (and the test binary dies).
func TestScansPageEnd(t *testing.T) {
	needSIMD(t)
	page := os.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	url := "https://www.Example.com/a/b/.well-known/c%20d;e/f?q=1&r=%32#frag/x"
	for size := range 81 {
		s := mem[page-size : page]
		for i := range s {
			s[i] = url[i%len(url)]
		}
		if d := scansAgree(string(s)); d != "" { // a copy: the scans below read mem itself
			t.Fatal(d)
		}
		str := unsafe.String(unsafe.SliceData(s), len(s)) // mem's bytes, up to the page end
		for k := 0; k <= len(str); k++ {
			hostSpan(str, k)
			spanOK(str[k:], &vQuery)
			spanOK(str[k:], &vFragment)
			if k < len(str) && str[k] == '/' {
				var v verbatimURL
				verbatimPath(str, k, &v)
			}
		}
		var v verbatimURL
		scanVerbatim(str, &v)
	}
}

// FuzzScansMatchSWAR: the SIMD scans and the SWAR scans agree on any
// string, from any offset.
func FuzzScansMatchSWAR(f *testing.F) {
	f.Add("https://example.com/a/b?q=1#f")
	f.Add("http://EXAMPLE.com/.well-known/%2e/x?" + strings.Repeat("q", 40))
	f.Add(strings.Repeat("/a.", 20) + "\x80")
	f.Fuzz(func(t *testing.T, s string) {
		if d := scansAgree(s); d != "" {
			t.Fatal(d)
		}
	})
}

// BenchmarkScans times each scan of scanVerbatim on the URLs of web
// ($URLNORM_DATA's kasztp and userbait; testdata's kasztp otherwise), the
// SIMD scan next to the SWAR scan in one binary: the host after the
// scheme, the path from its '/', the query after its '?'.
func BenchmarkScans(b *testing.B) {
	files := []string{"../testdata/urls/kasztp.txt"}
	if dir := os.Getenv("URLNORM_DATA"); dir != "" {
		files = []string{filepath.Join(dir, "kasztp.txt"), filepath.Join(dir, "userbait.txt")}
	}
	type scan struct {
		s                 string
		host, path, query int // offsets in s; query -1 when none
	}
	var scans []scan
	for _, f := range files {
		urls, err := urllist.Read(f)
		if err != nil {
			b.Fatal(err)
		}
		for _, u := range urls {
			var v verbatimURL
			if i := scanAuthority(u, &v); i >= 0 && i < len(u) && u[i] == '/' {
				q := strings.IndexByte(u, '?')
				if q >= 0 {
					q++
				}
				scans = append(scans, scan{u, v.hostStart, i, q})
			}
		}
	}
	var sink int
	for _, impl := range []struct {
		name  string
		host  func(string, int) (int, bool)
		path  func(string, int, *verbatimURL) int
		query func(string, *[256]uint8) int
	}{{"simd", hostSpan, verbatimPath, spanOK}, {"swar", hostSpanAtSWAR, verbatimPathSWAR, spanOKSWAR}} {
		b.Run("host/"+impl.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				c := &scans[i%len(scans)]
				n, _ := impl.host(c.s, c.host)
				sink += n
			}
		})
		b.Run("path/"+impl.name, func(b *testing.B) {
			var v verbatimURL
			for i := 0; b.Loop(); i++ {
				c := &scans[i%len(scans)]
				sink += impl.path(c.s, c.path, &v)
			}
		})
		b.Run("query/"+impl.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if c := &scans[i%len(scans)]; c.query >= 0 {
					sink += impl.query(c.s[c.query:], &vQuery)
				}
			}
		})
	}
	_ = sink
}

// TestSpanOKAtEdges: spanOKAt's one load of the last 32 bytes, for every
// start i of strings of 0 to 72 bytes, with one byte of each class (taken
// by both tables, by one, by neither, 0x80 and more) at every place from
// i on, and bytes that neither table takes before i (the lanes it shifts
// out), against the SWAR scan of s[i:].
func TestSpanOKAtEdges(t *testing.T) {
	needSIMD(t)
	probe := []byte{'a', '#', ' ', '"', '<', '`', '%', 0x7f, 0x80, 0xff, 0}
	for size := range 73 {
		for i := 0; i <= size; i++ {
			b := []byte(strings.Repeat(" ", i) + strings.Repeat("q", size-i)) // ' ': in neither table
			for at := i - 1; at < size; at++ {
				for _, c := range probe {
					if at >= i {
						b[at] = c
					}
					for _, tab := range []*[256]uint8{&vQuery, &vFragment} {
						if n, wn := spanOKAt(string(b), i, tab), i+spanOKSWAR(string(b[i:]), tab); n != wn {
							t.Fatalf("spanOKAt(%q, %d) = %d, SWAR: %d", b, i, n, wn)
						}
					}
				}
				if at >= i {
					b[at] = 'q'
				}
			}
		}
	}
}

// slashes' mask is the '/' bytes among the first 32 of s, for every
// length (loadShort's two overlapping halves from 16 to 31 bytes) and
// every position of a '/'.
func TestSlashes(t *testing.T) {
	if !simdScans {
		t.Skip("no AVX2")
	}
	for n := 0; n <= 40; n++ {
		for at := -1; at < n; at++ {
			b := []byte(strings.Repeat("x", n))
			if at >= 0 {
				b[at] = '/'
			}
			if n > 3 {
				b[n-1], b[n/3] = '/', '/'
			}
			var want uint32
			for i := range min(n, 32) {
				if b[i] == '/' {
					want |= 1 << i
				}
			}
			if got := slashes(string(b)); got != want {
				t.Fatalf("slashes(%q) = %032b, want %032b", b, got, want)
			}
		}
	}
}
