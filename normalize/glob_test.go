package normalize

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzGlobMatch compares glob.match, which takes each piece at its first
// place and never backtracks, with the glob's meaning written as a
// regexp: ^piece.*piece…$ (the slow reference). Pieces come from a small
// alphabet so that they overlap and repeat.
func FuzzGlobMatch(f *testing.F) {
	for _, s := range [][2]string{{"a*b*c", "aXbYbZc"}, {"*ab*ba*", "aba"}, {"a*a", "a"}, {"**", ""}, {"/api/*/v*", "/api/1/v2"}, {"*aab*", "aaab"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, glob, s string) {
		if len(glob) > 64 || len(s) > 256 || !utf8.ValidString(glob) || !utf8.ValidString(s) {
			return // the reference regexp works on UTF-8
		}
		pieces := strings.Split(glob, "*")
		for i, p := range pieces {
			pieces[i] = regexp.QuoteMeta(p)
		}
		want := regexp.MustCompile(`(?s)^` + strings.Join(pieces, ".*") + `$`).MatchString(s)
		g := compileGlob(glob)
		if got := g.match(s); got != want {
			t.Fatalf("glob %q matching %q = %v, want %v", glob, s, got, want)
		}
	})
}
