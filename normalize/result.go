package normalize

import (
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
	// Write writes the field's value of r to b, a builder of Type (see
	// WriteRecord): each host's builder makes its own form, without a
	// boxed value per member.
	Write func(b Builder, r *Result)
}

// Builder receives a value piece by piece: a scalar (Null, String, Int,
// Bool) or a composite (Begin, its elements or members in order, End).
// Each SQL host has one that writes its engine's form (udf.Builder).
type Builder = sqltype.Builder

// ResultFields is the record, in order: the one declaration of its shape,
// which Result's JSON, SQLite's JSON and DuckDB's STRUCT all follow.
// fragment, pagination and language are NULL when absent; lists are
// empty, never NULL.
var ResultFields = []ResultField{
	{"url", "VARCHAR", func(b Builder, r *Result) { b.String(r.URL) }},
	{"hash", "VARCHAR", func(b Builder, r *Result) { b.String(r.Hash) }},
	{"link_type", "VARCHAR", func(b Builder, r *Result) { b.String(r.LinkType) }},
	{"profile", "VARCHAR", func(b Builder, r *Result) { b.String(r.Profile) }},
	{"version", "VARCHAR", func(b Builder, r *Result) { b.String(r.Version) }},
	{"fragment", "VARCHAR", func(b Builder, r *Result) {
		if !r.HasFragment {
			b.Null()
			return
		}
		b.String(r.Fragment)
	}},
	{"removed_params", "STRUCT(key VARCHAR, value VARCHAR, reason VARCHAR, in_path BOOLEAN)[]", func(b Builder, r *Result) {
		list(b, r.Removed, func(p Param) { b.String(p.Key); b.String(p.Value); b.String(p.Reason); b.Bool(p.InPath) })
	}},
	{"pagination", "STRUCT(param VARCHAR, value VARCHAR)", func(b Builder, r *Result) {
		if p := r.Pagination; p != nil {
			pair(b, p.Param, p.Value)
			return
		}
		b.Null()
	}},
	{"language", "STRUCT(original VARCHAR, preferred VARCHAR)", func(b Builder, r *Result) {
		if l := r.Language; l != nil {
			pair(b, l.Original, l.Preferred)
			return
		}
		b.Null()
	}},
	{"alternates", "STRUCT(lang VARCHAR, url VARCHAR)[]", func(b Builder, r *Result) {
		list(b, r.Alternates, func(a Alternate) { b.String(a.Lang); b.String(a.URL) })
	}},
	{"rewrites", "STRUCT(from_prefix VARCHAR, to_prefix VARCHAR)[]", func(b Builder, r *Result) {
		list(b, r.Rewrites, func(w Rewrite) { b.String(w.FromPrefix); b.String(w.ToPrefix) })
	}},
}

// list writes a LIST of STRUCTs, each element member by member.
func list[T any](b Builder, s []T, member func(T)) {
	b.Begin()
	for _, e := range s {
		b.Begin()
		member(e)
		b.End()
	}
	b.End()
}

// pair writes a STRUCT of two VARCHARs.
func pair(b Builder, x, y string) {
	b.Begin()
	b.String(x)
	b.String(y)
	b.End()
}

// resultType is ResultFields as a STRUCT.
var resultType = func() *sqltype.Type {
	t := &sqltype.Type{}
	for _, f := range ResultFields {
		t.Members = append(t.Members, &sqltype.Member{Name: f.Name, Type: sqltype.MustParse(f.Type)})
	}
	return t
}()

// WriteRecord writes r's record to b, a builder of the STRUCT of
// ResultFields: Begin, each field in order (ResultField.Write), End.
func (r *Result) WriteRecord(b Builder) {
	b.Begin()
	for _, f := range ResultFields {
		f.Write(b, r)
	}
	b.End()
}

// Record returns r's values in ResultFields order, in sqltype's boxed
// form: nil for NULL, a string, a bool, []any for a list or a STRUCT.
func (r *Result) Record() []any {
	var x sqltype.Boxed
	x.Reset(resultType)
	r.WriteRecord(&x)
	return x.Value().([]any)
}

// MarshalJSON writes the record as a JSON object, keys in ResultFields
// order, '&' and '<' as they are: the text SQLite's canonicalize_url
// returns.
func (r Result) MarshalJSON() ([]byte, error) {
	var j sqltype.JSON
	j.Reset(resultType, nil)
	r.WriteRecord(&j)
	return j.Buf, nil
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
	var digest [64]byte // the longest digest, hex: one allocation (the string)
	r.Hash = string(appendDigest(digest[:0], n.hash, st.out))
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
