package normalize

// Result is everything Canonicalize learns about one URL.
type Result struct {
	URL      string `json:"url"`
	Hash     string `json:"hash"`
	Profile  string `json:"profile"`
	Version  string `json:"version"`
	LinkType string `json:"link_type"`
	// Fragment is the dropped fragment without '#' (HasFragment tells an
	// empty fragment from none).
	Fragment    string        `json:"fragment,omitempty"`
	HasFragment bool          `json:"has_fragment,omitempty"`
	Removed     []Param       `json:"removed_params,omitempty"`
	Pagination  *PageInfo     `json:"pagination,omitempty"`
	Language    *LanguageInfo `json:"language,omitempty"`
	Alternates  []Alternate   `json:"alternates,omitempty"`
	Rewrites    []Rewrite     `json:"rewrites,omitempty"`
}

// Param is a removed parameter.
type Param struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Reason string `json:"reason"`            // the group: "tracking", "session", "pagination" …
	InPath bool   `json:"in_path,omitempty"` // a ";name=value" path parameter
}

// PageInfo reports a removed page-number parameter (clara-policy Rule 9).
type PageInfo struct {
	Param string `json:"param"`
	Value string `json:"value"`
}

// LanguageInfo reports a language path segment (clara-policy Rule 10).
type LanguageInfo struct {
	Original  string   `json:"original"`
	Preferred string   `json:"preferred"`
	Languages []string `json:"-"`
	segStart  int
}

// Alternate is the same page in another language.
type Alternate struct {
	Lang string `json:"lang"`
	URL  string `json:"url"`
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
	if l := r.Language; l != nil && l.segStart <= len(r.URL)-len(l.Preferred) {
		head, tail := r.URL[:l.segStart], r.URL[l.segStart+len(l.Preferred):]
		for _, lang := range l.Languages {
			if lang != l.Preferred {
				r.Alternates = append(r.Alternates, Alternate{Lang: lang, URL: head + lang + tail})
			}
		}
	}
	r.LinkType = LinkType(r.URL)
	return r, nil
}

// Resolve resolves ref against base per the WHATWG URL Standard (a
// crawler's href against its page URL) and returns the serialization.
func Resolve(base, ref string) (string, error) {
	b, err := Parse(base)
	if err != nil {
		return "", &Error{Op: "resolve", Input: base, Kind: kindOf(err), Reason: "bad base URL"}
	}
	u, err := ParseRef(b, ref)
	if err != nil {
		return "", &Error{Op: "resolve", Input: ref, Kind: kindOf(err), Reason: "against " + Quote(base)}
	}
	return u.Href(), nil
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
