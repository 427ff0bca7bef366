package normalize

// SuffixQuick is the domain parts' shortcut (suffix.go): the public
// suffix's length and where the registrable domain starts, or -1 when it
// cannot tell.
func SuffixQuick(domain string) (n, registrable int) {
	suffixTable.once.Do(buildSuffixTable)
	return suffixQuick(domain)
}

// Registrable is the length of the registrable domain with both sections
// of the list (0: none).
func (l domainLens) Registrable() int { return l.registrable }
