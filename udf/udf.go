// Package udf declares urlnorm's SQL functions once, for every host that
// runs them (embedded DuckDB and SQLite, the two loadable extensions, and
// any other: a Python or Beam binding calls udf alone): names, overloads,
// argument roles, result types, documentation, and the whole per-row
// contract. Adapters only convert engine values to and from udf's.
//
// The row contract (Func.Text, Func.Value, Func.Int):
//   - every argument is text; a row with a NULL argument gives NULL and
//     the implementation is not called, except that a non-NULL argument
//     naming a profile (Arg.Profile) that does not exist still raises;
//   - the plain function raises on bad input with an error (*Error) that
//     names the function, quotes the input and says why, and points to the
//     try_ twin;
//   - the try_ twin returns NULL where the plain function raises on bad
//     data, but an unknown profile still raises (it is a bug in the query,
//     not in the data);
//   - a panic below a function becomes an error (kind "internal"), never a
//     crash of the host; hosts use PanicError for their own glue, so every
//     panic reads the same.
//
// Result types are sqltype types (VARCHAR, BOOLEAN, INTEGER, LIST, STRUCT,
// MAP) declared once per function (Func.Returns); values cross to the
// adapters in the forms of package sqltype, or as text (Func.Text: JSON
// for composites) for hosts without composite types such as SQLite.
package udf

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/urlnorm/urlnorm/internal/sqltype"
	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/version"
)

// SQLType is a result type; see package sqltype for its value forms.
type SQLType = sqltype.Type

// Member is one member of a STRUCT type.
type Member = sqltype.Member

// Entry is one key/value pair of a MAP value.
type Entry = sqltype.Entry

// ParseSQLType parses a type in DuckDB's spelling (VARCHAR, T[],
// STRUCT(name T, …), MAP(K, V) …).
func ParseSQLType(s string) (*SQLType, error) { return sqltype.Parse(s) }

// Result types of the functions.
var (
	Varchar = sqltype.MustParse("VARCHAR")
	Boolean = sqltype.MustParse("BOOLEAN")
	Integer = sqltype.MustParse("INTEGER")
	// Bigint is a signed 64-bit integer: an INTEGER in SQLite.
	Bigint = sqltype.MustParse("BIGINT")
	// RecordType is canonicalize_url's record, normalize.ResultFields as a
	// STRUCT: a STRUCT in DuckDB, JSON text in SQLite.
	RecordType = recordType()
	// ListType is a list of text: a VARCHAR[] in DuckDB, a JSON array in
	// SQLite.
	ListType = sqltype.MustParse("VARCHAR[]")
)

func recordType() *SQLType {
	t := &SQLType{}
	for _, f := range normalize.ResultFields {
		t.Members = append(t.Members, &Member{Name: f.Name, Type: sqltype.MustParse(f.Type)})
	}
	return t
}

// Arg is one parameter. Every parameter is text (VARCHAR / TEXT).
type Arg struct {
	Name string
	// Profile marks a profile name that selects the rules: an unknown one
	// raises in the try_ twin too, and even on a row whose other
	// arguments are NULL (CheckArg).
	Profile bool
	// Check, when set, validates an argument that names one of a fixed
	// set of choices (canonical_hash's algorithm): like an unknown
	// profile, a wrong name raises in the try_ twin too and on rows whose
	// other arguments are NULL, and adapters check a constant one when the
	// query is planned (CheckArg). Its error must match ErrConfig.
	Check func(v string) error
}

// Func is one overload of one SQL function: one row of the table.
type Func struct {
	Name    string // SQL name, e.g. "try_normalize_url"
	Args    []Arg  // 0 to MaxArgs text parameters
	Returns *SQLType
	Try     bool // a try_ twin: bad data gives NULL
	// NoTry marks a function that never raises on data (urlnorm_version,
	// is_valid_url): it has no try_ twin.
	NoTry bool
	// Volatile marks a function with a side effect (urlnorm_load_profile):
	// engines must call it on every row and never fold or cache it. Every
	// other function is deterministic.
	Volatile bool
	Doc      string // one line
	Example  string // an SQL expression using the function

	// Exactly one implementation, called on rows without NULL arguments:
	// text for a VARCHAR result (appended to dst, no allocation); build
	// for a LIST, STRUCT or MAP written member by member (BuildFunc);
	// integer for a BOOLEAN, INTEGER or BIGINT (IntFunc: no boxing);
	// value for any other (sqltype's boxed value form; nil is NULL).
	text    textImpl
	build   buildImpl
	integer intImpl
	value   ValueFunc
}

