//go:build race

package normalize_test

// The race detector adds allocations; TestAllocs does not count under it.
const raceEnabled = true
