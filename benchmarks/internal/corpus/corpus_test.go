package corpus

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

func TestLoadStandardReportsMissing(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"kasztp.txt", "userbait.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("http://"+f+"/\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found, missing, err := LoadStandard(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].Name != "web" || len(found[0].URLs) != 2 {
		t.Fatalf("found %+v, want web with 2 URLs", found)
	}
	if !slices.Equal(missing, []string{"web_dirty", "all"}) {
		t.Fatalf("missing = %q", missing)
	}
}

// shipped loads the repository's own sample.
func shipped(t *testing.T) *Corpus {
	t.Helper()
	repo, err := RepoRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadShipped(repo)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestShippedFromRepoRoot(t *testing.T) {
	c := shipped(t)
	// testdata/urls: kasztp (48,009 URLs after cleaning) + isaacs_files (6,207).
	if len(c.URLs) < 50000 || c.Bytes() < 2_000_000 {
		t.Fatalf("shipped corpus: %d URLs, %d bytes", len(c.URLs), c.Bytes())
	}
}

func TestAccepted(t *testing.T) {
	got := Accepted([]string{"https://a.example/", `"http://quoted`, "", "http://b.example/x"}, normalize.MustLookup("default"))
	if !slices.Equal(got, []string{"https://a.example/", "http://b.example/x"}) {
		t.Fatalf("Accepted = %q", got)
	}
}

func TestSplitURL(t *testing.T) {
	for _, c := range []struct{ in, head, query, frag string }{
		{"http://a/b", "http://a/b", "", ""},
		{"http://a/b?x=1", "http://a/b", "?x=1", ""},
		{"http://a/b#f?x", "http://a/b", "", "#f?x"}, // '?' inside the fragment is not a query
		{"http://a/b?x#f", "http://a/b", "?x", "#f"},
	} {
		h, q, f := splitURL(c.in)
		if h != c.head || q != c.query || f != c.frag {
			t.Errorf("splitURL(%q) = %q %q %q", c.in, h, q, f)
		}
	}
}

// The generator's promise: rows are distinct as text, and the default
// profile folds each group of four repeats into one URL.
func TestRowsFoldUnderDefault(t *testing.T) {
	n := normalize.MustLookup("default")
	base := Accepted(shipped(t).URLs[:2000], n)
	rows := Rows{Base: base}
	const repeats = 9 // repeat 0, then k=1 (repeats 1–4) and k=2 (5–8)
	text := map[string]bool{}
	canon := map[string]bool{}
	for i := 0; i < repeats*len(base); i++ {
		r := rows.Row(i)
		if r != rows.Row(i) {
			t.Fatalf("row %d not deterministic", i)
		}
		text[r] = true
		out, err := n.Normalize(r)
		if err != nil {
			t.Fatalf("row %d %q: %v", i, r, err)
		}
		canon[out] = true
	}
	if len(text) < repeats*len(base)*99/100 {
		t.Errorf("%d distinct rows of %d, want nearly all", len(text), repeats*len(base))
	}
	baseCanon := map[string]bool{}
	for _, u := range base {
		out, _ := n.Normalize(u)
		baseCanon[out] = true
	}
	// Each base URL gives its own canonical form plus one per k (k = 1, 2),
	// up to a few base URLs that collide or whose authority upper-casing
	// touches userinfo.
	want := 3 * len(baseCanon)
	if len(canon) < want*99/100 || len(canon) > want*101/100 {
		t.Errorf("%d distinct canonical rows, want ≈ %d", len(canon), want)
	}
}
