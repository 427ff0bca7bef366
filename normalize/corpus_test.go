package normalize_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/urllist"
)

// readLines returns the URLs of a list (internal/urllist: BOM, CR and
// empty lines removed).
func readLines(t testing.TB, path string) []string {
	t.Helper()
	lines, err := urllist.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// shippedCorpus returns the URL lists in testdata/urls, plus, when env is
// set, every list in $URLNORM_CORPUS (e.g. ../shared/data/urls).
func shippedCorpus(t testing.TB, env bool) []string {
	files, _ := filepath.Glob("../testdata/urls/*.txt")
	if dir := os.Getenv("URLNORM_CORPUS"); env && dir != "" {
		more, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
		files = append(files, more...)
	}
	if len(files) == 0 {
		t.Fatal("no corpus files in ../testdata/urls")
	}
	var lines []string
	for _, f := range files {
		lines = append(lines, readLines(t, f)...)
	}
	return lines
}

// dirty derives a messier variant of a URL, deterministically from rng:
// the variations real URL lists carry (case, default ports, dot segments,
// needless or lowercase escapes, tracking and unsorted parameters,
// fragments, IDN hosts, trailing dots, backslashes, whitespace).
func dirty(u string, rng *rand.Rand) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	host, path, _ := strings.Cut(rest, "/")
	path = "/" + path
	if rng.IntN(3) == 0 {
		scheme = strings.ToUpper(scheme)
		host = strings.ToUpper(host)
	}
	switch rng.IntN(12) {
	case 0:
		host += "."
	case 1:
		host = "bücher." + host
	case 2:
		host = "ÉXAMPLE-" + host
	}
	if rng.IntN(10) == 0 && !strings.Contains(host, ":") {
		if strings.EqualFold(scheme, "https") {
			host += ":443"
		} else {
			host += ":80"
		}
	}
	if rng.IntN(10) == 0 {
		path = "/a/./b/../" + strings.TrimPrefix(path, "/")
	}
	if rng.IntN(10) == 0 {
		path = strings.Replace(path, "e", "%65", 1)
		path = strings.Replace(path, "/", "/%7e", 1)
	}
	if rng.IntN(15) == 0 {
		path = strings.ReplaceAll(path, "/", `\`)
	}
	params := []string{"z=1", "a=2", "utm_source=news", "fbclid=x1", "gclid=y", "ref=home", "p=3", "id=42", "q=a+b", "q=a%20b", "k", "k=", "jsessionid=AB"}
	if rng.IntN(4) == 0 {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		for i := rng.IntN(4); i >= 0; i-- {
			path += sep + params[rng.IntN(len(params))]
			sep = "&"
		}
	}
	if rng.IntN(7) == 0 {
		path += "#section-" + string(rune('a'+rng.IntN(26)))
	}
	u = scheme + "://" + host + path
	if rng.IntN(20) == 0 {
		u = " \t" + u + "\n" // leading/trailing space, tab and newline are stripped
	}
	return u
}

// corpusWithVariants returns the shipped corpus (and $URLNORM_CORPUS) with
// one dirty variant of every http(s) line.
func corpusWithVariants(t testing.TB) []string {
	return withVariants(shippedCorpus(t, true))
}

func withVariants(lines []string) []string {
	rng := rand.New(rand.NewPCG(2026, 11))
	out := append([]string(nil), lines...)
	for _, l := range lines {
		if strings.HasPrefix(l, "http") {
			out = append(out, dirty(l, rng))
		}
	}
	return out
}
