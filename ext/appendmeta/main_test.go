package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestFooterLayout(t *testing.T) {
	f, err := Footer("linux_amd64", "v1.2.0", "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	if len(f) != 534 { // the size DuckDB's append_metadata.cmake appends
		t.Fatalf("footer is %d bytes, want 534", len(f))
	}
	// DuckDB reads the last 512 bytes: 8 fields of 32 bytes, last field
	// first, then the 256-byte signature.
	meta := f[len(f)-512:]
	field := func(n int) string { // n as DuckDB numbers them, 1..8
		b := meta[(8-n)*32 : (9-n)*32]
		return string(bytes.TrimRight(b, "\x00"))
	}
	for n, want := range map[int]string{1: "4", 2: "linux_amd64", 3: "v1.2.0", 4: "v0.1.0", 5: "C_STRUCT", 6: "", 7: "", 8: ""} {
		if got := field(n); got != want {
			t.Errorf("field %d = %q, want %q", n, got, want)
		}
	}
	if !bytes.Equal(meta[256:], make([]byte, 256)) {
		t.Error("signature is not all zero (unsigned)")
	}
	if !bytes.HasPrefix(f, []byte("\x00\x93\x04\x10duckdb_signature\x80\x04")) {
		t.Errorf("wasm custom-section header = %q", f[:22])
	}
}

func TestFooterFieldTooLong(t *testing.T) {
	if _, err := Footer("linux_amd64", "v1.2.0", "v0.1.0-with-a-very-long-suffix-beyond-32"); err == nil {
		t.Error("a 41-byte version was accepted; DuckDB fields are 32 bytes")
	}
}

func TestRunAppends(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "lib.so"), filepath.Join(dir, "x.duckdb_extension")
	if err := os.WriteFile(in, []byte("ELF"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(in, out, "linux_amd64", "v1.2.0", "dev", false); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3+534 || string(got[:3]) != "ELF" {
		t.Errorf("output is %d bytes starting %q, want the library then the footer", len(got), got[:3])
	}
}

// TestRunReplaces pins -replace: the same library under another platform
// name (DuckDB 1.2 calls linux_amd64 "linux_amd64_gcc4"), and a clear
// error for a file without a footer.
func TestRunReplaces(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "lib.so")
	amd64, gcc4 := filepath.Join(dir, "a.duckdb_extension"), filepath.Join(dir, "b.duckdb_extension")
	if err := os.WriteFile(in, []byte("ELF"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(in, amd64, "linux_amd64", "v1.2.0", "v0.1.0", false); err != nil {
		t.Fatal(err)
	}
	if err := run(amd64, gcc4, "linux_amd64_gcc4", "v1.2.0", "v0.1.0", true); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(gcc4)
	want, _ := Footer("linux_amd64_gcc4", "v1.2.0", "v0.1.0")
	if !bytes.Equal(got, append([]byte("ELF"), want...)) {
		t.Errorf("replaced file is %q, want the library and the gcc4 footer", got)
	}
	if err := run(in, gcc4, "linux_amd64_gcc4", "v1.2.0", "v0.1.0", true); err == nil {
		t.Error("-replace accepted a file without a footer")
	}
}
