// Package profileload turns a command-line profile argument into a
// normalizer: the name of a built-in profile, or the path of a file that
// holds a profile (JSON or YAML, as written by "urlnorm profiles show").
package profileload

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urlnorm/urlnorm/normalize"
)

// maxFile bounds a profile file (a profile is a few kilobytes; a host map
// may be large, but not this large).
const maxFile = 64 << 20

// Load returns the normalizer of a profile name or a profile file. A name
// wins over a file of the same name; a path with a '/' or a .json, .yaml
// or .yml extension is always a file.
func Load(arg string) (*normalize.Normalizer, error) {
	if !looksLikePath(arg) {
		n, err := normalize.Lookup(arg)
		if err == nil {
			return n, nil
		}
		if _, statErr := os.Stat(arg); statErr != nil {
			return nil, fmt.Errorf("unknown profile %q: the profiles are %s (run 'urlnorm profiles'); "+
				"to use a profile file, give its path", arg, strings.Join(normalize.Names(), ", "))
		}
	}
	return LoadFile(arg)
}

func looksLikePath(s string) bool {
	if strings.ContainsRune(s, '/') || strings.ContainsRune(s, filepath.Separator) {
		return true
	}
	switch strings.ToLower(filepath.Ext(s)) {
	case ".json", ".yaml", ".yml":
		return true
	}
	return false
}

// LoadFile reads a profile file: JSON or YAML, by extension (.json, .yaml,
// .yml) or, failing that, by content.
func LoadFile(path string) (*normalize.Normalizer, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	p, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	return normalize.New(p)
}

func parse(path string, data []byte) (normalize.Profile, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		return normalize.ParseProfileYAML(path, data)
	case ".json":
		return normalize.ParseProfile(path, data)
	}
	if t := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(t) > 0 && t[0] == '{' {
		return normalize.ParseProfile(path, data)
	}
	return normalize.ParseProfileYAML(path, data)
}

func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("profile file %s does not exist (for a built-in profile give its name; run 'urlnorm profiles')", path)
		}
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, fmt.Errorf("reading profile file %s: %w", path, err)
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("profile file %s is larger than %d MiB", path, maxFile>>20)
	}
	return data, nil
}

// Label names a normalizer for reports: "name@version".
func Label(n *normalize.Normalizer) string { return n.Name() + "@" + n.Version() }
