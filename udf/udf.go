// Package udf declares urlnorm's SQL functions once, for every engine
// adapter (embedded DuckDB, embedded SQLite, the loadable extensions):
// names, overloads, documentation, NULL and try_ semantics, error text and
// panic containment. Adapters only move values in and out.
//
// Semantics shared by all engines:
//   - every argument is text; a NULL argument gives a NULL result and the
//     function is not called, except that a non-NULL unknown profile name
//     still raises (adapters check it with CheckProfile);
//   - the plain function raises on bad input with an error that names the
//     function, quotes the input and says why, and points to the try_ twin;
//   - the try_ twin returns NULL where the plain function raises on bad
//     data, but an unknown profile name still raises (it is a bug in the
//     query, not in the data);
//   - a panic below a function becomes an error, never a crash.
package udf

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urlnorm/urlnorm/normalize"
)

// Type is a function's result type.
type Type int

const (
	// Text is VARCHAR / TEXT.
	Text Type = iota
	// Canonical is canonicalize_url's record: a STRUCT in DuckDB, JSON
	// text in SQLite (see Fields).
	Canonical
)

// Func is one overload of one SQL function.
type Func struct {
	Name    string   // SQL name, e.g. "try_normalize_url"
	Args    []string // parameter names; every parameter is text
	Returns Type
	Try     bool   // a try_ twin: bad data gives NULL
	Doc     string // one line
	Example string // an SQL expression using the function

	text  func(dst []byte, args []string) ([]byte, error)
	canon func(args []string) (normalize.Result, error)
}

// Funcs is every function overload, try_ twins included, in a stable
// order (overloads of one name are adjacent).
var Funcs = build()

// Lookup returns the overloads of name.
func Lookup(name string) []*Func {
	var fs []*Func
	for _, f := range Funcs {
		if f.Name == name {
			fs = append(fs, f)
		}
	}
	return fs
}

// Names lists the distinct function names in Funcs order.
func Names() []string {
	var names []string
	for i, f := range Funcs {
		if i == 0 || Funcs[i-1].Name != f.Name {
			names = append(names, f.Name)
		}
	}
	return names
}

func build() []*Func {
	plain := []*Func{
		{Name: "normalize_url", Args: []string{"url"}, Doc: "canonical URL under the default profile",
			Example: "normalize_url('HTTP://Example.COM:80/a/../b/?z=1&a=2#x')", text: normalizeURL},
		{Name: "normalize_url", Args: []string{"url", "profile"}, Doc: "canonical URL under a profile",
			Example: "normalize_url('http://sepe.es/HomeSepe/?utm_source=x', 'clara')", text: normalizeURL},
		{Name: "canonical_hash", Args: []string{"url"}, Doc: "hex digest of the canonical URL (default profile: sha256)",
			Example: "canonical_hash('https://example.com/a?b=1')", text: canonicalHash},
		{Name: "canonical_hash", Args: []string{"url", "profile"}, Doc: "hex digest of the canonical URL with the profile's hash",
			Example: "canonical_hash('example.com/page', 'edge-gateway')", text: canonicalHash},
		{Name: "url_link_type", Args: []string{"url"}, Doc: "'homepage', 'section' or 'informative' (clara-policy heuristics)",
			Example: "url_link_type('https://www.sepe.es/HomeSepe/Personas')", text: linkType},
		{Name: "canonicalize_url", Args: []string{"url"}, Returns: Canonical, Doc: "canonical URL with hash, link type and what was removed",
			Example: "canonicalize_url('https://boe.es/buscar?tipo=leyes&p=7#top')", canon: canonicalize},
		{Name: "canonicalize_url", Args: []string{"url", "profile"}, Returns: Canonical, Doc: "canonicalize_url under a profile",
			Example: "canonicalize_url('https://boe.es/buscar?tipo=leyes&p=7#top', 'clara')", canon: canonicalize},
		{Name: "resolve_url", Args: []string{"base", "ref"}, Doc: "a relative reference resolved against its page URL (WHATWG)",
			Example: "resolve_url('https://example.com/a/b.html', '../c?d')", text: resolveURL},
		{Name: "url_profile_version", Args: []string{"profile"}, Doc: "the version string of a profile",
			Example: "url_profile_version('default')", text: profileVersion},
	}
	all := append([]*Func(nil), plain...)
	for _, f := range plain {
		t := *f
		t.Name = "try_" + f.Name
		t.Try = true
		t.Doc = "like " + f.Name + ", but NULL where it raises on bad input"
		t.Example = "try_" + f.Example
		all = append(all, &t)
	}
	return all
}

// CallText runs a Text function on non-NULL arguments, appending the
// result to dst. null reports a NULL result (a try_ function on bad data).
// err is ready to show to the SQL user.
func (f *Func) CallText(dst []byte, args []string) (out []byte, null bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, null, err = dst, false, f.panicError(r, args)
		}
	}()
	out, err = f.text(dst, args)
	if err != nil {
		return f.fail(dst, args, err)
	}
	return out, false, nil
}

// CallCanonical runs a Canonical function on non-NULL arguments.
func (f *Func) CallCanonical(args []string) (res normalize.Result, null bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, null, err = normalize.Result{}, false, f.panicError(r, args)
		}
	}()
	res, err = f.canon(args)
	if err != nil {
		_, null, err = f.fail(nil, args, err)
	}
	return res, null, err
}

