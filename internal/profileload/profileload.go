// Package profileload turns the command line's profile arguments into a
// normalizer: the name of a built-in profile, a profile file (JSON or
// YAML, as "urlnorm profiles show" writes it), or the configuration files
// the source systems' users already have — curious-now overrides JSON,
// Edge Gateway tracking_params YAML, clara host map / language JSON —
// applied on top of a base profile (sourceconfig.Load): it adds what a
// command line needs, names and paths, bounded reads and messages.
package profileload

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/normalize/sourceconfig"
)

// maxFile bounds a profile or configuration file (a profile is a few
// kilobytes; a host map may be large, but not this large).
const maxFile = 64 << 20

// Load returns the normalizer of a profile name, a profile file, or a
// configuration file (applied to the built-in profile it belongs to:
// curiousnow-v0, edge-gateway or clara). A name wins over a file of the
// same name; a path with a '/' or a .json, .yaml or .yml extension is
// always a file.
func Load(arg string) (*normalize.Normalizer, error) {
	if !looksLikePath(arg) {
		n, err := normalize.Lookup(arg)
		if err == nil {
			return n, nil
		}
		if _, statErr := os.Stat(arg); statErr != nil {
			return nil, fmt.Errorf("unknown profile %q: the profiles are %s (run 'urlnorm profiles'); "+
				"to use a profile or configuration file, give its path", arg, strings.Join(normalize.Names(), ", "))
		}
	}
	return Select("", []string{arg})
}

// Select resolves --profile and --config. base is the --profile argument
// when it was given ("" otherwise); configs are the --config files, in
// order (see sourceconfig.Load: at most one profile file, first, then
// configuration files of one format, applied in order to the base: the
// profile file, else --profile, else the built-in the format belongs to).
func Select(base string, configs []string) (*normalize.Normalizer, error) {
	var bp *normalize.Profile
	if base != "" {
		n, err := Load(base)
		if err != nil {
			return nil, err
		}
		if len(configs) == 0 {
			return n, nil
		}
		p := n.Profile()
		bp = &p
	} else if len(configs) == 0 {
		return normalize.Lookup("default")
	}
	files := make([]sourceconfig.ConfigFile, 0, len(configs))
	for _, path := range configs {
		data, err := readFile(path)
		if err != nil {
			return nil, err
		}
		files = append(files, sourceconfig.ConfigFile{Name: path, Data: data})
	}
	p, err := sourceconfig.Load(bp, files...)
	if err != nil {
		return nil, err
	}
	return normalize.New(p)
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
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("%s is larger than %d MiB", path, maxFile>>20)
	}
	return data, nil
}

// Label names a normalizer for reports: "name@version".
func Label(n *normalize.Normalizer) string { return n.Name() + "@" + n.Version() }
