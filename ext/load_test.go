package ext_test

import (
	"os"
	"strings"
	"testing"
)

// TestShellLoadProfile is sql/load_profile.test as an analyst types it at
// the sqlite3 prompt: one shell process, the profile loaded first, then
// used; loading it again is a no-op, different content raises, and a
// profile file is read by path (issue 13 item 2).
func TestShellLoadProfile(t *testing.T) {
	h, err := openShell(t, extensions(t, ""))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := dir + "/news.yaml"
	if err := os.WriteFile(file, []byte("name: news\nversion: 2.0.0\nhash: sha256\npath: {trailing_slash: keep}\nquery: {order: pair}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	keep := `{"name": "keep-slash", "version": "1.1.0-keep", "hash": "sha256", "path": {"trailing_slash": "keep"}, "query": {"order": "pair"}}`
	out, stderr, err := h.(*shell).script(strings.Join([]string{
		"SELECT urlnorm_load_profile('fx-keep-slash', '" + keep + "') AS v;",
		"SELECT normalize_url('HTTP://Example.com/a/?b=2&a=1', 'fx-keep-slash') AS u;",
		"SELECT urlnorm_load_profile('fx-keep-slash', '" + keep + "') AS again;",
		`SELECT urlnorm_load_profile('fx-keep-slash', '{"name": "x", "version": "2", "hash": "sha256"}') AS different;`,
		"SELECT urlnorm_load_profile('news', '" + file + "') AS file;",
		"SELECT normalize_url('Example.com/a/', 'news+https') AS suffixed;",
	}, "\n") + "\n")
	if err == nil {
		t.Fatalf("the different content did not raise: %s", out)
	}
	for _, want := range []string{`"v":"1.1.0-keep"`, `"u":"http://example.com/a/?a=1&b=2"`, `"again":"1.1.0-keep"`,
		`"file":"2.0.0"`, `"suffixed":"https://example.com/a/"`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in:\n%s", want, out)
		}
	}
	if !strings.Contains(stderr, "already loaded under this name") || strings.Contains(out, `"different"`) {
		t.Errorf("stderr %q, out %q", stderr, out)
	}
}
