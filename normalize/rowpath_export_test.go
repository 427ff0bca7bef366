package normalize

// RowPath names the path Normalize takes for s under n: "same" (the
// verbatim answer is s or a prefix of it), "edit" (the verbatim answer
// with small edits: canon.append), "sort" (the verbatim answer with the
// query reordered), "refused" (s is verbatim but a rule sends it to the
// general path), "auth" (the scan stops after the authority: the parser
// starts from the path) or "general" (the parser starts from the
// beginning).
func RowPath(n *Normalizer, s string) string {
	var v verbatimURL
	var c canon
	ok, vOK := n.canonInto(&c, s, &v)
	switch {
	case ok && c.same:
		return "same"
	case ok && c.sort != nil:
		return "sort"
	case ok:
		return "edit"
	case vOK:
		return "refused"
	case v.auth:
		return "auth"
	}
	return "general"
}
