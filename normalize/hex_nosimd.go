//go:build !(goexperiment.simd && amd64)

package normalize

// hex32 writes the 64 hex digits of a sha256 digest (hex_simd_amd64.go
// has the GOEXPERIMENT=simd build's).
func hex32(h *[64]byte, d *[32]byte) { hex32SWAR(h, d) }