// CheckProfile returns the error every call with this profile argument
// raises, or nil (also when f takes no profile argument). Adapters use it
// twice: to validate a constant profile once, when the engine plans a
// query (DuckDB's binder), so that a misspelt profile fails before any row
// is read; and on a row whose url is NULL, which gives NULL unless the
// profile is unknown: an unknown profile always raises.
func (f *Func) CheckProfile(name string) error {
	if len(f.Args) != 2 || f.Args[1] != "profile" {
		return nil
	}
	if _, err := normalize.Lookup(name); err != nil {
		return f.newError(f.Args[0]+", "+quoteArgs([]string{name}), err)
	}
	return nil
}

// ArgTypeError is the error of a call whose argument i is not text (an
// engine that passes numbers as they are, like SQLite): sqlType names the
// engine's type ("INTEGER", "REAL"), v is the value.
func (f *Func) ArgTypeError(i int, sqlType string, v any) error {
	return fmt.Errorf("%s: argument %s must be TEXT, got %s (%v)", f.Name, f.Args[i], sqlType, v)
}

// fail turns err into NULL (try_ on bad data) or an SQL-ready error.
func (f *Func) fail(dst []byte, args []string, err error) ([]byte, bool, error) {
	if f.Try && !errors.Is(err, normalize.ErrConfig) {
		return dst, true, nil
	}
	return dst, false, f.sqlError(args, err)
}

// Error is the error a SQL function raises.
type Error struct {
	Func string // SQL function name
	Kind string // normalize kind code ("invalid_host", "unknown_profile", "internal" …)
	msg  string
	err  error
}

func (e *Error) Error() string { return e.msg }
func (e *Error) Unwrap() error { return e.err }

func (f *Func) sqlError(args []string, err error) error {
	return f.newError(quoteArgs(args), err)
}

// newError builds the error of a call whose arguments read args.
func (f *Func) newError(args string, err error) error {
	kind := normalize.KindOf(err)
	var why string
	var ne *normalize.Error
	if errors.As(err, &ne) {
		why = ne.Kind.Code
		if ne.Reason != "" {
			why += ": " + ne.Reason
		}
		if ne.Err != nil {
			why += ": " + ne.Err.Error()
		}
	} else {
		why = err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s(%s): %s", f.Name, args, why)
	if !f.Try && !errors.Is(err, normalize.ErrConfig) {
		fmt.Fprintf(&b, " (use try_%s to get NULL instead)", f.Name)
	}
	return &Error{Func: f.Name, Kind: kind, msg: b.String(), err: err}
}

func (f *Func) panicError(r any, args []string) error {
	return &Error{Func: f.Name, Kind: "internal",
		msg: fmt.Sprintf("%s(%s): internal error: %v (please report this input)", f.Name, quoteArgs(args), r)}
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		// Quote gives "text" or, truncated, "text"…(N bytes): keep the
		// suffix outside the SQL quotes.
		s := normalize.Quote(a)
		end := strings.LastIndexByte(s, '"')
		q[i] = "'" + strings.ReplaceAll(s[1:end], `\"`, `"`) + "'" + s[end+1:]
	}
	return strings.Join(q, ", ")
}

// DefaultProfile is the profile of the one-argument overloads.
const DefaultProfile = "default"

func profile(args []string) (*normalize.Normalizer, error) {
	name := DefaultProfile
	if len(args) > 1 {
		name = args[1]
	}
	return normalize.Lookup(name)
}

func normalizeURL(dst []byte, args []string) ([]byte, error) {
	n, err := profile(args)
	if err != nil {
		return dst, err
	}
	return n.AppendNormalized(dst, args[0])
}

func canonicalHash(dst []byte, args []string) ([]byte, error) {
	n, err := profile(args)
	if err != nil {
		return dst, err
	}
	return n.AppendHash(dst, args[0])
}

func linkType(dst []byte, args []string) ([]byte, error) {
	t, err := normalize.ClassifyURL(args[0])
	if err != nil {
		return dst, err
	}
	return append(dst, t...), nil
}

func canonicalize(args []string) (normalize.Result, error) {
	n, err := profile(args)
	if err != nil {
		return normalize.Result{}, err
	}
	return n.Canonicalize(args[0])
}

func resolveURL(dst []byte, args []string) ([]byte, error) {
	s, err := normalize.Resolve(args[0], args[1])
	if err != nil {
		return dst, err
	}
	return append(dst, s...), nil
}

func profileVersion(dst []byte, args []string) ([]byte, error) {
	n, err := normalize.Lookup(args[0])
	if err != nil {
		// The profile name is this function's data: try_url_profile_version
		// returns NULL for an unknown name, so it can test for a profile.
		// Keep the reason, not the error: wrapping it would make the
		// result match ErrConfig again (errors.Is follows Unwrap).
		reason := err.Error()
		var ne *normalize.Error
		if errors.As(err, &ne) {
			reason = ne.Reason
		}
		return dst, &normalize.Error{Op: "lookup", Input: args[0], Kind: kindUnknownData, Reason: reason}
	}
	return append(dst, n.Version()...), nil
}

var kindUnknownData = &normalize.Kind{Code: "unknown_profile", Class: normalize.ErrInvalid}
