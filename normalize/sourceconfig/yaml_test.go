package sourceconfig_test

import (
	"testing"

	"github.com/urlnorm/urlnorm/normalize/sourceconfig"
)

// TestYAMLToJSON: scalar mapping keys (a gateway config's "404: …") become
// JSON strings; a mapping used as a key is an error.
func TestYAMLToJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a: {404: x, true: y, ~: z, 1.5: w}\n", `{"a":{"1.5":"w","404":"x","null":"z","true":"y"}}`},
		{"a: [1, b]\n", `{"a":[1,"b"]}`},
		{"", "null"},
	} {
		got, err := sourceconfig.YAMLToJSON([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("YAMLToJSON(%q) = %s, %v; want %s", c.in, got, err, c.want)
		}
	}
	if got, err := sourceconfig.YAMLToJSON([]byte("? {a: 1}\n: x\n")); err == nil {
		t.Errorf("a mapping as a key: %s, want an error", got)
	}
}
