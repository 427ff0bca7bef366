package normalize

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// checkThroughPath1 fails t when ParseThroughPath (throughPath1: in the
// SIMD build one pass over the authority and the path) and throughPathScan
// (the authority's scan, then the path's; itself held to Parse by
// TestParseThroughPath) disagree on s: the error, the serialization and
// every offset and flag of the URL. It reports whether the one pass took
// s: the URL is raw's bytes (aliased) and the scan's state (p.p.pre),
// which throughPathScan always writes for an http or https URL and the one
// pass never, is left as it was.
func checkThroughPath1(t *testing.T, one, ref *Parser, s string) (took bool) {
	t.Helper()
	const mark = -7
	one.p.pre = verbatimURL{schemeEnd: mark, hostStart: mark}
	u, err := one.ParseThroughPath(s)
	w, werr := ref.throughPathScan(s)
	if (err == nil) != (werr == nil) {
		t.Fatalf("%q: ParseThroughPath error %v, throughPathScan %v", s, err, werr)
	}
	if err != nil {
		return false
	}
	got, want := *u, *w
	got.buf, want.buf = nil, nil
	if !reflect.DeepEqual(got, want) || string(u.buf) != string(w.buf) {
		t.Fatalf("%q: ParseThroughPath %q %+v\nthroughPathScan %q %+v", s, u.buf, got, w.buf, want)
	}
	return one.aliased && one.p.pre.schemeEnd == mark && one.p.pre.hostStart == mark
}

// throughPathHand are URLs whose authority or path the one pass must
// leave to the scan, or read right: dot segments (also escaped), '\',
// bytes to percent-encode, non-ASCII, tab and newline (which the parser
// strips), "//", '%' and ';', opaque paths, file: URLs, userinfo, ports
// (default or not), IPv4 and IPv6 hosts, hosts that end in a number or
// look like one, uppercase letters and '_', and no path.
var throughPathHand = []string{
	"https://a.example/p/q.html?q=1#f", "https://a.example/a/./b/../c?x", "https://a.example/%2e/x", "https://a.example/%2E%2e/",
	"https://a.example/.%2e", "https://a.example/a\\b", "https://a.example\\p", "https://a.example/é", "https://é.example/p",
	"https://a.example/p\t/q", "https://a.example/p\n", "https://a.example/p ", "https://a\t.example/p", "https://a.example//a/",
	"https://a.example/%7e;p=1", "https://a.example/a;b", "mailto:x?subject=y", "sc://h/p?q#f", "sc:p/q", "file:///C:/x.y?q",
	"file://host/a/b", "http://u:p@a.example/p", "http://u@a.example/p", "http://a.example:8080/x.y", "http://a.example:80/x",
	"https://a.example:443/", "http://a.example:/p", "http://1.2.3.4/p", "http://0x7f.1/p", "http://a.b.0x1/p", "http://a.12/p",
	"http://a.b.c1/p", "http://a.e/p", "http://a.de/p", "http://a.example./p", "http://[::1]/p.a?q", "http://[::1]:8/p",
	"HTTP://a.example/p", "http://A.example/p", "http://a_b.example/p", "http://a.exAmple/p", "https://a.example",
	"https://a.example?q#f", "https://a.example#f/x", "https://a.example/p#f?g", "https://a.example/?", "https://a.example/#",
	"https://a-b.example/~x/!$&'()*+,=:@", "https://a.example/a\"b", "https://a.example/a<b>", "https://a.example/a`{}^|",
	"https://a.example/\x00", "https://a.example/\x7f", "https://a.example/\x80", "http://a%2eb/", "http:///p", "http://@a/p",
	"https:a.example/p", "https:/a.example/p", "ws://a.example/p", "http://a.example/..", "http://a.example/./", "http://a/",
}

