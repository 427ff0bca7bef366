package normalize

// ComputeSuffixLabels is the public suffix computation without the cache
// (the reference suffixLabels is tested against).
var ComputeSuffixLabels = computeSuffixLabels

// SuffixLabels is the cached computation.
var SuffixLabels = suffixLabels
