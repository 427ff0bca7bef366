package normalize

import (
	"strings"
	"sync"
)

// A profile name may end in "+SCHEME" ("default+https"): the profile NAME
// with scheme.assume set to SCHEME, so that scheme-less data
// ("www.example.com/page") is canonicalized with any profile's rules
// without writing a profile (issue 13), wherever a profile name goes (SQL,
// the CLI, Lookup). The derived profile keeps NAME's rules: an input with
// a scheme gives NAME's output, but for "host:port…", which NAME reads as
// the scheme "host". Its version is NAME's with semver build metadata
// ("1.0.0+assume.https"), so stored keys say how they were made.

// AssumeSep separates a profile name from the scheme it assumes.
const AssumeSep = "+"

// assumed caches derived normalizers by name, with the base they were
// derived from (a user profile registered again under its name makes the
// derived one stale).
var assumed sync.Map // name → assumedEntry

type assumedEntry struct{ base, n *Normalizer }

// assumeAt is where the "+SCHEME" of a profile name starts, or -1.
func assumeAt(name string) int { return strings.LastIndex(name, AssumeSep) }

// Fixed reports whether name is a built-in profile or a built-in's
// "NAME+SCHEME" variant: Lookup gives such a name the same normalizer
// (or the same error) every time, so a caller may keep its answer. A
// registered profile is not fixed: Register may replace it.
func Fixed(name string) bool {
	if i := assumeAt(name); i >= 0 {
		name = name[:i]
	}
	return Builtin(name)
}

// lookupAssumed returns the normalizer of "NAME+SCHEME"; ok is false when
// name has no AssumeSep.
func lookupAssumed(name string) (n *Normalizer, ok bool, err error) {
	i := assumeAt(name)
	if i < 0 {
		return nil, false, nil
	}
	base, err := lookupName(name[:i])
	if err != nil {
		return nil, true, err
	}
	if e, hit := assumed.Load(name); hit && e.(assumedEntry).base == base {
		return e.(assumedEntry).n, true, nil
	}
	// name may alias memory the caller reuses (an engine's vector): the
	// cache keeps a copy.
	name = strings.Clone(name)
	scheme := name[i+len(AssumeSep):]
	p := base.Profile()
	p.Scheme.Assume = scheme
	p.Version = withBuild(p.Version, "assume."+scheme)
	if n, err = New(p); scheme == "" || err != nil {
		return nil, true, &Error{Op: "lookup", Input: name, Kind: KindUnknownProfile,
			Reason: Quote(AssumeSep+scheme) + " must name the scheme to assume for scheme-less input: http, https, ws, wss or ftp"}
	}
	n.prof.Name = name // a name no profile file may take ('+'): made here only
	assumed.Store(name, assumedEntry{base, n})
	return n, true, nil
}

// withBuild appends semver build metadata to a version.
func withBuild(version, build string) string {
	if strings.Contains(version, "+") {
		return version + "." + build
	}
	return version + "+" + build
}
