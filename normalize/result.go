package normalize

import (
	"bytes"
	"fmt"

	"github.com/urlnorm/urlnorm/internal/sqltype"
)

// Result is everything Canonicalize learns about one URL. Its JSON
// encoding (MarshalJSON) and canonicalize_url's SQL record have one shape,
// declared once by ResultFields.
type Result struct {
	URL      string
	Hash     string
	Profile  string
	Version  string
	LinkType string
	// Fragment is the dropped fragment without '#' (HasFragment tells an
	// empty fragment from none; the record has NULL for none).
	Fragment    string
	HasFragment bool
	Removed     []Param
	Pagination  *PageInfo
	Language    *LanguageInfo
	Alternates  []Alternate
	Rewrites    []Rewrite // the rewrite rules applied, in order
}

// Param is a removed parameter.
type Param struct {
	Key    string
	Value  string
	Reason string // the group: "tracking", "session", "pagination" …
	InPath bool   // a ";name=value" path parameter
}

// PageInfo reports a removed page-number parameter (clara-policy Rule 9).
type PageInfo struct {
	Param string
	Value string
}

// LanguageInfo reports a language path segment (clara-policy Rule 10).
type LanguageInfo struct {
	Original  string // the segment as the URL had it
	Preferred string // the segment in the canonical URL
	Languages []string
}

// Alternate is the same page in another language.
type Alternate struct {
	Lang string
	URL  string
}

// ResultField is one field of the record: a key of Result's JSON and a
// member of canonicalize_url's SQL record (a STRUCT in DuckDB, JSON text
// with the same keys in SQLite).
type ResultField struct {
	Name string
	// Type is the SQL type in DuckDB's spelling: VARCHAR, BOOLEAN, T[],
	// STRUCT(name T, …).
	Type string
	// Get returns the field's value: nil for NULL, a string, a bool, []any
	// for a list, and []any with one value per member, in order, for a
	// STRUCT.
	Get func(*Result) any
}

// ResultFields is the record, in order: the one declaration of its shape,
// which Result's JSON, SQLite's JSON and DuckDB's STRUCT all follow.
// fragment, pagination and language are NULL when absent; lists are
// empty, never NULL.
var ResultFields = []ResultField{
	{"url", "VARCHAR", func(r *Result) any { return r.URL }},
	{"hash", "VARCHAR", func(r *Result) any { return r.Hash }},
	{"link_type", "VARCHAR", func(r *Result) any { return r.LinkType }},
	{"profile", "VARCHAR", func(r *Result) any { return r.Profile }},
	{"version", "VARCHAR", func(r *Result) any { return r.Version }},
	{"fragment", "VARCHAR", func(r *Result) any {
		if !r.HasFragment {
			return nil
		}
		return r.Fragment
	}},
	{"removed_params", "STRUCT(key VARCHAR, value VARCHAR, reason VARCHAR, in_path BOOLEAN)[]", func(r *Result) any {
		return list(r.Removed, func(p Param) any { return []any{p.Key, p.Value, p.Reason, p.InPath} })
	}},
	{"pagination", "STRUCT(param VARCHAR, value VARCHAR)", func(r *Result) any {
		if r.Pagination == nil {
			return nil
		}
		return []any{r.Pagination.Param, r.Pagination.Value}
	}},
	{"language", "STRUCT(original VARCHAR, preferred VARCHAR)", func(r *Result) any {
		if r.Language == nil {
			return nil
		}
		return []any{r.Language.Original, r.Language.Preferred}
	}},
	{"alternates", "STRUCT(lang VARCHAR, url VARCHAR)[]", func(r *Result) any {
		return list(r.Alternates, func(a Alternate) any { return []any{a.Lang, a.URL} })
	}},
	{"rewrites", "STRUCT(from_prefix VARCHAR, to_prefix VARCHAR)[]", func(r *Result) any {
		return list(r.Rewrites, func(w Rewrite) any { return []any{w.FromPrefix, w.ToPrefix} })
	}},
}

func list[T any](s []T, f func(T) any) []any {
	l := make([]any, len(s))
	for i, e := range s {
		l[i] = f(e)
	}
	return l
}

