package profileload

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/golden"
	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/normalize/sourceconfig"
)

// configDir is testdata/config, the example files of every format.
func configDir() string { return filepath.Join(golden.Dir(), "..", "config") }

// TestSelect applies the users' configuration files like the normalize
// loaders do, on the base profile their format belongs to, or on the one
// given.
func TestSelect(t *testing.T) {
	dir := configDir()
	overrides := filepath.Join(dir, "url_normalization_overrides.v0.json")
	edge := []string{filepath.Join(dir, "edge-gateway.yaml"), filepath.Join(dir, "hosts.yaml")}
	clara := filepath.Join(dir, "clara-hosts.json")
	want := func(load func(normalize.Profile, ...sourceconfig.ConfigFile) (normalize.Profile, error), base string, paths ...string) *normalize.Normalizer {
		t.Helper()
		files, err := sourceconfig.ReadConfigFiles(paths...)
		if err != nil {
			t.Fatal(err)
		}
		p, err := load(normalize.MustLookup(base).Profile(), files...)
		if err != nil {
			t.Fatal(err)
		}
		n, err := normalize.New(p)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, c := range []struct {
		name    string
		base    string
		configs []string
		want    *normalize.Normalizer
	}{
		{"overrides on curiousnow-v0", "", []string{overrides}, want(sourceconfig.LoadCuriousNowOverrides, "curiousnow-v0", overrides)},
		{"overrides on default", "default", []string{overrides}, want(sourceconfig.LoadCuriousNowOverrides, "default", overrides)},
		{"edge files on edge-gateway", "", edge, want(sourceconfig.LoadEdgeGatewayYAML, "edge-gateway", edge...)},
		{"clara host map on clara", "", []string{clara}, want(sourceconfig.LoadClaraConfig, "clara", clara)},
	} {
		n, err := Select(c.base, c.configs)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got, want := string(n.Profile().JSON()), string(c.want.Profile().JSON()); got != want {
			t.Errorf("%s: the profile differs from the loader's", c.name)
		}
		if !strings.Contains(n.Version(), "+config.") {
			t.Errorf("%s: version %q does not carry the configuration's fingerprint", c.name, n.Version())
		}
	}
	// Load takes a configuration file alone, on its format's base
	if n, err := Load(overrides); err != nil || n.Name() != "curiousnow-v0" || !strings.Contains(n.Version(), "+config.") {
		t.Errorf("Load(overrides) = %v, %v", n, err)
	}
	for _, c := range []struct {
		base    string
		configs []string
		err     string
	}{
		{"", []string{clara, edge[0]}, "different formats"},
		{"", []string{overrides, profileFile(t)}, "before the configuration files"},
		{"rfc3986", []string{profileFile(t)}, "whole profile"},
		{"", []string{tempFile(t, "x.yaml", "server: {listen: ':1'}\n")}, "cannot tell what it configures"},
		{"", []string{tempFile(t, "x.json", "[1, 2]")}, "want a JSON or YAML object"},
		{"nope", []string{overrides}, "unknown profile"},
	} {
		if _, err := Select(c.base, c.configs); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("Select(%q, %q) = %v, want %q", c.base, c.configs, err, c.err)
		}
	}
	// a profile file first, then configuration on top of it
	if n, err := Select("", []string{profileFile(t), overrides}); err != nil || n.Name() != "mine" {
		t.Errorf("profile then overrides: %v, %v", n, err)
	}
}
