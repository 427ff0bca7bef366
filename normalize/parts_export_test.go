package normalize

// ComputeSuffixLens is the public suffix computation without the cache
// (the reference suffixLens is tested against).
var ComputeSuffixLens = computeSuffixLens

// SuffixLens is the cached computation.
var SuffixLens = suffixLens
