package normalize

import (
	"strings"
	"testing"
)

// scanAuthorityRef is scanAuthority a byte at a time, without its quick
// tests: the scheme compared letter by letter, the host by hostSpanBytes,
// the number test by endsInNumber without its quick answer (and without
// numberEnd), the port by verbatimPort.
func scanAuthorityRef(s string) (int, verbatimURL) {
	var v verbatimURL
	start, folded := -1, false
	for _, scheme := range []string{"https://", "http://"} {
		if len(s) < 8 || len(s) < len(scheme) {
			break
		}
		same := true
		for k := range len(scheme) {
			c := s[k]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
				folded = true
			}
			same = same && c == scheme[k]
		}
		if same {
			start = len(scheme)
			break
		}
		folded = false
	}
	if start < 0 {
		return -1, v
	}
	n, up := hostSpanBytes(s[start:])
	i := start + n
	if n == 0 || endsInNumber(s[start:i], false) {
		return -1, v
	}
	v.schemeEnd, v.hostStart, v.hostEnd = start-3, start, i
	v.lower, v.cut, v.port = folded || up, 0, -1
	if i < len(s) && s[i] == ':' {
		return verbatimPort(s, i+1, &v), v
	}
	return i, v
}

// TestScanAuthorityMatchesReference: scanAuthority (in the SIMD build, its
// inline host scan: one load of s[start:start+32], of s's last 32 bytes,
// or of loadShort's two halves) gives scanAuthorityRef's answer and fields
// for hosts of 0 to 40 bytes with a byte of each class at each place (an
// uppercase letter, '_', a byte that ends the host, one of 0x80 or more,
// a digit and a hex letter at the end: a number), after each scheme, with
// tails that put the URL's end before, at and after 16 and 32 bytes past
// the host.
func TestScanAuthorityMatchesReference(t *testing.T) {
	probes := []byte{'Q', 'q', '_', '.', '-', '0', 'f', 'x', 'X', ':', '/', '?', '#', '@', '%', ' ', 0, 0x7f, 0x80, 0xff}
	tails := []string{"", "/", ":8080/a", ":443/", ":80", "/" + strings.Repeat("p", 13), "?q=" + strings.Repeat("Q", 30), "#" + strings.Repeat("z", 60)}
	n := 0
	for _, scheme := range []string{"https://", "http://", "HTTPS://", "hTTp://", "ftp://", "https:/"} {
		for size := range 41 {
			for at := -1; at < size; at++ {
				for _, c := range probes {
					b := []byte(strings.Repeat("a", size))
					if at >= 0 {
						b[at] = c
					} else if size > 0 {
						b[size-1] = c // the host's last byte: numberEnd
					}
					for _, tail := range tails {
						s := scheme + string(b) + tail
						var v verbatimURL
						got := scanAuthority(s, &v)
						want, w := scanAuthorityRef(s)
						if got != want || got >= 0 && v != w {
							t.Fatalf("scanAuthority(%q) = %d, %+v; reference: %d, %+v", s, got, v, want, w)
						}
						n++
					}
				}
			}
		}
	}
	t.Logf("%d URLs", n)
}

// TestHostSpanFrom: hostSpan(s, i) reads s[i:] as hostSpanBytes does, from
// every i of strings of 0 to 80 bytes (the lanes before i shifted out, the
// last 32 bytes, loadShort, the 32-byte steps), with a byte of each class
// at each place and an uppercase letter or '_' before or after it.
func TestHostSpanFrom(t *testing.T) {
	probes := []byte{'a', 'Z', '_', '.', '-', '9', ':', '/', '`', '{', '@', '[', 0, 0x7f, 0x80, 0xff}
	for size := range 81 {
		for at := range size {
			for _, c := range probes {
				for _, other := range []byte{'a', 'A', '_'} {
					b := []byte(strings.Repeat("b", size))
					b[at] = c
					if at > 0 {
						b[at/2] = other
					}
					if at+1 < size {
						b[size-1] = other
					}
					s := string(b)
					for i := 0; i <= size; i++ {
						n, up := hostSpan(s, i)
						wn, wup := hostSpanBytes(s[i:])
						if n != i+wn || up != wup {
							t.Fatalf("hostSpan(%q, %d) = %d, %v; want %d, %v", s, i, n, up, i+wn, wup)
						}
					}
				}
			}
		}
	}
}

// TestNumberEnd: a host whose last byte is not in numberEnd is no number
// (scanAuthority skips endsInNumber for it): every byte vHost takes, after
// prefixes that make a number of the others ("0x", "1.", …).
func TestNumberEnd(t *testing.T) {
	prefixes := []string{"", "0", "1", "0x", "0X", "0x1", "1.", "a.0x", "1.2.3.", "a.", "0x.", "08", "a"}
	for c := range 256 {
		if vHost[c] == 0 || numberEnd[c] {
			continue
		}
		for _, p := range prefixes {
			if h := p + string(rune(c)); endsInNumber(h, false) {
				t.Errorf("endsInNumber(%q) but numberEnd[%q] is false", h, byte(c))
			}
		}
	}
	for _, h := range []string{"1", "0x", "0xF", "1.2.3.4", "0x1.", "a.08"} {
		if !numberEnd[h[len(h)-1]] || !endsInNumber(h, false) {
			t.Errorf("%q: a number, numberEnd[%q] = %v", h, h[len(h)-1], numberEnd[h[len(h)-1]])
		}
	}
}