// resultType is ResultFields as a STRUCT.
var resultType = func() *sqltype.Type {
	t := &sqltype.Type{}
	for _, f := range ResultFields {
		t.Members = append(t.Members, &sqltype.Member{Name: f.Name, Type: sqltype.MustParse(f.Type)})
	}
	return t
}()

// Record returns r's values in ResultFields order.
func (r *Result) Record() []any {
	rec := make([]any, len(ResultFields))
	for i, f := range ResultFields {
		rec[i] = f.Get(r)
	}
	return rec
}

// MarshalJSON writes the record as a JSON object, keys in ResultFields
// order, '&' and '<' as they are: the text SQLite's canonicalize_url
// returns.
func (r Result) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	err := resultType.EncodeJSON(&b, r.Record())
	return b.Bytes(), err
}

// Canonicalize normalizes raw and reports what the rules removed.
func (n *Normalizer) Canonicalize(raw string) (Result, error) {
	st := n.pool.Get().(*state)
	defer n.pool.Put(st)
	r := Result{Profile: n.prof.Name, Version: n.prof.Version}
	if k := n.run(st, raw, &r, 0); k != nil {
		return Result{}, st.err("canonicalize", raw, k)
	}
	r.URL = string(st.out)
	r.Hash = string(appendDigest(nil, n.hash, st.out))
	if ps := &st.pass; ps.lang != nil && isSegment(r.URL, ps.langAt, ps.pref) {
		// The last pass's language segment: the one the canonical URL has.
		r.Language = &LanguageInfo{Original: ps.original, Preferred: ps.pref, Languages: ps.lang.Languages}
		head, tail := r.URL[:ps.langAt], r.URL[ps.langAt+len(ps.pref):]
		for _, lang := range ps.lang.Languages {
			if lang != ps.pref {
				r.Alternates = append(r.Alternates, Alternate{Lang: lang, URL: head + lang + tail})
			}
		}
	}
	r.LinkType = LinkType(r.URL)
	return r, nil
}

// isSegment reports whether url has the path segment seg at offset at (a
// later rule, such as a ".." left by removed path parameters, may have
// removed the segment a pass found).
func isSegment(url string, at int, seg string) bool {
	end := at + len(seg)
	return at > 0 && end <= len(url) && url[at-1] == '/' && url[at:end] == seg &&
		(end == len(url) || url[end] == '/' || url[end] == '?' || url[end] == '#')
}

// Resolve resolves ref against base per the WHATWG URL Standard (a
// crawler's href against its page URL) and returns the serialization.
// base, ref and the result are each limited to DefaultMaxLength bytes,
// the limit of every built-in profile (too_long).
func Resolve(base, ref string) (string, error) {
	if err := resolveLimit(base, "base URL"); err != nil {
		return "", err
	}
	if err := resolveLimit(ref, "reference"); err != nil {
		return "", err
	}
	b, err := Parse(base)
	if err != nil {
		return "", &Error{Op: "resolve", Input: base, Kind: kindOf(err), Reason: "bad base URL"}
	}
	u, err := ParseRef(b, ref)
	if err != nil {
		return "", &Error{Op: "resolve", Input: ref, Kind: kindOf(err), Reason: "against " + Quote(base)}
	}
	href := u.Href()
	if len(href) > DefaultMaxLength {
		return "", &Error{Op: "resolve", Input: ref, Kind: KindTooLong,
			Reason: fmt.Sprintf("the resolved URL has %d bytes, over the limit of %d", len(href), DefaultMaxLength)}
	}
	return href, nil
}

func resolveLimit(s, what string) error {
	if len(s) <= DefaultMaxLength {
		return nil
	}
	return &Error{Op: "resolve", Input: s, Kind: KindTooLong,
		Reason: fmt.Sprintf("the %s has %d bytes, over the limit of %d", what, len(s), DefaultMaxLength)}
}

// kindOf returns the *Kind of an error of this package (KindURL for
// others).
func kindOf(err error) *Kind {
	if e, ok := err.(*Error); ok {
		return e.Kind
	}
	return KindURL
}

func withOp(err error, op string) error {
	if e, ok := err.(*Error); ok {
		e2 := *e
		e2.Op = op
		return &e2
	}
	return err
}
