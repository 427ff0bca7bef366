package udf

import (
	"errors"
	"sync"

	"github.com/urlnorm/urlnorm/internal/sqltype"
	"github.com/urlnorm/urlnorm/normalize"
)

// The URL parts functions (issue 13): the parts of a URL as the URL
// Standard parses it, or of a profile's canonical URL when the overload
// takes a profile. One row of partFuncs per function; parts expands each
// into its overloads.

// ParseURLType is parse_url's record: a STRUCT in DuckDB, a JSON object
// in SQLite.
var ParseURLType = sqltype.MustParse("STRUCT(scheme VARCHAR, username VARCHAR, password VARCHAR, host VARCHAR, " +
	"host_type VARCHAR, port INTEGER, path VARCHAR, query VARCHAR, fragment VARCHAR, " +
	"registrable_domain VARCHAR, public_suffix VARCHAR, subdomain VARCHAR)")

var (
	segmentsType = sqltype.MustParse("VARCHAR[]")
	paramsType   = sqltype.MustParse("MAP(VARCHAR, VARCHAR[])")
)

// Scratch is what a run of rows on one goroutine reuses from row to row:
// the URL parser the part functions parse their URL with (a warm
// normalize.Parser allocates nothing). A host that evaluates a chunk of
// rows keeps one and passes it to TextUnguarded and BuildUnguarded for
// every row (internal/bridge keeps one per column); with nil, and in
// Text, Build, Value and Int, a part function takes one from a pool for
// its row, which cost a sixth of url_host's row in the bridge
// (BenchmarkChunk). The zero value is ready; a Scratch must not be used
// by two goroutines at once.
type Scratch struct {
	p normalize.Parser
}

var scratches = sync.Pool{New: func() any { return new(Scratch) }}

// A row function without a Scratch takes one from the pool and gives it
// back when the row is done:
//
//	if s == nil {
//		s = scratches.Get().(*Scratch)
//		defer scratches.Put(s)
//	}
//
// written out in each (a defer in a helper's place would run at once),
// so that a host that passes its Scratch pays no deferred call: a
// borrow that returned the Scratch to release with a defer either way
// cost 36 instructions of each part function's row (url_host in
// BenchmarkChunk: 641, now 605).

// A SplitBuilder is a Builder that also writes, in one call, a LIST of
// VARCHAR whose elements are the pieces of s between its sep bytes, as
// strings.Split(s, string(sep)) cuts it (k seps: k+1 elements), the
// value Begin, a String per piece and End would write: the DuckDB
// columns of internal/bridge, where url_path_segments' calls per
// element cost more than its parse, and SQLite's JSON text
// (sqltype.JSON: one pass over a plain path). segments writes its list
// that way when the host's Builder is one.
type SplitBuilder interface {
	Builder
	Split(s string, sep byte)
}

// part is one URL-part function: a text part (ok false: NULL), a
// composite written to a Builder (null true: NULL), or an integer (ok
// false: NULL).
type part struct {
	name, doc, example string
	returns            *SQLType
	text               func(u *normalize.URL) (string, bool)
	build              func(b Builder, u *normalize.URL) (null bool)
	integer            func(u *normalize.URL) (int64, bool)
	reads              reach
}

// reach is how much of the URL a part reads: the parse stops or skips
// what it need not read, with the same parts and errors as a whole parse.
type reach uint8

const (
	wholeURL  reach = iota // normalize.Parser.Parse
	authority              // the scheme or the authority: normalize.Parser.ParseAuthority
	noPath                 // the query or the fragment: normalize.Parser.ParseWithoutPath
	toPath                 // the path: normalize.Parser.ParseThroughPath
)

