//go:build urlnorm_ext

// Command duckdb is urlnorm's DuckDB loadable extension, built with
// -buildmode=c-shared on DuckDB's C extension API (ABI C_STRUCT, C API
// v1.2.0) and turned into urlnorm.duckdb_extension by ext/appendmeta. It
// registers exactly bridge.Funcs, i.e. udf.Funcs, through
// internal/duckcapi (the chunk path it shares with the embedded adapter,
// package duckdb); this package is only the entry point (ext.c). See
// docs/extensions.md.
//
// Build it with "make extensions" (the build tag urlnorm_ext keeps it out
// of "go build ./...").
package main

// #cgo CFLAGS: -I${SRCDIR}/include -O2
// #include <stdlib.h>
import "C"

import (
	"unsafe"

	"github.com/urlnorm/urlnorm/internal/duckcapi"
)

func main() {}

// urlnormDuckRegister registers every function on con. It returns NULL or
// a malloc'd error.
//
//export urlnormDuckRegister
func urlnormDuckRegister(con unsafe.Pointer) *C.char {
	if err := duckcapi.Register(con); err != nil {
		return C.CString("urlnorm: " + err.Error())
	}
	return nil
}
