package sourceconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urlnorm/urlnorm/normalize"
)

// Format is a kind of file Load reads: a whole profile, or one source
// system's configuration format, which extends a base profile.
type Format struct {
	Name string // for messages: "profile", "clara configuration file", …
	Base string // the built-in profile the format extends; "" for a profile
	load func(normalize.Profile, ...ConfigFile) (normalize.Profile, error)
}

// The formats Detect tells apart.
var (
	FormatProfile     = &Format{Name: "profile"}
	FormatCuriousNow  = &Format{"curious-now overrides file", "curiousnow-v0", LoadCuriousNowOverrides}
	FormatEdgeGateway = &Format{"Edge Gateway configuration file", "edge-gateway", LoadEdgeGatewayYAML}
	FormatClara       = &Format{"clara configuration file", "clara", LoadClaraConfig}
)

// Detect tells the format of f by its top-level keys: a profile has
// "name", a curious-now overrides file "overrides", an Edge Gateway file
// "tracking_params" or a "hosts" list, a clara file a "hosts" map or
// "language". f may be JSON or YAML.
func Detect(f ConfigFile) (*Format, error) {
	c := cfg{f.Name}
	js := f.Data
	if !looksLikeJSON(f.Data) {
		var err error
		if js, err = YAMLToJSON(f.Data); err != nil {
			return nil, c.fail("", fmt.Errorf("neither JSON nor YAML: %v", err))
		}
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(js, &top); err != nil {
		return nil, c.fail("", fmt.Errorf("want a JSON or YAML object, a profile or a configuration file: %v", err))
	}
	hosts := bytes.TrimSpace(top["hosts"])
	switch {
	case top["name"] != nil:
		return FormatProfile, nil
	case top["overrides"] != nil:
		return FormatCuriousNow, nil
	case top["tracking_params"] != nil || bytes.HasPrefix(hosts, []byte("[")):
		return FormatEdgeGateway, nil
	case bytes.HasPrefix(hosts, []byte("{")) || top["language"] != nil:
		return FormatClara, nil
	}
	return nil, c.failf("", "cannot tell what it configures: a profile has \"name\", a curious-now overrides file "+
		"\"overrides\", an Edge Gateway file \"tracking_params\" or a \"hosts\" list, a clara file a \"hosts\" map or \"language\"")
}

// Load returns the profile that files describe, whatever their format,
// for the callers that take profiles from users by path or as text (the
// CLI's --profile and --config, SQL, pipelines): at most one profile file
// (JSON or YAML), first, then configuration files of one format, applied
// in order on top of the profile file, else base, else the built-in
// profile their format extends. base may be nil; with no configuration
// files the result is the profile file, else base.
func Load(base *normalize.Profile, files ...ConfigFile) (normalize.Profile, error) {
	var format *Format
	var configs []ConfigFile
	for _, f := range files {
		fk, err := Detect(f)
		if err != nil {
			return normalize.Profile{}, err
		}
		c := cfg{f.Name}
		switch {
		case fk == FormatProfile && base != nil:
			return normalize.Profile{}, c.failf("", "a whole profile: give it alone, not on top of %s", base.Name)
		case fk == FormatProfile && format != nil:
			return normalize.Profile{}, c.failf("", "a whole profile: give it before the configuration files that extend it")
		case fk == FormatProfile:
			p, err := ParseProfileFile(f)
			if err != nil {
				return normalize.Profile{}, err
			}
			base = &p
		case format != nil && fk != format:
			return normalize.Profile{}, c.failf("", "%s (%s) and %s (%s) are of different formats: give one format per run",
				configs[0].Name, format.Name, f.Name, fk.Name)
		default:
			format = fk
			configs = append(configs, f)
		}
	}
	switch {
	case format != nil && base == nil:
		b, err := normalize.Lookup(format.Base)
		if err != nil {
			return normalize.Profile{}, err
		}
		return format.load(b.Profile(), configs...)
	case format != nil:
		return format.load(*base, configs...)
	case base != nil:
		return *base, nil
	}
	return normalize.Profile{}, &normalize.Error{Op: "load config", Kind: normalize.KindConfig, Reason: "no profile and no configuration file"}
}

// ParseProfileFile reads a profile file: YAML when its name ends in .yaml
// or .yml, JSON when it ends in .json, otherwise by content.
func ParseProfileFile(f ConfigFile) (normalize.Profile, error) {
	switch ext := strings.ToLower(filepath.Ext(f.Name)); {
	case ext == ".yaml" || ext == ".yml":
		return ParseProfileYAML(f.Name, f.Data)
	case ext == ".json" || looksLikeJSON(f.Data):
		return normalize.ParseProfile(f.Name, f.Data)
	}
	return ParseProfileYAML(f.Name, f.Data)
}

// looksLikeJSON reports whether data starts with a JSON object.
func looksLikeJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	return len(t) > 0 && t[0] == '{'
}
