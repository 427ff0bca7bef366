package normalize

// VerbatimAnswers reports whether verbatimCanon answers for s under n
// (the general parser is not called).
func VerbatimAnswers(n *Normalizer, s string) bool {
	var v verbatimURL
	_, ok, _ := n.verbatimCanon(s, &v)
	return ok
}
