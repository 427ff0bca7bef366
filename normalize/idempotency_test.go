package normalize_test

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/golden"
	"github.com/urlnorm/urlnorm/normalize"
)

// idempotencyInputs: the shipped corpus and its dirty variants, every WPT
// input and href, every golden input.
func idempotencyInputs(t *testing.T) []string {
	in := corpusWithVariants(t)
	for _, c := range loadWPT(t, wptFile) {
		in = append(in, c.Input)
		if c.Href != "" {
			in = append(in, c.Href)
		}
	}
	profiles, _ := golden.Profiles()
	for _, p := range profiles {
		rows, err := golden.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			in = append(in, r.Input)
		}
	}
	return in
}

// TestIdempotency: N(N(x)) == N(x) for every built-in profile over every
// input we may ship (issue 2 "Must show" 3). Set URLNORM_CORPUS to a
// directory of more URL lists (e.g. ../shared/data/urls) to widen it.
func TestIdempotency(t *testing.T) {
	inputs := idempotencyInputs(t)
	for _, name := range normalize.Names() {
		if !normalize.Builtin(name) {
			continue
		}
		n := normalize.MustLookup(name)
		kinds := map[string]int{}
		ok, violations := 0, 0
		for _, x := range inputs {
			y, err := n.Normalize(x)
			if err != nil {
				kinds[normalize.KindOf(err)]++
				continue
			}
			ok++
			z, err := n.Normalize(y)
			if err != nil || z != y {
				violations++
				if violations <= 10 {
					t.Errorf("%s: not idempotent: %q → %q → %q (%v)", name, x, y, z, err)
				}
			}
		}
		t.Logf("%-14s inputs=%d ok=%d violations=%d errors=%s", name, len(inputs), ok, violations, fmtKinds(kinds))
	}
}

func fmtKinds(m map[string]int) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, k+":"+strconv.Itoa(v))
	}
	sort.Strings(parts)
	return "{" + strings.Join(parts, " ") + "}"
}
