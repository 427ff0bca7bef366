//go:build race

package duckdb

// raceEnabled shrinks the concurrency tests under -race, which makes every
// memory access ~10× slower; they still run at full size without it.
const raceEnabled = true
