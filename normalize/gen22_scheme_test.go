package normalize

import (
	"strings"
	"testing"
)

// TestHTTPPrefix: httpPrefix says what the two HasPrefix tests it
// replaced say, on every prefix of "https:…" and "http:…" with each byte
// changed (case, a neighbour, a NUL, 0xFF), and lengths 0 to 12.
func TestHTTPPrefix(t *testing.T) {
	ref := func(s string) bool { return strings.HasPrefix(s, "https:") || strings.HasPrefix(s, "http:") }
	var inputs []string
	for _, base := range []string{"https://a.b/c", "http://a.b/cd", "https:x", "http:", "https:", "httpss://x/", "http//x/y", "ftp://x/yz"} {
		for l := 0; l <= len(base); l++ {
			s := base[:l]
			inputs = append(inputs, s)
			for i := 0; i < len(s); i++ {
				for _, c := range []byte{s[i] ^ 0x20, s[i] + 1, s[i] - 1, 0, 0xFF} {
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
