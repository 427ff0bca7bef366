// Command appendmeta turns a shared library into a DuckDB extension file
// by appending DuckDB's extension metadata footer, as DuckDB's own
// scripts/append_metadata.cmake does:
//
//	appendmeta -in liburlnorm.so -out urlnorm.duckdb_extension \
//	    -platform linux_amd64 -api v1.2.0 -version v0.1.0
//
// With -replace the input is an extension file already: its footer is
// replaced (the release serves one library under two platform names,
// DuckDB 1.2's linux_amd64_gcc4 and linux_amd64).
//
// The footer is 534 bytes: a 22-byte WebAssembly custom-section header
// (so the same file layout works for DuckDB-Wasm), eight 32-byte
// NUL-padded fields in reverse order, and a 256-byte signature, all zero
// here: the extension is unsigned and loads only in a DuckDB started with
// allow_unsigned_extensions. DuckDB reads the last 512 bytes.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
)

// Footer field values DuckDB checks.
const (
	magic    = "4"        // metadata format version
	abiCAPI  = "C_STRUCT" // entry point <name>_init_c_api, stable C API struct
	fieldLen = 32
	sigLen   = 256
)

// wasmHeader is the custom-section header DuckDB's script writes first:
// section id 0, LEB128 size 531, name length 16, "duckdb_signature",
// LEB128 payload size 512.
var wasmHeader = append(append([]byte{0x00, 0x93, 0x04, 0x10}, "duckdb_signature"...), 0x80, 0x04)

// Footer returns the metadata footer for a C-API extension.
func Footer(platform, apiVersion, extVersion string) ([]byte, error) {
	// Fields 1..8 as DuckDB numbers them; written last to first.
	fields := [8]string{magic, platform, apiVersion, extVersion, abiCAPI}
	var b bytes.Buffer
	b.Write(wasmHeader)
	for i := len(fields) - 1; i >= 0; i-- {
		if len(fields[i]) > fieldLen {
			return nil, fmt.Errorf("metadata field %d %q is longer than %d bytes", i+1, fields[i], fieldLen)
		}
		var f [fieldLen]byte
		copy(f[:], fields[i])
		b.Write(f[:])
	}
	b.Write(make([]byte, sigLen))
	return b.Bytes(), nil
}

func main() {
	in := flag.String("in", "", "shared library to read")
	out := flag.String("out", "", "extension file to write (must end in .duckdb_extension)")
	platform := flag.String("platform", "linux_amd64", "DuckDB platform the library was built for")
	api := flag.String("api", "v1.2.0", "minimum DuckDB C API version the library was built against")
	version := flag.String("version", "dev", "extension version")
	replace := flag.Bool("replace", false, "the input is an extension file: replace its footer")
	flag.Parse()
	if err := run(*in, *out, *platform, *api, *version, *replace); err != nil {
		fmt.Fprintln(os.Stderr, "appendmeta:", err)
		os.Exit(1)
	}
}

func run(in, out, platform, api, version string, replace bool) error {
	if in == "" || out == "" {
		return fmt.Errorf("-in and -out are required")
	}
	lib, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	if replace {
		if lib, err = stripFooter(lib); err != nil {
			return fmt.Errorf("%s: %v", in, err)
		}
	}
	footer, err := Footer(platform, api, version)
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(lib, footer...), 0o755)
}

// footerLen is the size of what Footer returns.
const footerLen = 22 + 8*fieldLen + sigLen

// stripFooter returns ext without its metadata footer, and an error if
// ext does not end in one (a footer starts with wasmHeader and its first
// field, the last before the signature, is the magic).
func stripFooter(ext []byte) ([]byte, error) {
	n := len(ext) - footerLen
	if n < 0 || !bytes.Equal(ext[n:n+len(wasmHeader)], wasmHeader) {
		return nil, fmt.Errorf("no DuckDB metadata footer at the end")
	}
	first := ext[len(ext)-sigLen-fieldLen : len(ext)-sigLen]
	if string(bytes.TrimRight(first, "\x00")) != magic {
		return nil, fmt.Errorf("metadata footer has magic %q, want %q", bytes.TrimRight(first, "\x00"), magic)
	}
	return ext[:n], nil
}
