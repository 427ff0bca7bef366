package normalize_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// suffixHosts are hosts whose answers differ although they share labels (a
// node of the list that is not a rule, wildcards and exceptions, private
// rules), empty labels, unlisted labels, IP addresses, and hosts of every
// length up to 66 bytes (a label hashed in one word, in more words, with
// a partial last word).
func suffixHosts() []string {
	hosts := []string{
		"foo.amazonaws.com", "bucket.s3.dualstack.us-east-1.amazonaws.com", "s3.dualstack.us-east-1.amazonaws.com",
		"www.city.kawasaki.jp", "city.kawasaki.jp", "a.b.kawasaki.jp", "b.kawasaki.jp", "kawasaki.jp", "a..kawasaki.jp",
		"alice.github.io", "github.io", "io", "a.co.uk", "co.uk", "localhost", "x.unlisted-tld",
		"a..b.com", ".com", "", ".", "..", "com.", "t.co", "a", strings.Repeat("a.", 40) + "com",
		// IP addresses are their own suffix (as netip parses them: a zone
		// may hold dots and letters); what only looks like one is not.
		"1.2.3.4", "a.1.2.3.4", "1.2.3.04", "1.2.3", "::1", "::ffff:1.2.3.4", "fe80::1%a.com", "fe80::1%",
		"abcd:1::", "abcde:1::", "a:b.com", "com1", "v6.2001:db8::1", "%x.com", "1.2.3.4.com",
		"a.aaaaaaaaaaaaaaaaaa.com", "anaaaaaaaaaaaaaaaaaa.com",
		// Bytes no URL's domain has, which the walk's word tests must
		// still read as they are: a NUL before a listed label ("\x00com"
		// is not "com": the keys hold the length), bytes with the top bit
		// set (0xAE is '.'|0x80), and a '/' after a dot (suffixDots
		// marks it, above the dot's mark).
		"abcd.\x00com", "ab.co.\x00uk", "x.city.kawasaki.\x00\x00jp", "\x00com", "abc.\x00co.uk", "abcd.\xaecom", "abcd\xae.com", "\xff.\xffcom",
		"a./com", "./.com", "ab/.com", "a.b/.co.uk", "a/.b.c/.com",
	}
	for n := 1; n <= 66; n++ {
		for _, suffix := range []string{"com", "co.uk", "github.io", "kawasaki.jp"} {
			hosts = append(hosts, hostOfLen(n, suffix))
		}
	}
	return hosts
}

// hostOfLen returns a host of n bytes: labels "ab" before suffix, or one
// label of n bytes when suffix does not fit.
func hostOfLen(n int, suffix string) string {
	p := n - len(suffix) - 1
	if p < 1 {
		return strings.Repeat("q", n)
	}
	prefix := []byte(strings.Repeat("ab.", p/3+1)[:p])
	if prefix[p-1] == '.' {
		prefix[p-1] = 'c'
	}
	return string(prefix) + "." + suffix
}

// checkSuffixLens fails t when the table's answer for host differs from
// x/net's.
func checkSuffixLens(t testing.TB, host string) {
	t.Helper()
	if got, want := normalize.SuffixLens(host), normalize.ComputeSuffixLens(host); got != want {
		t.Errorf("%q: table %+v, x/net %+v", host, got, want)
	}
	if got, want := normalize.IsPublicSuffix(host), normalize.IsPublicSuffixReference(host); got != want {
		t.Errorf("%q: isPublicSuffix %v, x/net %v", host, got, want)
	}
}

// TestSuffixLensHosts checks suffixHosts against x/net.
func TestSuffixLensHosts(t *testing.T) {
	for _, h := range suffixHosts() {
		checkSuffixLens(t, h)
	}
}

// nodeHosts returns, for every node of the list, the node's domain alone,
// with one and two labels before it (an unlisted one, and one of the
// list's: a wildcard's child, a node's sibling), with an empty label
// before it, and its parent with an unlisted label in its place.
func nodeHosts() []string {
	nodes := normalize.SuffixNodes()
	var hosts []string
	for i, n := range nodes {
		other := nodes[(i*7919+1)%len(nodes)].Domain // some other node's labels
		first, parent, _ := strings.Cut(n.Domain, ".")
		hosts = append(hosts, n.Domain, "x."+n.Domain, "y.x."+n.Domain, first+"."+n.Domain,
			other+"."+n.Domain, "."+n.Domain, "x.."+n.Domain)
		if parent != "" {
			hosts = append(hosts, "zz-unlisted."+parent, "a."+first+"-x."+parent)
		}
	}
	return hosts
}

// TestSuffixLensNodes checks every node of the list, and hosts around it
// (nodeHosts), against x/net; it also pins that the list has the kinds of
// nodes whose quirks publicSuffixLen replays (so that the check covers
// them).
func TestSuffixLensNodes(t *testing.T) {
	kinds := map[string]int{}
	for _, n := range normalize.SuffixNodes() {
		kinds[[]string{"rule", "exception", "parent only"}[n.Kind]]++
		if n.Wildcard {
			kinds["wildcard"]++
		}
		if !n.ICANN {
			kinds["private"]++
		}
	}
	for _, k := range []string{"rule", "exception", "parent only", "wildcard", "private"} {
		if kinds[k] == 0 {
			t.Errorf("the list has no %s node: %v", k, kinds)
		}
	}
	hosts := nodeHosts()
	if len(hosts) < 9*10000 {
		t.Fatalf("%d hosts around %d nodes: the list is smaller than expected", len(hosts), len(normalize.SuffixNodes()))
	}
	for _, h := range hosts {
		checkSuffixLens(t, h)
	}
}

