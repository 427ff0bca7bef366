package normalize

import (
	"strings"
	"testing"
)

// TestHTTPPrefix: httpPrefix says whether s starts with "http:" or
// "https:" in any ASCII case, on every prefix of "https:…" and "http:…"
// with each byte changed (case, a neighbour, a NUL, 0xFF, 0x1A: ':'
// with bit 5 clear), and lengths 0 to 12.
func TestHTTPPrefix(t *testing.T) {
	ref := func(s string) bool {
		l := strings.ToLower(s) // ASCII input but for 0xFF, which ToLower leaves
		return strings.HasPrefix(l, "https:") || strings.HasPrefix(l, "http:")
	}
	var inputs []string
	for _, base := range []string{"https://a.b/c", "http://a.b/cd", "https:x", "http:", "https:", "httpss://x/", "http//x/y", "ftp://x/yz",
		"HTTPS://A.B/C", "HtTp://a.b/cd", "HTTP:", "hTTPS:"} {
		for l := 0; l <= len(base); l++ {
			s := base[:l]
			inputs = append(inputs, s)
			for i := 0; i < len(s); i++ {
				for _, c := range []byte{s[i] ^ 0x20, s[i] + 1, s[i] - 1, 0, 0xFF, 0x1A} {
					inputs = append(inputs, s[:i]+string([]byte{c})+s[i+1:])
				}
			}
		}
	}
	for _, s := range inputs {
		if got, want := httpPrefix(s), ref(s); got != want {
			t.Errorf("httpPrefix(%q) = %v, want %v", s, got, want)
		}
	}
}
