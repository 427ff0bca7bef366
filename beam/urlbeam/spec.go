// Package urlbeam runs urlnorm on Apache Beam (Dataflow, Flink, Spark, or
// locally on prism): sources that read files by the rules of the urlnorm
// command, the transforms Normalize, Hash, Canonicalize and Dedup, sharded
// sinks, and counters. Results are byte-identical to the Go API and to
// `urlnorm`: the transforms call package normalize, the sources call the
// command's own readers (internal/cliio) file by file, and Dedup groups
// with the command's code (internal/dedup).
package urlbeam

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/urlnorm/urlnorm/internal/profileload"
	"github.com/urlnorm/urlnorm/normalize"
)

// Spec names the profile every worker uses. It travels with the pipeline
// (as JSON), so a worker never reads the user's files: a built-in is
// sent by name and version, anything else (a profile file, configuration
// files applied to a base) as the resolved profile's JSON.
type Spec struct {
	// Name is a built-in profile's name, when Profile is empty.
	Name string `json:"name,omitempty"`
	// Version is the profile's version. A worker whose built-in profile
	// has another version (another urlnorm release) fails rather than
	// give other results.
	Version string `json:"version"`
	// Profile is a whole profile, as normalize.Profile.JSON writes it.
	Profile json.RawMessage `json:"profile,omitempty"`
}

// Builtin returns the spec of a built-in profile.
func Builtin(name string) (Spec, error) {
	n, err := normalize.Lookup(name)
	if err != nil {
		return Spec{}, err
	}
	return Spec{Name: name, Version: n.Version()}, nil
}

// FromProfile returns the spec of a profile (a custom one, or a built-in
// edited or extended by configuration files).
func FromProfile(p normalize.Profile) (Spec, error) {
	n, err := normalize.New(p)
	if err != nil {
		return Spec{}, err
	}
	if b, err := normalize.Lookup(p.Name); err == nil && b.Version() == p.Version && string(b.Profile().JSON()) == string(p.JSON()) {
		return Spec{Name: p.Name, Version: p.Version}, nil
	}
	return Spec{Version: n.Version(), Profile: n.Profile().JSON()}, nil
}

// Resolve reads the command line's profile arguments as `urlnorm` does:
// profile is --profile (a built-in name or a file; "" for the default),
// configs the --config files in order, applied on top of profile when it
// was given (profileSet), else on top of the profile their format
// belongs to. It runs at pipeline construction, where the files are.
func Resolve(profile string, profileSet bool, configs []string) (Spec, error) {
	var n *normalize.Normalizer
	var err error
	switch {
	case len(configs) == 0 && profile == "":
		n, err = normalize.Lookup("default")
	case len(configs) == 0:
		n, err = profileload.Load(profile)
	case profileSet:
		n, err = profileload.Select(profile, configs)
	default:
		n, err = profileload.Select("", configs)
	}
	if err != nil {
		return Spec{}, err
	}
	return FromProfile(n.Profile())
}

// Label names the profile for reports: "name@version".
func (s Spec) Label() string {
	n, err := s.Normalizer()
	if err != nil {
		return s.Name + "@" + s.Version
	}
	return profileload.Label(n)
}

var normalizers sync.Map // string(spec JSON) → *normalize.Normalizer

// Normalizer returns the spec's normalizer, compiled once per process.
func (s Spec) Normalizer() (*normalize.Normalizer, error) {
	key, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	if n, ok := normalizers.Load(string(key)); ok {
		return n.(*normalize.Normalizer), nil
	}
	n, err := s.build()
	if err != nil {
		return nil, err
	}
	normalizers.Store(string(key), n)
	return n, nil
}

func (s Spec) build() (*normalize.Normalizer, error) {
	if len(s.Profile) == 0 {
		n, err := normalize.Lookup(s.Name)
		if err != nil {
			return nil, err
		}
		if n.Version() != s.Version {
			return nil, fmt.Errorf("the pipeline was built for profile %s@%s, but this worker's urlnorm has %s: "+
				"run the workers with the binary that built the pipeline (--worker_binary)", s.Name, s.Version, profileload.Label(n))
		}
		return n, nil
	}
	p, err := normalize.ParseProfile("pipeline profile", s.Profile)
	if err != nil {
		return nil, err
	}
	n, err := normalize.New(p)
	if err != nil {
		return nil, err
	}
	if n.Version() != s.Version {
		return nil, fmt.Errorf("the pipeline's profile reads back as version %s, not %s", n.Version(), s.Version)
	}
	return n, nil
}
