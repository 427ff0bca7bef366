package normalize

import "testing"

func TestQuick(t *testing.T) {
	for _, c := range [][3]string{
		{"default", "HTTP://WWW.EXAMPLE.COM:80/a/b/../c/?z=1&a=2#frag", "http://www.example.com/a/c?a=2&z=1"},
		{"default", "HTTPS://Example.Com:443/path/./to/../page?b=2&a=1#section", "https://example.com/path/page?a=1&b=2"},
		{"default", "http://example.com/%7Euser", "http://example.com/~user"},
		{"default", "HTTP://Example.COM:80/Path?z=1&a=2#frag", "http://example.com/Path?a=2&z=1"},
		{"default", "https://TEST.org/page", "https://test.org/page"},
		{"default", "https://example.com/", "https://example.com"},
		{"default", "http://example.com/?b=1", "http://example.com?b=1"},
		{"rfc3986", "http://example.com", "http://example.com/"},
		{"rfc3986", "http://exAMPle.com/A%2fb", "http://example.com/A%2Fb"},
		{"rfc3986", "HTTP://User@Example.COM/Foo", "http://User@example.com/Foo"},
		{"whatwg", "HTTP://User@Example.COM/Foo?#", "http://User@example.com/Foo?#"},
	} {
		n := MustLookup(c[0])
		got, err := n.Normalize(c[1])
		if err != nil || got != c[2] {
			t.Errorf("%s %q = %q, %v; want %q", c[0], c[1], got, err, c[2])
		}
		h, err := n.Hash(c[1])
		t.Log(h, err)
	}
}
