package normalize_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/normalize/sourceconfig"
)

const profilesDoc = "../docs/profiles.md"

// TestProfilesDoc keeps docs/profiles.md true to the code: every built-in
// profile has its section, its version in the table and every note of its
// JSON verbatim; every "input → output" example in a code block and every
// link-type example holds; the custom-profile YAML loads.
func TestProfilesDoc(t *testing.T) {
	data, err := os.ReadFile(profilesDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, name := range normalize.Names() {
		if !normalize.Builtin(name) {
			continue
		}
		n := normalize.MustLookup(name)
		if !strings.Contains(doc, "\n## "+name+"\n") {
			t.Errorf("docs: no section ## %s", name)
		}
		if row := "| [`" + name + "`](#" + name + ") | " + n.Version() + " |"; !strings.Contains(doc, row) {
			t.Errorf("docs: the profile table lacks %q", row)
		}
		for _, note := range n.Profile().Notes {
			if !strings.Contains(doc, "\n- "+note+"\n") {
				t.Errorf("docs: %s note missing (or out of date): %s", name, note)
			}
		}
	}
	checked := 0
	for _, ex := range docExamples(t, doc) {
		n := ex.normalizer
		got, err := n.Normalize(ex.in)
		if err != nil {
			got = "error " + normalize.KindOf(err)
		}
		if got != ex.want {
			t.Errorf("docs line %d (%s): %q → %q, the code gives %q", ex.line, ex.section, ex.in, ex.want, got)
		}
		if h := ex.hash; h != "" {
			if got, _ := n.Hash(ex.in); got != h {
				t.Errorf("docs line %d: hash of %q is %s, the doc says %s", ex.line, ex.in, got, h)
			}
		}
		checked++
	}
	if checked < 20 {
		t.Errorf("only %d examples found in the doc: the parser of examples is broken", checked)
	}
	linkRow := regexp.MustCompile("^\\| `(https?://[^`]+)` \\| (homepage|section|informative) \\|")
	links := 0
	for _, l := range strings.Split(doc, "\n") {
		if m := linkRow.FindStringSubmatch(l); m != nil {
			links++
			if got, err := normalize.ClassifyURL(m[1]); err != nil || got != m[2] {
				t.Errorf("docs link type: %s is %s, the code gives %q, %v", m[1], m[2], got, err)
			}
		}
	}
	if links < 5 {
		t.Errorf("only %d link-type examples found in the doc", links)
	}
	yamlBlock := between(doc, "## Writing a custom profile", "```yaml\n", "```\n")
	p, err := sourceconfig.ParseProfileYAML("docs custom profile", []byte(yamlBlock))
	if err != nil {
		t.Fatalf("the custom profile in the doc does not load: %v", err)
	}
	if _, err := normalize.New(p); err != nil {
		t.Errorf("the custom profile in the doc does not compile: %v", err)
	}
}

type docExample struct {
	line           int
	section        string
	in, want, hash string
	normalizer     *normalize.Normalizer
}

// docExamples collects the "input  →  output" lines of the doc's plain code
// blocks, each with the normalizer of its section (a profile, or a profile
// with the testdata/config files the section shows).
func docExamples(t *testing.T, doc string) []docExample {
	sections := map[string]func() *normalize.Normalizer{
		"default": builtin("default"), "rfc3986": builtin("rfc3986"), "curiousnow-v0": builtin("curiousnow-v0"),
		"clara": builtin("clara"), "edge-gateway": builtin("edge-gateway"),
		"w3lib": builtin("w3lib"), "safebrowsing": builtin("safebrowsing"), "normalize-url": builtin("normalize-url"),
		"crawler-commons": builtin("crawler-commons"),
		"Curious Now overrides": func() *normalize.Normalizer {
			return configNormalizer(t, "url_normalization_overrides.v0.json")
		},
		"Edge Gateway `tracking_params`": func() *normalize.Normalizer {
			return configNormalizer(t, "edge-gateway.yaml", "hosts.yaml")
		},
	}
	annotation := regexp.MustCompile(`\s{3,}\(([^)]*)\)$`)
	var out []docExample
	section, fenced, inBlock := "", false, false
	var n *normalize.Normalizer
	for i, l := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(l, "```"):
			fenced = !fenced
			inBlock = fenced && l == "```" // plain blocks only, not json or yaml
			continue
		case strings.HasPrefix(l, "## ") || strings.HasPrefix(l, "### "):
			section = strings.TrimLeft(l, "# ")
			n = nil
			if f, ok := sections[section]; ok {
				n = f()
			}
			continue
		}
		in, want, ok := strings.Cut(l, "  →  ")
		if !inBlock || !ok || n == nil {
			continue
		}
		ex := docExample{line: i + 1, section: section, in: strings.TrimSpace(in), normalizer: n}
		want = strings.TrimSpace(want)
		if m := annotation.FindStringSubmatch(want); m != nil {
			want = strings.TrimSpace(want[:len(want)-len(m[0])])
			if h, ok := strings.CutPrefix(m[1], "hash "); ok {
				ex.hash = h
			}
		}
		ex.want = want
		out = append(out, ex)
	}
	return out
}

func builtin(name string) func() *normalize.Normalizer {
	return func() *normalize.Normalizer { return normalize.MustLookup(name) }
}

// between returns the text between open and close after marker.
func between(doc, marker, open, close string) string {
	_, rest, _ := strings.Cut(doc, marker)
	_, rest, _ = strings.Cut(rest, open)
	body, _, _ := strings.Cut(rest, close)
	return body
}

// configNormalizer compiles the testdata/config files names, loaded by
// sourceconfig.Load onto the built-in profile their format extends (the
// loaders' own tests are in sourceconfig).
func configNormalizer(t testing.TB, names ...string) *normalize.Normalizer {
	t.Helper()
	var paths []string
	for _, n := range names {
		paths = append(paths, filepath.Join("..", "testdata", "config", n))
	}
	files, err := sourceconfig.ReadConfigFiles(paths...)
	if err == nil {
		var p normalize.Profile
		if p, err = sourceconfig.Load(nil, files...); err == nil {
			var n *normalize.Normalizer
			if n, err = normalize.New(p); err == nil {
				return n
			}
		}
	}
	t.Fatal(err)
	return nil
}