func partFuncs() []part {
	domain := func(list normalize.SuffixList, get func(normalize.DomainParts) string) func(*normalize.URL) (string, bool) {
		return func(u *normalize.URL) (string, bool) { return nonEmpty(get(u.DomainParts(list))) }
	}
	suffix := func(d normalize.DomainParts) string { return d.PublicSuffix }
	registrable := func(d normalize.DomainParts) string { return d.RegistrableDomain }
	sub := func(d normalize.DomainParts) string { return d.Subdomain }
	return []part{
		{name: "parse_url", reads: wholeURL, doc: "the URL's parts: scheme, username, password, host, host_type, port, path, query, fragment, registrable_domain, public_suffix, subdomain",
			example: "parse_url('HTTPS://user@www.Example.co.uk:8443/a/b.html?q=1#top')", returns: ParseURLType, build: parseURL},
		{name: "url_scheme", reads: authority, doc: "the scheme, lowercase", example: "url_scheme('HTTP://example.com/')",
			text: func(u *normalize.URL) (string, bool) { return u.Scheme(), true }},
		{name: "url_host", reads: authority, doc: "the host as serialized (punycode, IP addresses canonical); NULL without a host",
			example: "url_host('HTTP://WWW.Example.COM:8080/')",
			text:    func(u *normalize.URL) (string, bool) { return u.Host(), u.HostKind() != normalize.HostNone }},
		{name: "url_port", reads: authority, doc: "the explicit port; NULL when absent or the scheme's default", example: "url_port('https://example.com:8443/')",
			returns: Integer, integer: port},
		{name: "url_path", reads: toPath, doc: "the path as serialized", example: "url_path('https://example.com/a/./b/../c?x')",
			text: func(u *normalize.URL) (string, bool) { return u.Path(), true }},
		{name: "url_query", reads: noPath, doc: "the query without '?'; NULL without one", example: "url_query('https://example.com/?a=1&b')",
			text: (*normalize.URL).Query},
		{name: "url_fragment", reads: noPath, doc: "the fragment without '#'; NULL without one", example: "url_fragment('https://example.com/#top')",
			text: (*normalize.URL).Fragment},
		{name: "url_registrable_domain", reads: authority, doc: "the public suffix and one more label (ICANN and private sections); NULL for an IP or a public suffix",
			example: "url_registrable_domain('https://a.b.example.co.uk/x')", text: domain(normalize.AllSuffixes, registrable)},
		{name: "url_public_suffix", reads: authority, doc: "the host's public suffix (ICANN and private sections)",
			example: "url_public_suffix('https://a.b.example.co.uk/x')", text: domain(normalize.AllSuffixes, suffix)},
		{name: "url_subdomain", reads: authority, doc: "the labels left of the registrable domain (ICANN and private sections)",
			example: "url_subdomain('https://a.b.example.co.uk/x')", text: domain(normalize.AllSuffixes, sub)},
		{name: "url_registrable_domain_icann", reads: authority, doc: "url_registrable_domain with the ICANN section of the list only",
			example: "url_registrable_domain_icann('https://alice.github.io/')", text: domain(normalize.ICANNSuffixes, registrable)},
		{name: "url_public_suffix_icann", reads: authority, doc: "url_public_suffix with the ICANN section of the list only",
			example: "url_public_suffix_icann('https://alice.github.io/')", text: domain(normalize.ICANNSuffixes, suffix)},
		{name: "url_subdomain_icann", reads: authority, doc: "url_subdomain with the ICANN section of the list only",
			example: "url_subdomain_icann('https://alice.github.io/')", text: domain(normalize.ICANNSuffixes, sub)},
		{name: "url_extension", reads: toPath, doc: "the file extension of the last path segment, without the dot",
			example: "url_extension('https://example.com/a/report.tar.gz?x=1')",
			text:    func(u *normalize.URL) (string, bool) { return nonEmpty(u.Extension()) }},
		{name: "url_path_segments", reads: toPath, doc: "the path's segments (the URL Standard's path list); NULL for an opaque path",
			example: "url_path_segments('https://example.com/a/b/')", returns: segmentsType, build: segments},
		{name: "url_query_params", reads: noPath, doc: "each query parameter name with its values, form-decoded; NULL without a query",
			example: "url_query_params('https://example.com/?a=1&b=2&a=3')", returns: paramsType, build: params},
	}
}

func nonEmpty(s string) (string, bool) { return s, s != "" }

// parseArgs parses url, as far as r reaches when there is no profile, or
// its canonical URL under profile when the overload takes one.
func parseArgs(p *normalize.Parser, url string, profile []string, r reach) (*normalize.URL, error) {
	if len(profile) == 0 {
		switch r {
		case authority:
			return p.ParseAuthority(url)
		case noPath:
			return p.ParseWithoutPath(url)
		case toPath:
			return p.ParseThroughPath(url)
		}
		return p.Parse(url)
	}
	n, err := lookupProfile(profile[0])
	if err != nil {
		return nil, err
	}
	return p.ParseCanonical(n, url)
}

