package udf

import (
	"errors"
	"strings"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/normalize/sourceconfig"
)

// urlnorm_load_profile(name, path_or_text): a user's profile or
// configuration file, usable by name in every function of the process
// (issue 13 item 2). See LoadProfile.

func loadRows() []*Func {
	return []*Func{{Name: "urlnorm_load_profile", Args: []Arg{{Name: "name"}, {Name: "path_or_text"}},
		NoTry: true, Volatile: true,
		Doc:     "loads a profile or configuration file (path, or JSON/YAML text) under a name usable by every function of the process; returns its version",
		Example: `urlnorm_load_profile('keep-slash', '{"name": "x", "version": "1", "path": {"trailing_slash": "keep"}}')`,
		text:    loadProfile}}
}

func loadProfile(_ *Scratch, dst []byte, args []string) ([]byte, bool, error) {
	n, err := LoadProfile(args[0], args[1])
	if err != nil {
		return dst, false, err
	}
	return append(dst, n.Version()...), false, nil
}

// TextName is the file name errors give for a profile passed as text.
const TextName = "<text>"

// LoadProfile makes the profile that pathOrText describes usable as name
// by every function of the process (normalize.Define): a profile file,
// or a source system's configuration file applied to the built-in it
// extends (sourceconfig.Load, as the CLI's --profile and --config read
// them). pathOrText is JSON or YAML text when it starts with '{' or holds
// a newline, else the path of a file. The profile takes name (its own
// "name" is replaced). Loading the same profile under a name again is a
// no-op; a different one is an error: a name never changes its outputs
// while queries use it. Errors name the file (or TextName) and the field.
func LoadProfile(name, pathOrText string) (*normalize.Normalizer, error) {
	// The arguments may alias an engine's vector, reused after the call;
	// the registry keeps the name.
	name = strings.Clone(name)
	var files []sourceconfig.ConfigFile
	if t := strings.TrimLeft(pathOrText, " \t\r\n\ufeff"); strings.HasPrefix(t, "{") || strings.Contains(t, "\n") {
		files = []sourceconfig.ConfigFile{{Name: TextName, Data: []byte(pathOrText)}}
	} else {
		var err error
		if files, err = sourceconfig.ReadConfigFiles(pathOrText); err != nil {
			return nil, withFile(err)
		}
	}
	p, err := sourceconfig.Load(nil, files...)
	if err != nil {
		return nil, withFile(err)
	}
	p.Name = name
	n, err := normalize.New(p)
	if err != nil {
		return nil, withFile(err)
	}
	return normalize.Define(n)
}

// withFile puts the file a configuration error is about (its Input) in
// its reason: the SQL message shows the reason, not the input.
func withFile(err error) error {
	var ne *normalize.Error
	if !errors.As(err, &ne) || ne.Input == "" || strings.Contains(ne.Reason, ne.Input) {
		return err
	}
	e := *ne
	e.Reason = ne.Input
	if ne.Reason != "" {
		e.Reason += ": " + ne.Reason
	}
	return &e
}
