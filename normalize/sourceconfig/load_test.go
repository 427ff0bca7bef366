package sourceconfig_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/normalize/sourceconfig"
)

// TestDetect: each file's format is told by its top-level keys, in JSON or
// YAML.
func TestDetect(t *testing.T) {
	for _, c := range []struct {
		name, data string
		want       *sourceconfig.Format
	}{
		{"p.json", `{"name": "x", "version": "1", "hash": "sha256"}`, sourceconfig.FormatProfile},
		{"p.yaml", "name: x\nversion: '1'\nhash: sha256\n", sourceconfig.FormatProfile},
		{"o.json", `{"overrides": []}`, sourceconfig.FormatCuriousNow},
		{"e.yaml", "tracking_params: {params_add: [x]}\n", sourceconfig.FormatEdgeGateway},
		{"h.yaml", "hosts:\n  - domain: a.com\n", sourceconfig.FormatEdgeGateway}, // a hosts list
		{"c.json", `{"hosts": {"a.es": "www.a.es"}}`, sourceconfig.FormatClara},   // a hosts map
		{"l.json", `{"language": {"preferred": "es"}}`, sourceconfig.FormatClara},
	} {
		got, err := sourceconfig.Detect(sourceconfig.ConfigFile{Name: c.name, Data: []byte(c.data)})
		if err != nil || got != c.want {
			t.Errorf("Detect(%s) = %v, %v; want %s", c.name, got, err, c.want.Name)
		}
	}
	for _, c := range []struct{ data, want string }{
		{"server: {listen: ':1'}\n", "cannot tell what it configures"},
		{"[1, 2]", "want a JSON or YAML object"},
		{"a: [\n", "neither JSON nor YAML"},
	} {
		_, err := sourceconfig.Detect(sourceconfig.ConfigFile{Name: "f", Data: []byte(c.data)})
		if !errors.Is(err, normalize.ErrConfig) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), `"f"`) {
			t.Errorf("Detect(%q) = %v, want an ErrConfig naming the file and saying %q", c.data, err, c.want)
		}
	}
}

// TestLoad: files of any format, with or without a base, give the profile
// the format's loader gives; the combinations that cannot mean anything
// are errors.
func TestLoad(t *testing.T) {
	file := func(name, data string) sourceconfig.ConfigFile {
		return sourceconfig.ConfigFile{Name: name, Data: []byte(data)}
	}
	overrides := file("o.json", `{"overrides": [{"match": {"host": "a.com"}, "drop_query_params": ["src"]}]}`)
	clara := file("c.json", `{"hosts": {"a.es": "www.a.es"}}`)
	mine := normalize.MustLookup("rfc3986").Profile()
	mine.Name, mine.Version = "mine", "2"
	profile := file("mine.json", string(mine.JSON()))
	rfc := normalize.MustLookup("rfc3986").Profile()
	want := func(base normalize.Profile, load func(normalize.Profile, ...sourceconfig.ConfigFile) (normalize.Profile, error), f sourceconfig.ConfigFile) string {
		p, err := load(base, f)
		if err != nil {
			t.Fatal(err)
		}
		return string(p.JSON())
	}
	for _, c := range []struct {
		why   string
		base  *normalize.Profile
		files []sourceconfig.ConfigFile
		want  string
	}{
		{"overrides on their built-in", nil, []sourceconfig.ConfigFile{overrides},
			want(normalize.MustLookup("curiousnow-v0").Profile(), sourceconfig.LoadCuriousNowOverrides, overrides)},
		{"overrides on the base given", &rfc, []sourceconfig.ConfigFile{overrides},
			want(rfc, sourceconfig.LoadCuriousNowOverrides, overrides)},
		{"clara map on its built-in", nil, []sourceconfig.ConfigFile{clara},
			want(normalize.MustLookup("clara").Profile(), sourceconfig.LoadClaraConfig, clara)},
		{"a profile file alone", nil, []sourceconfig.ConfigFile{profile}, string(mine.JSON())},
		{"a profile file, then overrides on it", nil, []sourceconfig.ConfigFile{profile, overrides},
			want(mine, sourceconfig.LoadCuriousNowOverrides, overrides)},
		{"the base alone", &rfc, nil, string(rfc.JSON())},
	} {
		p, err := sourceconfig.Load(c.base, c.files...)
		if err != nil || string(p.JSON()) != c.want {
			t.Errorf("%s: Load = %v; the profile differs from the loader's:\n%s", c.why, err, p.JSON())
		}
	}
	for _, c := range []struct {
		base  *normalize.Profile
		files []sourceconfig.ConfigFile
		want  string
	}{
		{nil, []sourceconfig.ConfigFile{clara, file("e.yaml", "tracking_params: {}\n")}, "different formats"},
		{nil, []sourceconfig.ConfigFile{overrides, profile}, "before the configuration files"},
		{&rfc, []sourceconfig.ConfigFile{profile}, "not on top of rfc3986"},
		{nil, []sourceconfig.ConfigFile{file("bad.json", `{"name": "x", "version": "1", "hash": "md5"}`)}, "unknown hash"},
		{nil, nil, "no profile and no configuration file"},
	} {
		if _, err := sourceconfig.Load(c.base, c.files...); !errors.Is(err, normalize.ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load(%d files) = %v, want an ErrConfig saying %q", len(c.files), err, c.want)
		}
	}
}
