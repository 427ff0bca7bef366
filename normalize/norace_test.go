//go:build !race

package normalize_test

const raceEnabled = false
