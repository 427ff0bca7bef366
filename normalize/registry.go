package normalize

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
)

//go:embed profiles/*.json
var builtinFS embed.FS

var registry = struct {
	sync.RWMutex
	byName map[string]*Normalizer
	loaded bool
}{byName: map[string]*Normalizer{}}

// builtins compiles the embedded profiles once.
var builtins = sync.OnceValues(func() (map[string]*Normalizer, error) {
	entries, err := builtinFS.ReadDir("profiles")
	if err != nil {
		return nil, err
	}
	m := map[string]*Normalizer{}
	for _, e := range entries {
		file := path.Join("profiles", e.Name())
		data, err := builtinFS.ReadFile(file)
		if err != nil {
			return nil, err
		}
		p, err := ParseProfile(file, data)
		if err != nil {
			return nil, err
		}
		if want := strings.TrimSuffix(e.Name(), ".json"); p.Name != want {
			return nil, fmt.Errorf("%s: profile name %q does not match the file name", file, p.Name)
		}
		n, err := New(p)
		if err != nil {
			return nil, err
		}
		m[p.Name] = n
	}
	return m, nil
})

// Lookup returns the normalizer of a built-in or registered profile, or
// of one with an assumed scheme for scheme-less input ("default+https",
// see AssumeSep).
func Lookup(name string) (*Normalizer, error) {
	if n, ok, err := lookupAssumed(name); ok {
		return n, err
	}
	return lookupName(name)
}

// lookupName looks up a built-in or registered profile by its own name.
func lookupName(name string) (*Normalizer, error) {
	b, err := builtins()
	if err != nil {
		return nil, err // a broken embedded profile: caught by the tests
	}
	if n, ok := b[name]; ok {
		return n, nil
	}
	registry.RLock()
	n, ok := registry.byName[name]
	registry.RUnlock()
	if ok {
		return n, nil
	}
	return nil, &Error{Op: "lookup", Input: name, Kind: KindUnknownProfile,
		Reason: "known profiles: " + strings.Join(Names(), ", ")}
}

// MustLookup is Lookup for built-in names; it panics on an unknown name.
func MustLookup(name string) *Normalizer {
	n, err := Lookup(name)
	if err != nil {
		panic(err)
	}
	return n
}

// Register makes n available to Lookup under its profile name (and so to
// the SQL functions). Built-in names cannot be replaced.
func Register(n *Normalizer) error {
	b, err := builtins()
	if err != nil {
		return err
	}
	if _, ok := b[n.Name()]; ok {
		return &Error{Op: "register", Input: n.Name(), Kind: KindConfig, Reason: "a built-in profile has this name"}
	}
	registry.Lock()
	registry.byName[n.Name()] = n
	registry.Unlock()
	return nil
}

// Define registers n under its profile name as Register does, but never
// replaces a registered profile: defining a name again with an equal
// profile is a no-op that returns the registered normalizer, with a
// different one an error (a name whose outputs changed while queries use
// it would split their keys). SQL's urlnorm_load_profile defines.
func Define(n *Normalizer) (*Normalizer, error) {
	if Builtin(n.Name()) {
		return nil, &Error{Op: "define", Input: n.Name(), Kind: KindConfig, Reason: "a built-in profile has this name"}
	}
	registry.Lock()
	defer registry.Unlock()
	if old, ok := registry.byName[n.Name()]; ok {
		a, errA := json.Marshal(old.prof)
		b, errB := json.Marshal(n.prof)
		if errA == nil && errB == nil && bytes.Equal(a, b) {
			return old, nil
		}
		return nil, &Error{Op: "define", Input: n.Name(), Kind: KindConfig,
			Reason: "a different profile (version " + old.prof.Version + ") is already loaded under this name, and a name must not change its outputs while it is in use: load this one (version " + n.prof.Version + ") under another name"}
	}
	registry.byName[n.Name()] = n
	return n, nil
}

// Names lists the built-in and registered profile names, sorted.
func Names() []string {
	b, _ := builtins()
	var names []string
	for name := range b {
		names = append(names, name)
	}
	registry.RLock()
	for name := range registry.byName {
		names = append(names, name)
	}
	registry.RUnlock()
	sort.Strings(names)
	return names
}

// Builtin reports whether name is a built-in profile.
func Builtin(name string) bool {
	b, _ := builtins()
	_, ok := b[name]
	return ok
}