// textPart is the row function of a text part: args are url [, profile].
func textPart(get func(*normalize.URL) (string, bool), r reach) textImpl {
	return func(s *Scratch, dst []byte, args []string) ([]byte, bool, error) {
		if s == nil {
			s = scratches.Get().(*Scratch)
			defer scratches.Put(s)
		}
		u, err := parseArgs(&s.p, args[0], args[1:], r)
		if err != nil {
			return dst, false, err
		}
		v, ok := get(u)
		return append(dst, v...), !ok, nil
	}
}

// intPart is the row function of an integer part.
func intPart(get func(*normalize.URL) (int64, bool), r reach) intImpl {
	return func(s *Scratch, args []string) (int64, bool, error) {
		if s == nil {
			s = scratches.Get().(*Scratch)
			defer scratches.Put(s)
		}
		u, err := parseArgs(&s.p, args[0], args[1:], r)
		if err != nil {
			return 0, false, err
		}
		n, ok := get(u)
		return n, !ok, nil
	}
}

// buildPart is the row function of a composite part. The builder copies
// what it keeps, so the part may write strings that alias the parser.
func buildPart(build func(Builder, *normalize.URL) bool, r reach) buildImpl {
	return func(s *Scratch, b Builder, args []string) (bool, error) {
		if s == nil {
			s = scratches.Get().(*Scratch)
			defer scratches.Put(s)
		}
		u, err := parseArgs(&s.p, args[0], args[1:], r)
		if err != nil {
			return false, err
		}
		return build(b, u), nil
	}
}

func port(u *normalize.URL) (int64, bool) {
	p := u.Port()
	return int64(p), p >= 0
}

// segments writes url_path_segments' LIST: a path that is not empty is
// "/" and its segments joined with "/" (URL.PathSegments), so a
// SplitBuilder cuts it in one call; other Builders get each segment as
// it is found.
func segments(b Builder, u *normalize.URL) (null bool) {
	if u.OpaquePath() {
		return true
	}
	if sb, ok := b.(SplitBuilder); ok {
		if p := u.Path(); p != "" {
			sb.Split(p[1:], '/')
			return false
		}
	}
	b.Begin()
	for s := range u.AllPathSegments() {
		b.String(s)
	}
	b.End()
	return false
}

// params writes url_query_params' MAP: each distinct name in the order
// of its first pair, with the values of all its pairs in order. The pairs
// of one name are chained (head: the group's first pair; next: the
// group's next pair, -1 at its end), so writing the groups is linear; the
// first pair of a name is found with a scan among few pairs, a map among
// many (the profile's limits.max_params bounds them).
func params(b Builder, u *normalize.URL) (null bool) {
	ps := u.QueryParams()
	if ps == nil {
		return true
	}
	const few = 16
	var headStore, nextStore, lastStore [few]int
	head, next, last := headStore[:0], nextStore[:0], lastStore[:0]
	var index map[string]int
	if len(ps) > few {
		head, next, last = make([]int, 0, len(ps)), make([]int, 0, len(ps)), make([]int, 0, len(ps))
		index = make(map[string]int, len(ps))
	}
	head, next, last = head[:len(ps)], next[:len(ps)], last[:len(ps)]
	for i, p := range ps {
		h := i
		if index != nil {
			if j, ok := index[p.Name]; ok {
				h = j
			} else {
				index[p.Name] = i
			}
		} else {
			for j := range i {
				if ps[j].Name == p.Name {
					h = j
					break
				}
			}
		}
		head[i], next[i] = h, -1
		if h != i {
			next[last[h]] = i
		}
		last[h] = i
	}
	b.Begin()
	for i, p := range ps {
		if head[i] != i {
			continue
		}
		b.String(p.Name)
		b.Begin()
		for j := i; j >= 0; j = next[j] {
			b.String(ps[j].Value)
		}
		b.End()
	}
	b.End()
	return false
}

