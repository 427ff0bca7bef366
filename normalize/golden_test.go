package normalize_test

import (
	"testing"

	"github.com/urlnorm/urlnorm/internal/golden"
	"github.com/urlnorm/urlnorm/normalize"
)

// TestGolden checks every row of testdata/golden/<profile>.tsv, and that
// every built-in profile has a golden file.
func TestGolden(t *testing.T) {
	profiles, err := golden.Profiles()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, p := range profiles {
		have[p] = true
	}
	for _, name := range normalize.Names() {
		if normalize.Builtin(name) && !have[name] {
			t.Errorf("built-in profile %q has no testdata/golden/%s.tsv", name, name)
		}
	}
	for _, p := range profiles {
		n, err := normalize.Lookup(p)
		if err != nil {
			t.Errorf("golden file for unknown profile: %v", err)
			continue
		}
		rows, err := golden.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			got, err := n.Normalize(r.Input)
			switch {
			case r.WantErr != "":
				if normalize.KindOf(err) != r.WantErr {
					t.Errorf("%s [%s] %s(%q) = %q, %v; want error %s", r, r.Comment, p, r.Input, got, err, r.WantErr)
				}
			case err != nil || got != r.Want:
				t.Errorf("%s [%s] %s(%q) = %q, %v; want %q", r, r.Comment, p, r.Input, got, err, r.Want)
			}
		}
	}
}
