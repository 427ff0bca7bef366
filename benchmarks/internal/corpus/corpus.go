// Package corpus loads the URL lists the benchmarks run on and derives
// the large deterministic row sets of the SQL benchmarks from them.
//
// The standard corpora come from the shared data directory
// (../shared/data/urls next to the repository, see its PROVENANCE.md):
//
//	web        kasztp.txt + userbait.txt (real web URLs)
//	web_dirty  web_dirty.txt (web through a deterministic "dirtying" generator)
//	all        web + node_files.txt + isaacs_files.txt (adds file: URLs)
//
// userbait.txt has unknown copyright: it is read at run time only, and
// nothing derived from it (row files, databases) is ever written inside
// the repository except aggregate timings.
package corpus

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urlnorm/urlnorm/internal/urllist"
	"github.com/urlnorm/urlnorm/normalize"
)

// Corpus is a named list of URLs.
type Corpus struct {
	Name  string   `json:"name"`
	Files []string `json:"files"` // base names, in load order
	URLs  []string `json:"-"`
}

// Bytes is the corpus size in bytes (URLs only, no line ends).
func (c *Corpus) Bytes() int {
	n := 0
	for _, u := range c.URLs {
		n += len(u)
	}
	return n
}

// Standard lists the standard corpora and the files each is made of.
var Standard = []struct {
	Name  string
	Files []string
}{
	{"web", []string{"kasztp.txt", "userbait.txt"}},
	{"web_dirty", []string{"web_dirty.txt"}},
	{"all", []string{"kasztp.txt", "userbait.txt", "node_files.txt", "isaacs_files.txt"}},
}

// Load reads the named files from dir and concatenates them.
func Load(name, dir string, files ...string) (*Corpus, error) {
	c := &Corpus{Name: name, Files: files}
	for _, f := range files {
		lines, err := urllist.Read(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		c.URLs = append(c.URLs, lines...)
	}
	return c, nil
}

// LoadStandard loads the standard corpora found in dir. It returns the
// names of those whose files are missing instead of failing, so that a
// checkout without the shared data still runs the shipped corpus.
func LoadStandard(dir string) (found []*Corpus, missing []string, err error) {
	for _, s := range Standard {
		c, err := Load(s.Name, dir, s.Files...)
		if errors.Is(err, os.ErrNotExist) {
			missing = append(missing, s.Name)
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		found = append(found, c)
	}
	return found, missing, nil
}

// LoadShipped loads the repository's own sample (testdata/urls: kasztp
// and isaacs_files, both MIT / Apache-2.0), the fallback when the shared
// data is absent.
func LoadShipped(repo string) (*Corpus, error) {
	return Load("shipped", filepath.Join(repo, "testdata", "urls"), "kasztp.txt", "isaacs_files.txt")
}

// LoadFile loads a user-given corpus; its name is the file's base name
// without extension.
func LoadFile(path string) (*Corpus, error) {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return Load(name, filepath.Dir(path), filepath.Base(path))
}

// Accepted returns the URLs n normalizes without error, in order.
func Accepted(urls []string, n *normalize.Normalizer) []string {
	var out []string
	for _, u := range urls {
		if _, err := n.Normalize(u); err == nil {
			out = append(out, u)
		}
	}
	return out
}

// Locate returns the repository root above the working directory and the
// shared data directory: data when not "", else DataDir's choice.
func Locate(data string) (repo, dir string, err error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", "", err
	}
	if repo, err = RepoRoot(wd); err != nil {
		return "", "", err
	}
	if data == "" {
		data = DataDir(repo)
	}
	return repo, data, nil
}

// RepoRoot walks up from dir to the directory holding the urlnorm module's
// go.mod.
func RepoRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		b, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil && strings.HasPrefix(string(b), "module github.com/urlnorm/urlnorm\n") {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("corpus: no urlnorm checkout above %s", dir)
		}
	}
}

// DataDir returns the shared URL data directory: $URLNORM_DATA when set,
// else the first of <repo>/../shared/data/urls (a clone next to shared/)
// and <repo>/../../shared/data/urls (a git worktree one level deeper) that
// exists. It returns "" when none does.
func DataDir(repo string) string {
	if d := os.Getenv("URLNORM_DATA"); d != "" {
		return d
	}
	for _, rel := range []string{"../shared/data/urls", "../../shared/data/urls"} {
		d := filepath.Join(repo, rel)
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	return ""
}
