//go:build !linux

package normalize

// suffixWords returns n zeroed words for a suffix cache (on Linux, large
// caches get huge pages: parts_suffix_linux.go).
func suffixWords(n int) []uint64 { return make([]uint64, n) }
