package profileload

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	p := normalize.MustLookup("rfc3986").Profile()
	p.Name, p.Version = "mine", "2.0.0"
	js := p.JSON()
	yml := "name: mine-yaml\nversion: '1'\nhash: sha256\npath: {trailing_slash: remove}\n"
	files := map[string]string{
		"p.json": string(js), "p.yaml": yml, "p.yml": yml,
		"json-no-ext": string(js), "yaml-no-ext": yml,
	}
	for name, content := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
	}
	for _, c := range []struct {
		arg, name, version string
	}{
		{"default", "default", normalize.MustLookup("default").Version()}, // a built-in name
		{filepath.Join(dir, "p.json"), "mine", "2.0.0"},
		{filepath.Join(dir, "p.yaml"), "mine-yaml", "1"},
		{filepath.Join(dir, "p.yml"), "mine-yaml", "1"},
		{filepath.Join(dir, "json-no-ext"), "mine", "2.0.0"}, // by content
		{filepath.Join(dir, "yaml-no-ext"), "mine-yaml", "1"},
	} {
		n, err := Load(c.arg)
		if err != nil || n.Name() != c.name || n.Version() != c.version {
			t.Errorf("Load(%s) = %v, %v; want %s@%s", c.arg, n, err, c.name, c.version)
			continue
		}
		if Label(n) != c.name+"@"+c.version {
			t.Errorf("Label = %s", Label(n))
		}
	}
	// a bare file name in the working directory is a file when no profile has that name
	t.Chdir(dir)
	if n, err := Load("json-no-ext"); err != nil || n.Name() != "mine" {
		t.Errorf("Load(json-no-ext) in its directory: %v, %v", n, err)
	}
	for _, c := range []struct{ arg, want string }{
		{"nope", "unknown profile \"nope\""}, // not a name, not a file
		{"nope.json", "does not exist"},      // a path
		{filepath.Join(dir, "x", "p"), "does not exist"},
	} {
		if _, err := Load(c.arg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load(%s) = %v, want %q", c.arg, err, c.want)
		}
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"name": "x", "version": "1", "hash": "md5"}`), 0o644)
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), "hash") {
		t.Errorf("invalid profile: %v; want the field named", err)
	}
}

// profileFile writes a copy of rfc3986 named "mine".
func profileFile(t *testing.T) string {
	p := normalize.MustLookup("rfc3986").Profile()
	p.Name, p.Version = "mine", "2.0.0"
	return tempFile(t, "mine.json", string(p.JSON()))
}

func tempFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
