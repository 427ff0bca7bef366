package normalize

// DomainLens is domainLens for the tests: the lengths of the public suffix
// (both sections, ICANN's) and of the registrable domain.
type DomainLens = domainLens

// ComputeSuffixLens is the public suffix computation without the cache
// (the reference the cache is tested against).
var ComputeSuffixLens = computeSuffixLens

// SuffixLens is the cached computation.
var SuffixLens = suffixLens

// SuffixCache is a cache of its own, for tests that fill a small one.
type SuffixCache = suffixCache

// NewSuffixCache returns a cache of shortSets and longSets sets (powers of
// two).
var NewSuffixCache = newSuffixCache

// Lens is the cached computation through c.
func (c *SuffixCache) Lens(host string) DomainLens { return c.lens(host) }

// SuffixWords is the suffix cache's memory.
var SuffixWords = suffixWords