// parseURL writes parse_url's STRUCT, members in ParseURLType's order,
// as one record (sqltype.WriteRecord): the DuckDB extension's columns and
// SQLite's JSON lay the twelve values out in one loop, where a call per
// member through the Builder interface cost more than the loop
// (instructions a row: BenchmarkChunk/Chunk/parse_url 2,292 → 2,038,
// BenchmarkPartRows/Text/parse_url, SQLite's JSON, 4,262 → 3,761).
func parseURL(b Builder, u *normalize.URL) (null bool) {
	q, hasQ := u.Query()
	f, hasF := u.Fragment()
	d := u.DomainParts(normalize.AllSuffixes)
	var host, kind string
	hasHost := u.HostKind() != normalize.HostNone
	if hasHost {
		host, kind = u.Host(), u.HostKind().String()
	}
	p := u.Port()
	r, fs := sqltype.Fields(b, 12)
	fs = fs[:12] // one bounds check for the twelve stores
	fs[0] = sqltype.Field{S: u.Scheme()}
	fs[1] = orNull(u.Username())
	fs[2] = orNull(u.Password())
	fs[3] = sqltype.Field{S: host, Null: !hasHost}
	fs[4] = sqltype.Field{S: kind, Null: !hasHost}
	fs[5] = sqltype.Field{N: int64(p), Null: p < 0}
	fs[6] = sqltype.Field{S: u.Path()}
	fs[7] = sqltype.Field{S: q, Null: !hasQ}
	fs[8] = sqltype.Field{S: f, Null: !hasF}
	fs[9] = orNull(d.RegistrableDomain)
	fs[10] = orNull(d.PublicSuffix)
	fs[11] = orNull(d.Subdomain)
	sqltype.WriteRecord(b, r, ParseURLType, fs, u.String())
	return false
}

// orNull is a VARCHAR member that is NULL when empty.
func orNull(s string) sqltype.Field { return sqltype.Field{S: s, Null: s == ""} }

// queryParam is url_query_param(url, name [, profile]).
func queryParam(s *Scratch, dst []byte, args []string) ([]byte, bool, error) {
	if s == nil {
		s = scratches.Get().(*Scratch)
		defer scratches.Put(s)
	}
	u, err := parseArgs(&s.p, args[0], args[2:], noPath)
	if err != nil {
		return dst, false, err
	}
	v, ok := u.QueryParam(args[1])
	return append(dst, v...), !ok, nil
}

// isValidURL is is_valid_url(url [, profile]): false where the other
// functions raise on the data; an unknown profile still raises.
func isValidURL(s *Scratch, args []string) (int64, bool, error) {
	if s == nil {
		s = scratches.Get().(*Scratch)
		defer scratches.Put(s)
	}
	_, err := parseArgs(&s.p, args[0], args[1:], authority) // valid: the parse of the authority succeeds
	if err != nil && errors.Is(err, normalize.ErrConfig) {
		return 0, false, err
	}
	if err != nil {
		return 0, false, nil
	}
	return 1, false, nil
}

// partRows returns the overloads of the parts functions (their try_ twins
// are derived by build).
func partRows(url, profile Arg) []*Func {
	var fs []*Func
	for _, p := range partFuncs() {
		for _, args := range [][]Arg{{url}, {url, profile}} {
			f := &Func{Name: p.name, Args: args, Returns: p.returns, Doc: p.doc, Example: p.example}
			if len(args) == 2 {
				f.Doc += ", of the profile's canonical URL"
				f.Example = p.example[:len(p.example)-1] + ", 'default')"
			}
			switch {
			case p.text != nil:
				f.text = textPart(p.text, p.reads)
			case p.build != nil:
				f.build = buildPart(p.build, p.reads)
			case p.integer != nil:
				f.integer = intPart(p.integer, p.reads)
			}
			fs = append(fs, f)
		}
	}
	name := Arg{Name: "name"}
	fs = append(fs,
		&Func{Name: "url_query_param", Args: []Arg{url, name}, Doc: "the first value of a query parameter, form-decoded; NULL when absent",
			Example: "url_query_param('https://example.com/?q=caf%C3%A9+au+lait', 'q')", text: queryParam},
		&Func{Name: "url_query_param", Args: []Arg{url, name, profile}, Doc: "url_query_param of the profile's canonical URL",
			Example: "url_query_param('https://example.com/?utm_source=x&id=7', 'utm_source', 'curiousnow-v0')", text: queryParam},
		&Func{Name: "is_valid_url", Args: []Arg{url}, Returns: Boolean, NoTry: true, Doc: "whether the URL Standard parser accepts the URL; never raises",
			Example: "is_valid_url('https://exa mple.com/')", integer: isValidURL},
		&Func{Name: "is_valid_url", Args: []Arg{url, profile}, Returns: Boolean, NoTry: true, Doc: "whether the profile can canonicalize the URL; never raises on data",
			Example: "is_valid_url('example.com/page', 'edge-gateway')", integer: isValidURL},
	)
	return fs
}
