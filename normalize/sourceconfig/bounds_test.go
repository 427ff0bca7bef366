package sourceconfig_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/normalize/sourceconfig"
)

// TestPatternBoundsNamed: a pattern over the bounds of parameter patterns
// (issue 16.1) is refused when the file loads, with an error that names
// the file, the field and the limit, in every format that has patterns.
func TestPatternBoundsNamed(t *testing.T) {
	slow := `~*\\w{1,1000}_id$`               // 2005 instructions
	glob := "/" + strings.Repeat("a*", 10000) // a 20 KB url_rules glob
	for _, c := range []struct{ name, data, field, limit string }{
		{"hosts.yaml", "hosts:\n  - domain: a.com\n    url_rules:\n      - match: \"" + glob + "\"\n",
			"hosts[0].url_rules[0].match", "over the limit of 512"},
		{"hosts.yaml", "hosts:\n  - domain: a.com\n    tracking_params:\n      params_add: [x, \"" + slow + "\"]\n",
			"hosts[0].tracking_params.params_add[1]", "over the limit of 100"},
		{"edge-gateway.yaml", "tracking_params:\n  params: [\"" + slow + "\"]\n",
			"tracking_params.params[0]", "over the limit of 100"},
		{"overrides.json", `{"overrides": [{"match": {"host": "a.com"}, "drop_query_params": ["` + slow + `"]}]}`,
			"overrides[0].drop_query_params[0]", "over the limit of 100"},
		{"mine.json", `{"name": "mine", "version": "1", "hash": "sha256", "query": {"remove": [{"reason": "t", "patterns": ["` + slow + `"]}]}}`,
			"query.remove", "over the limit of 100"},
	} {
		p, err := sourceconfig.Load(nil, sourceconfig.ConfigFile{Name: c.name, Data: []byte(c.data)})
		if err == nil {
			_, err = normalize.New(p) // a profile file is checked when it compiles
		}
		if !errors.Is(err, normalize.ErrConfig) || !strings.Contains(err.Error(), `"`+c.name+`"`) ||
			!strings.Contains(err.Error(), "(field "+c.field+")") || !strings.Contains(err.Error(), c.limit) {
			t.Errorf("%s: %.300v\nwant an ErrConfig naming the file, field %s and saying %q", c.name, err, c.field, c.limit)
		}
	}
}

// TestPatternBoundsDoc: the errors docs/profiles.md shows under "Limits"
// are the loader's, word for word.
func TestPatternBoundsDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "profiles.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, data := range []string{
		"hosts:\n  - domain: example.com\n    tracking_params:\n      params_add: [\"~*\\\\w{1,1000}_id$\"]\n",
		"hosts:\n  - domain: example.com\n    url_rules:\n      - match: \"/" + strings.Repeat("a*", 300) + "\"\n",
	} {
		_, err := sourceconfig.Load(nil, sourceconfig.ConfigFile{Name: "hosts.yaml", Data: []byte(data)})
		if err == nil || !strings.Contains(string(doc), "\n"+err.Error()+"\n") {
			t.Errorf("docs/profiles.md does not show the error %v", err)
		}
	}
}
