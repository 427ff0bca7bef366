package normalize

import (
	"strconv"
	"strings"
	"sync"
	"testing"
)

// idnDomains are non-ASCII domains for idnCache: valid ones (mapped,
// non-transitional ß, Bidi, the full stops UTS #46 maps to '.', U+1E9E,
// which toASCII rewrites first) and ones ToASCII refuses (Bidi rule,
// a label over maxIDNLabel), which the cache must not remember.
var idnDomains = []string{
	"faß.de", "FAẞ.de", "例え.テスト", "MÜNCHEN.de", "bücher.example", "δοκιμή.gr", "café.com",
	"пример.рф", "straße.de", "ÉCOLE.fr", "a\u3002b\uff0ec\uff61é", "xn--nxasmq6b.é", "\u00ad.é",
	"\u05d0a.com", "e\u0301\u0301.x", "\u0627\u0031.\u05d0",
}

// TestIDNCacheMatchesToASCII: through idnCache (a miss, then a hit, then
// after another domain took the slot) a domain gets what toASCII gives
// it, error included, and an error is not remembered.
func TestIDNCacheMatchesToASCII(t *testing.T) {
	var p parser
	long := "é" + strings.Repeat("a", maxIDNLabel) + ".com"
	for _, d := range append(idnDomains, long, strings.Repeat("é", 100)) {
		want, werr := toASCII(d)
		for pass := range 2 {
			got, gerr := p.toASCII(d)
			if got != want || errText(gerr) != errText(werr) {
				t.Errorf("pass %d: toASCII(%q) through the cache = %q, %v; want %q, %v", pass, d, got, gerr, want, werr)
			}
		}
		e := idnCache[idnSlot(d)].Load()
		if remembered := e != nil && e.domain == d; remembered != (werr == nil && len(d) <= idnMaxKey) {
			t.Errorf("%q (error %v, %d bytes): remembered %v", d, werr, len(d), remembered)
		}
	}
	// Two domains of one slot take it in turn.
	a, b := collidingDomains(t)
	for range 2 {
		for _, d := range []string{a, b} {
			want, _ := toASCII(d)
			if got, err := p.toASCII(d); got != want || err != nil {
				t.Errorf("toASCII(%q) = %q, %v after a collision; want %q", d, got, err, want)
			}
		}
	}
}

// TestIDNCacheCopiesKey: the domain may be the parser's pooled buffer (a
// percent-decoded host); the cache keeps a copy, so that the buffer's next
// content does not change what it remembered.
func TestIDNCacheCopiesKey(t *testing.T) {
	var p parser
	buf := []byte("zürich.example")
	want, _ := toASCII(string(buf))
	if got, _ := p.toASCII(bstr(buf)); got != want {
		t.Fatalf("toASCII = %q, want %q", got, want)
	}
	copy(buf, "zürbch.example")
	checkRemembered(t, "zürich.example", want)
	want2, _ := toASCII(string(buf))
	if got, _ := p.toASCII(bstr(buf)); got != want2 {
		t.Errorf("the new content: %q, want %q", got, want2)
	}
	// Through Normalize: a percent-encoded IDN host, then another of the
	// same length, which the parser decodes into the same buffer.
	idnCache[idnSlot("zürich.example")].Store(nil)
	n := MustLookup("whatwg")
	if got, _ := n.Normalize("https://z%C3%BCrich.example/"); got != "https://"+want+"/" {
		t.Errorf("percent-encoded IDN host: %q, want %q", got, "https://"+want+"/")
	}
	n.Normalize("https://z%C3%BCrbch.example/")
	checkRemembered(t, "zürich.example", want)
}

// checkRemembered fails unless idnCache holds domain with its ASCII form.
func checkRemembered(t *testing.T, domain, ascii string) {
	t.Helper()
	if e := idnCache[idnSlot(domain)].Load(); e == nil || e.domain != domain || e.ascii != ascii {
		t.Errorf("idnCache slot of %q holds %+v, want %q → %q", domain, e, domain, ascii)
	}
}

// TestIDNCacheConcurrent: goroutines that look up and replace the same
// slots each get their own domain's form (go test -race checks the
// accesses).
func TestIDNCacheConcurrent(t *testing.T) {
	a, b := collidingDomains(t)
	domains := append([]string{a, b}, idnDomains[:6]...)
	want := map[string]string{}
	for _, d := range domains {
		want[d], _ = toASCII(d)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			var p parser
			for i := range 2000 {
				d := domains[(i+g)%len(domains)]
				if got, err := p.toASCII(d); got != want[d] || err != nil {
					t.Errorf("toASCII(%q) = %q, %v; want %q", d, got, err, want[d])
					return
				}
			}
		})
	}
	wg.Wait()
}

// collidingDomains returns two valid IDN domains of one idnCache slot.
func collidingDomains(t *testing.T) (string, string) {
	t.Helper()
	seen := map[uint32]string{}
	for i := range 100000 {
		d := "é" + strconv.Itoa(i) + ".example"
		s := idnSlot(d)
		if o, ok := seen[s]; ok {
			return o, d
		}
		seen[s] = d
	}
	t.Fatal("no two domains share a slot")
	return "", ""
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
