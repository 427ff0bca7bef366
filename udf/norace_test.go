//go:build !race

package udf

const raceEnabled = false
