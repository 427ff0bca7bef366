//go:build race

package udf

// raceEnabled is set under -race, which makes every
// memory access ~10× slower and allocates: the allocation test skips.
const raceEnabled = true