// The implementations' forms inside Func: TextFunc, BuildFunc and IntFunc
// with the row's Scratch first, which the part functions parse their URL
// with (nil: a host evaluating one row at a time; see Scratch).
type (
	textImpl  func(s *Scratch, dst []byte, args []string) (out []byte, null bool, err error)
	buildImpl func(s *Scratch, b Builder, args []string) (null bool, err error)
	intImpl   func(s *Scratch, args []string) (n int64, null bool, err error)
)

// TextFunc computes a VARCHAR result, appended to dst; null reports NULL
// (a part the input does not have).
type TextFunc func(dst []byte, args []string) (out []byte, null bool, err error)

// IntFunc computes a BOOLEAN (0 or 1), INTEGER or BIGINT result; null
// reports NULL. Unlike a ValueFunc's, its result is not boxed in an
// interface value, which costs an allocation per row for most int64s
// (canonical_key's).
type IntFunc func(args []string) (n int64, null bool, err error)

// ValueFunc computes a result of any type in sqltype's value form; nil is
// NULL.
type ValueFunc func(args []string) (any, error)

// MaxArgs is the most arguments a function takes; hosts size their
// per-call buffers with it.
const MaxArgs = 8

// NewText declares a VARCHAR function outside Funcs with the same row
// contract (tests and custom builds use it).
func NewText(name string, args []Arg, fn TextFunc) *Func {
	return &Func{Name: name, Args: args, Returns: Varchar,
		text: func(_ *Scratch, dst []byte, args []string) ([]byte, bool, error) { return fn(dst, args) }}
}

