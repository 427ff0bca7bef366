package normalize

import "testing"

// TestHostChangesUpperTakesShortcut: clara answers a URL with an
// uppercase scheme or host on the verbatim path (canonInto) unless the
// host, lowercased, is a key of its host map or a language host: those
// the general path rewrites.
func TestHostChangesUpperTakesShortcut(t *testing.T) {
	n := MustLookup("clara")
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"https://Example.com/a", true},
		{"HTTPS://example.com/a", true},
		{"https://EXAMPLE.COM/a?b=1", true},
		{"https://BOE.es/x", false},            // host.map
		{"https://boE.es/x", false},            // its last letter
		{"https://Bof.es/x", true},             // a key's length, no key
		{"https://Web.Gencat.Cat/ca/x", false}, // a language host
		{"https://boe.es/x", false},
	} {
		var v verbatimURL
		var cn canon
		if ok, _ := n.canonInto(&cn, c.in, &v); ok != c.ok {
			t.Errorf("canonInto(%q) ok = %v, want %v", c.in, ok, c.ok)
		}
	}
}