// TestThroughPath1MatchesScan holds the one pass (throughPath1, the SIMD
// build's ParseThroughPath) to throughPathScan over every URL of the
// lists (of which it must take half or more in the SIMD build: a pass
// that always fell back would match the scan), the hand URLs, and
// authorities and paths placed before, across and after the two 32-byte
// loads, the URL's last 32 bytes and the 32 and 16 bytes under which
// loadShort reads a URL: hosts of 1 to 40 bytes, paths of 0 to 80 with
// each special byte at each place, behind pads and before a query.
func TestThroughPath1MatchesScan(t *testing.T) {
	var one, ref Parser
	took, n := 0, 0
	check := func(s string) {
		t.Helper()
		n++
		if checkThroughPath1(t, &one, &ref, s) {
			took++
		}
	}
	for _, s := range partsLists(t) {
		check(s)
	}
	if simdScans && took < n/2 { // 58 % of the lists (with web_dirty and the file lists), 89 % of web
		t.Fatalf("the one pass took %d of the lists' %d URLs", took, n)
	}
	for _, s := range throughPathHand {
		check(s)
		check(s + strings.Repeat("x", 40))
		check(strings.Replace(s, "//", "//"+strings.Repeat("h", 30), 1))
	}
	specials := []string{"", ".", "..", "/", "//", "%", "%2e", ";", "?", "#", "\\", " ", "\t", "é", "A", "_", ":", "@", "\x00"}
	for hostLen := 1; hostLen <= 40; hostLen++ {
		host := strings.Repeat("h", hostLen-1) + "o"
		for _, scheme := range []string{"http://", "https://"} {
			for pathLen := 0; pathLen <= 80; pathLen++ {
				base := "/" + strings.Repeat("x", pathLen)
				check(scheme + host + base)
				check(scheme + host + base + "?q=1")
				if !slices.Contains([]int{0, 1, 2, 12, 25, 40, 57, 70}, pathLen) {
					continue // the host's lengths move the special byte across the loads already
				}
				for at := 0; at <= len(base); at++ { // len(base): the special byte last
					for _, sp := range specials {
						check(scheme + host + base[:at] + sp + base[at:])
						check(scheme + host + "/" + base[:at] + "/" + sp + base[at:] + "#f")
					}
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(24, 24))
	const alpha = "/.%;a2eE?#\\ \t\xc3:@A_"
	for range 200_000 {
		b := make([]byte, rng.IntN(90))
		for k := range b {
			b[k] = alpha[rng.IntN(len(alpha))]
			if rng.IntN(3) == 0 {
				b[k] = 'a'
			}
		}
		check("http://" + strings.Repeat("h", 1+rng.IntN(40)) + "/" + string(b))
		check("https://" + strings.Repeat("h", rng.IntN(5)) + string(b))
	}
}

// TestThroughPath1Takes requires the one pass (SIMD build) to take the URLs
// it is for, where the scans' answer would hide a way out taken too soon:
// a lowercase http or https URL with a host of 1 to 31 bytes, a plain
// path, and the path's end (the URL's, or a '?') within the 63 bytes from
// the host's start, below, across and after the 32 under which loadShort
// reads a URL, and the 32 and 64 from the host's start (the stop bit at
// the URL's end from onePassMarks and onePassMarksShort; 64 bytes or more
// leave).
func TestThroughPath1Takes(t *testing.T) {
	if !simdScans {
		t.Skip("the portable build scans")
	}
	var one, ref Parser
	for hostLen := 1; hostLen <= 31; hostLen++ {
		host := strings.Repeat("h", hostLen-1) + "o"
		for _, scheme := range []string{"http://", "https://"} {
			for pathLen := 0; hostLen+1+pathLen <= 63; pathLen++ {
				path := "/" + strings.Repeat("a/b", pathLen)[:pathLen]
				for _, s := range []string{scheme + host + path, scheme + host + path + "?q=1#" + strings.Repeat("f", 40)} {
					if !checkThroughPath1(t, &one, &ref, s) {
						t.Fatalf("%q (%d bytes from the host's start): the one pass did not take it", s, len(s)-len(scheme))
					}
				}
			}
		}
	}
}

// FuzzThroughPath1 holds the one pass to throughPathScan on any input.
func FuzzThroughPath1(f *testing.F) {
	for _, s := range throughPathHand {
		f.Add(s)
	}
	var one, ref Parser
	f.Fuzz(func(t *testing.T, s string) { checkThroughPath1(t, &one, &ref, s) })
}
