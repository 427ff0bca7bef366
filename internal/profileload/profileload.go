// Package profileload turns the command line's profile arguments into a
// normalizer: the name of a built-in profile, a profile file (JSON or
// YAML, as "urlnorm profiles show" writes it), or the configuration files
// the source systems' users already have — curious-now overrides JSON,
// Edge Gateway tracking_params YAML, clara host map / language JSON —
// applied on top of a base profile (normalize.Load… loaders).
package profileload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urlnorm/urlnorm/normalize"
)

// maxFile bounds a profile or configuration file (a profile is a few
// kilobytes; a host map may be large, but not this large).
const maxFile = 64 << 20

// kind is a kind of file: a whole profile, or a configuration format and
// the loader that applies it to a base profile.
type kind struct {
	name string // for messages
	base string // the built-in it extends when no base is given
	load func(normalize.Profile, ...normalize.ConfigFile) (normalize.Profile, error)
}

var (
	kindProfile    = &kind{name: "profile"}
	kindCuriousNow = &kind{"curious-now overrides file", "curiousnow-v0", normalize.LoadCuriousNowOverrides}
	kindEdge       = &kind{"Edge Gateway configuration file", "edge-gateway", normalize.LoadEdgeGatewayYAML}
	kindClara      = &kind{"clara configuration file", "clara", normalize.LoadClaraConfig}
)

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
// order: at most one profile file, first, then configuration files of one
// format, applied in order to the base (the profile file, else --profile,
// else the built-in the format belongs to).
func Select(base string, configs []string) (*normalize.Normalizer, error) {
	var n *normalize.Normalizer
	if base != "" {
		var err error
		if n, err = Load(base); err != nil {
			return nil, err
		}
	}
	var k *kind
	var files []normalize.ConfigFile
	for _, path := range configs {
		data, err := readFile(path)
		if err != nil {
			return nil, err
		}
		fk, err := sniff(path, data)
		if err != nil {
			return nil, err
		}
		switch {
		case fk == kindProfile && n != nil:
			return nil, fmt.Errorf("%s is a whole profile: give it alone, not on top of %s", path, base)
		case fk == kindProfile && k != nil:
			return nil, fmt.Errorf("%s is a whole profile: give it before the configuration files that extend it", path)
		case fk == kindProfile:
			if n, err = parseProfile(path, data); err != nil {
				return nil, err
			}
			base = path
		case k != nil && fk != k:
			return nil, fmt.Errorf("%s (%s) and %s (%s) are of different formats: give one format per run", files[0].Name, k.name, path, fk.name)
		default:
			k = fk
			files = append(files, normalize.ConfigFile{Name: path, Data: data})
		}
	}
	if k == nil {
		if n == nil {
			return normalize.Lookup("default")
		}
		return n, nil
	}
	if n == nil {
		n = normalize.MustLookup(k.base)
	}
	p, err := k.load(n.Profile(), files...)
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

// sniff tells the kind of a file by its top-level keys.
func sniff(path string, data []byte) (*kind, error) {
	js := data
	if t := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(t) == 0 || t[0] != '{' {
		var err error
		if js, err = normalize.YAMLToJSON(data); err != nil {
			return nil, fmt.Errorf("%s is neither JSON nor YAML: %v", path, err)
		}
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(js, &top); err != nil {
		return nil, fmt.Errorf("%s: want a JSON or YAML object (a profile or a configuration file): %v", path, err)
	}
	hosts := bytes.TrimSpace(top["hosts"])
	switch {
	case top["name"] != nil:
		return kindProfile, nil
	case top["overrides"] != nil:
		return kindCuriousNow, nil
	case top["tracking_params"] != nil || bytes.HasPrefix(hosts, []byte("[")):
		return kindEdge, nil
	case bytes.HasPrefix(hosts, []byte("{")) || top["language"] != nil:
		return kindClara, nil
	}
	return nil, fmt.Errorf("%s: cannot tell what it configures: a profile has \"name\", a curious-now overrides file "+
		"\"overrides\", an Edge Gateway file \"tracking_params\" or a \"hosts\" list, a clara file a \"hosts\" map or \"language\"", path)
}

// parseProfile reads a profile: JSON or YAML, by extension (.json, .yaml,
// .yml) or, failing that, by content.
func parseProfile(path string, data []byte) (*normalize.Normalizer, error) {
	var p normalize.Profile
	var err error
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case ext == ".yaml" || ext == ".yml":
		p, err = normalize.ParseProfileYAML(path, data)
	case ext == ".json":
		p, err = normalize.ParseProfile(path, data)
	default:
		if t := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(t) > 0 && t[0] == '{' {
			p, err = normalize.ParseProfile(path, data)
		} else {
			p, err = normalize.ParseProfileYAML(path, data)
		}
	}
	if err != nil {
		return nil, err
	}
	return normalize.New(p)
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