// NewValue declares a function of any result type outside Funcs with the
// same row contract.
func NewValue(name string, args []Arg, returns *SQLType, fn ValueFunc) *Func {
	return &Func{Name: name, Args: args, Returns: returns, value: fn}
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

// Overload returns the overload of name with nargs arguments, or nil.
func Overload(name string, nargs int) *Func {
	for _, f := range Lookup(name) {
		if len(f.Args) == nargs {
			return f
		}
	}
	return nil
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

// ArgNames returns f's parameter names.
func (f *Func) ArgNames() []string {
	names := make([]string, len(f.Args))
	for i, a := range f.Args {
		names[i] = a.Name
	}
	return names
}

// DefaultProfile is the profile of the overloads without a profile
// argument.
const DefaultProfile = "default"

// build is the table. A function is one row; its try_ twin is derived
// unless it never raises on data (NoTry). Returns defaults to VARCHAR.
func build() []*Func {
	url, profile := Arg{Name: "url"}, Arg{Name: "profile", Profile: true}
	algorithm := Arg{Name: "algorithm", Check: normalize.CheckHashAlgorithm}
	plain := []*Func{
		{Name: "normalize_url", Args: []Arg{url}, Doc: "canonical URL under the default profile",
			Example: "normalize_url('HTTP://Example.COM:80/a/../b/?z=1&a=2#x')", text: normalizeURL},
		{Name: "normalize_url", Args: []Arg{url, profile}, Doc: "canonical URL under a profile",
			Example: "normalize_url('http://sepe.es/HomeSepe/?utm_source=x', 'clara')", text: normalizeURL},
		{Name: "canonical_hash", Args: []Arg{url}, Doc: "hex digest of the canonical URL (default profile: sha256)",
			Example: "canonical_hash('https://example.com/a?b=1')", text: canonicalHash},
		{Name: "canonical_hash", Args: []Arg{url, profile}, Doc: "hex digest of the canonical URL with the profile's hash",
			Example: "canonical_hash('example.com/page', 'edge-gateway')", text: canonicalHash},
		{Name: "canonical_hash", Args: []Arg{url, profile, algorithm}, Doc: "hex digest of the canonical URL with the hash named: 'sha256' (64 digits) or 'xxhash64' (16)",
			Example: "canonical_hash('https://example.com/a?b=1', 'default', 'xxhash64')", text: canonicalHash},
		{Name: "canonical_key", Args: []Arg{url}, Returns: Bigint, Doc: "BIGINT join key: xxhash64 (seed 0) of the canonical URL (default profile), its 64 bits read as a signed integer",
			Example: "canonical_key('https://example.com/a?b=1')", integer: canonicalKey},
		{Name: "canonical_key", Args: []Arg{url, profile}, Returns: Bigint, Doc: "canonical_key under a profile",
			Example: "canonical_key('HTTPS://Example.com:443/page#top', 'edge-gateway')", integer: canonicalKey},
		{Name: "url_link_type", Args: []Arg{url}, Doc: "'homepage', 'section' or 'informative' (clara-policy heuristics)",
			Example: "url_link_type('https://www.sepe.es/HomeSepe/Personas')", text: linkType},
		{Name: "canonicalize_url", Args: []Arg{url}, Returns: RecordType, Doc: "canonical URL with hash, link type and what was removed",
			Example: "canonicalize_url('https://boe.es/buscar?tipo=leyes&p=7#top')", build: canonicalize},
		{Name: "canonicalize_url", Args: []Arg{url, profile}, Returns: RecordType, Doc: "canonicalize_url under a profile",
			Example: "canonicalize_url('https://boe.es/buscar?tipo=leyes&p=7#top', 'clara')", build: canonicalize},
		{Name: "safebrowsing_expressions", Args: []Arg{url}, Returns: ListType, Doc: "the host-suffix / path-prefix expressions Safe Browsing looks up, of the URL canonicalized by the safebrowsing profile",
			Example: "safebrowsing_expressions('http://a.b.c/1/2.html?param=1')", build: safeBrowsingExpressions},
		{Name: "resolve_url", Args: []Arg{{Name: "base"}, {Name: "ref"}}, Doc: "a relative reference resolved against its page URL (WHATWG)",
			Example: "resolve_url('https://example.com/a/b.html', '../c?d')", text: resolveURL},
		// The profile name is this function's data, not a rule selector:
		// try_url_profile_version tests whether a profile exists.
		{Name: "url_profile_version", Args: []Arg{{Name: "profile"}}, Doc: "the version string of a profile",
			Example: "url_profile_version('default')", text: profileVersion},
		{Name: "urlnorm_version", NoTry: true, Doc: "the urlnorm release version (semver), as the CLI and the packages report it",
			Example: "urlnorm_version()", text: releaseVersion},
	}
	plain = append(plain, partRows(url, profile)...)
	plain = append(plain, loadRows()...)
	all := append([]*Func(nil), plain...)
	for _, f := range plain {
		if f.NoTry {
			continue
		}
		t := *f
		t.Name = "try_" + f.Name
		t.Try = true
		t.Doc = "like " + f.Name + ", but NULL where it raises on bad input"
		t.Example = "try_" + f.Example
		all = append(all, &t)
	}
	seen := map[string]bool{}
	for _, f := range all {
		if f.Returns == nil {
			f.Returns = Varchar
		}
		err := f.check()
		if overload := fmt.Sprintf("%s/%d", f.Name, len(f.Args)); seen[overload] {
			err = fmt.Errorf("two overloads %s", overload)
		} else {
			seen[overload] = true
		}
		if err != nil {
			panic("udf: " + err.Error()) // caught by the tests
		}
	}
	return all
}

func profileOf(args []string) (*normalize.Normalizer, error) {
	if len(args) > 1 {
		return lookupProfile(args[1])
	}
	return defaultProfile()
}

// lastProfile is the built-in profile a row named last: a column of rows
// names the same profile again and again, and comparing the name costs a
// few nanoseconds where normalize.Lookup costs 20–40 (a map, the suffix
// syntax). A built-in name, and a built-in's "+SCHEME" variant, always
// resolve to the same rules, so the cache is never stale; a user profile
// is not cached (normalize.Register may replace it), nor an unknown name
// (it may be loaded later).
var lastProfile atomic.Pointer[namedProfile]

type namedProfile struct {
	name string
	n    *normalize.Normalizer
}

func lookupProfile(name string) (*normalize.Normalizer, error) {
	if p := lastProfile.Load(); p != nil && p.name == name {
		return p.n, nil
	}
	n, err := normalize.Lookup(name)
	if err == nil && normalize.Fixed(name) {
		lastProfile.Store(&namedProfile{name: strings.Clone(name), n: n})
	}
	return n, err
}

// defaultProfile is looked up once: a built-in never changes, and the
// lookup by name (map, registry lock, profile-name suffixes) costs about
// a tenth of normalize_url's row in the DuckDB extension. An atomic load
// where sync.OnceValues cost 3 ns a row (its Once and a closure call);
// two rows racing on the first lookup both store the same built-in.
func defaultProfile() (*normalize.Normalizer, error) {
	if n := defaultNormalizer.Load(); n != nil {
		return n, nil
	}
	return lookupDefault()
}

var defaultNormalizer atomic.Pointer[normalize.Normalizer]

func lookupDefault() (*normalize.Normalizer, error) {
	n, err := normalize.Lookup(DefaultProfile)
	if err == nil {
		defaultNormalizer.Store(n)
	}
	return n, err
}

func normalizeURL(_ *Scratch, dst []byte, args []string) ([]byte, bool, error) {
	n, err := profileOf(args)
	if err != nil {
		return dst, false, err
	}
	out, err := n.AppendNormalized(dst, args[0])
	return out, false, err
}

func canonicalHash(_ *Scratch, dst []byte, args []string) ([]byte, bool, error) {
	n, err := profileOf(args)
	if err != nil {
		return dst, false, err
	}
	if len(args) > 2 {
		out, err := n.AppendHashWith(dst, args[0], args[2])
		return out, false, err
	}
	out, err := n.AppendHash(dst, args[0])
	return out, false, err
}

func canonicalKey(_ *Scratch, args []string) (int64, bool, error) {
	n, err := profileOf(args)
	if err != nil {
		return 0, false, err
	}
	k, err := n.Key(args[0])
	return k, false, err
}

func linkType(_ *Scratch, dst []byte, args []string) ([]byte, bool, error) {
	t, err := normalize.ClassifyURL(args[0])
	return append(dst, t...), false, err
}

// canonicalize writes canonicalize_url's record member by member to the
// host's builder (no boxed value per member).
func canonicalize(_ *Scratch, b Builder, args []string) (null bool, err error) {
	n, err := profileOf(args)
	if err != nil {
		return false, err
	}
	// The record's fields are written through function values, so the
	// Result escapes: reuse one rather than allocate one per row.
	r := results.Get().(*normalize.Result)
	defer results.Put(r)
	if *r, err = n.Canonicalize(args[0]); err != nil {
		return false, err
	}
	r.WriteRecord(b)
	*r = normalize.Result{} // keep no row's strings alive
	return false, nil
}

var results = sync.Pool{New: func() any { return new(normalize.Result) }}

func safeBrowsingExpressions(_ *Scratch, b Builder, args []string) (bool, error) {
	exprs, err := normalize.SafeBrowsingExpressions(args[0])
	if err != nil {
		return false, err
	}
	b.Begin()
	for _, e := range exprs {
		b.String(e)
	}
	b.End()
	return false, nil
}

func resolveURL(_ *Scratch, dst []byte, args []string) ([]byte, bool, error) {
	s, err := normalize.Resolve(args[0], args[1])
	return append(dst, s...), false, err
}

func profileVersion(_ *Scratch, dst []byte, args []string) ([]byte, bool, error) {
	n, err := lookupProfile(args[0])
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
		return dst, false, &normalize.Error{Op: "lookup", Input: args[0], Kind: kindUnknownData, Reason: reason}
	}
	return append(dst, n.Version()...), false, nil
}

var kindUnknownData = &normalize.Kind{Code: "unknown_profile", Class: normalize.ErrInvalid}

func releaseVersion(_ *Scratch, dst []byte, _ []string) ([]byte, bool, error) {
	return append(dst, version.Version...), false, nil
}
