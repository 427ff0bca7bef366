package normalize

// NotSuffixEnd is isSuffix's one-word no (notSuffixEnd) for s[from:],
// len(s) ≥ 8, s lowercase.
func NotSuffixEnd(s string, from int) bool {
	suffixTable.once.Do(buildSuffixTable)
	return notSuffixEnd(be64(s[len(s)-8:]), len(s), from)
}

// WWWCutVerbatim is the verbatim path's www cut (wwwCutVerbatim) of n.
func (n *Normalizer) WWWCutVerbatim(h string, upper bool) int { return n.wwwCutVerbatim(h, upper) }

// WWWCut is wwwCut of n: on a verbatim host (verbatim, upper), or the
// general path's (isPublicSuffix).
func (n *Normalizer) WWWCut(h string, verbatim, upper bool) int { return n.wwwCut(h, verbatim, upper) }

// StripWWW is host.strip_www of n on the general path (stripWWW).
func (n *Normalizer) StripWWW(host string) string { return n.stripWWW(host) }