// TestSuffixLensCorpus checks the host of every URL of the shipped corpus
// (with $URLNORM_DATA set, of every list there: 168,501 URLs), as
// domainCuts passes it, against x/net, and that looking it up allocates
// nothing.
func TestSuffixLensCorpus(t *testing.T) {
	lines := shippedCorpus(t, false)
	if dir := os.Getenv("URLNORM_DATA"); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		for _, f := range files {
			lines = append(lines, readLines(t, f)...)
		}
	}
	hosts := map[string]bool{}
	for _, raw := range lines {
		if u, err := normalize.Parse(raw); err == nil && u.HostKind() == normalize.HostDomain {
			hosts[strings.TrimSuffix(u.Host(), ".")] = true
		}
	}
	for h := range hosts {
		checkSuffixLens(t, h)
		if a := testing.AllocsPerRun(1, func() { normalize.SuffixLens(h) }); a != 0 {
			t.Errorf("%q: %v allocations", h, a)
		}
	}
	t.Logf("%d hosts of %d URLs", len(hosts), len(lines))
}

// TestSuffixDots checks the walk's word test and cut (suffixDots and
// suffixCut: the bytes of a big-endian word below its last dot) against
// a byte loop, for every word of 8 bytes from an alphabet of the bytes
// that matter to them: '.', '/' (which suffixDots may mark above a dot),
// 0 and 0xAE (its borrow and top bit) and two others.
func TestSuffixDots(t *testing.T) {
	alphabet := []uint64{'.', '/', 0, 0xAE, 'a', 0xFF}
	n := 1
	for range 8 {
		n *= len(alphabet)
	}
	for i := range n {
		var w uint64
		for j, x := 0, i; j < 8; j, x = j+1, x/len(alphabet) {
			w |= alphabet[x%len(alphabet)] << (8 * j)
		}
		var want uint64
		k, ok := 0, false
		for ; k < 8; k++ { // byte k of w, from the low one: the string's last byte first
			if w>>(8*k)&0xFF == '.' {
				ok = true
				break
			}
			want |= w & (0xFF << (8 * k))
		}
		if first, gotK, gotOK := normalize.SuffixDotsCut(w); gotOK != ok || ok && (first != want || gotK != k) {
			t.Fatalf("%#016x: cut %#x at %d (dot %v), want %#x at %d (dot %v)", w, first, gotK, gotOK, want, k, ok)
		}
	}
}

// TestSuffixTops checks the walk's first step, the table of top-level
// rules, against the main table it is built from.
func TestSuffixTops(t *testing.T) {
	for _, e := range normalize.SuffixTopsCheck() {
		t.Error(e)
	}
}

// TestSuffixTableRun pins the bound of a lookup's probes: the longest run
// of full slots in the table (a label's lookup ends at the first empty
// slot). The table's hash is fixed, so the run is the same in every
// process; a new list that lengthens it past the bound needs a look at
// the hash or the table's size.
func TestSuffixTableRun(t *testing.T) {
	slots, tops := normalize.SuffixTableRun()
	if slots > 14 {
		t.Errorf("longest run of full slots %d, want ≤ 14 (suffix.go's comment states it)", slots)
	}
	if tops > 9 {
		t.Errorf("longest run of full slots of the top-level rules %d, want ≤ 9 (suffix.go's comment states it)", tops)
	}
}

// TestSuffixLensConcurrent looks hosts up from several goroutines at once
// (run under -race by make test-race; the first lookup of the process
// builds the table) and checks every answer against x/net.
func TestSuffixLensConcurrent(t *testing.T) {
	hosts := suffixHosts()
	for _, raw := range shippedCorpus(t, false) {
		if u, err := normalize.Parse(raw); err == nil && u.HostKind() == normalize.HostDomain && !strings.HasSuffix(u.Host(), ".") {
			hosts = append(hosts, u.Host())
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range hosts {
				h := hosts[(i*(g+1)+g*997)%len(hosts)]
				if got, want := normalize.SuffixLens(h), normalize.ComputeSuffixLens(h); got != want {
					t.Errorf("%q: table %+v, x/net %+v", h, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// FuzzSuffixLens compares the table with x/net on any string, and on
// hosts built from it and the list's nodes: the string's bytes before a
// node's domain (so that the walk reaches the node and goes past it), in
// place of a node's first label, and before a node's parent.
//
//	go test ./normalize -run '^$' -fuzz FuzzSuffixLens -fuzztime 3m
func FuzzSuffixLens(f *testing.F) {
	for i, h := range suffixHosts() {
		f.Add(h, uint16(i))
	}
	nodes := normalize.SuffixNodes()
	f.Fuzz(func(t *testing.T, s string, pick uint16) {
		n := nodes[int(pick)%len(nodes)].Domain
		_, parent, _ := strings.Cut(n, ".")
		for _, h := range []string{s, s + "." + n, s + n, s + "." + parent, s + "." + n + "."} {
			if got, want := normalize.SuffixLens(h), normalize.ComputeSuffixLens(h); got != want {
				t.Fatalf("%q: table %+v, x/net %+v", h, got, want)
			}
		}
	})
}

// TestSuffixLensNearMisses checks hosts whose walk compares a long label
// with a node's that has its parent, length and first chunk, and finds
// them different (SuffixNearMisses): the one path of a lookup that the
// other tests may not take.
func TestSuffixLensNearMisses(t *testing.T) {
	hosts := normalize.SuffixNearMisses(8)
	if len(hosts) < 8 {
		t.Fatalf("%d near misses, want 8: %q", len(hosts), hosts)
	}
	for _, h := range hosts {
		checkSuffixLens(t, h)
	}
	t.Log(hosts)
}
