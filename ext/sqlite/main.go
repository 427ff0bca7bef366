//go:build urlnorm_ext

// Command sqlite is urlnorm's SQLite loadable extension (urlnorm.so, entry
// point sqlite3_urlnorm_init), built with -buildmode=c-shared against
// sqlite3ext.h. Its entry point (ext.c) registers exactly bridge.Funcs,
// i.e. udf.Funcs, through package sqlitecapi, the code the embedded
// adapter (package sqlite) registers through too: deterministic,
// innocuous functions but for urlnorm_load_profile (direct-only: it reads
// files); composite results are JSON text. capi.go is the C ABI of the
// Python package's plain functions. See docs/extensions.md.
//
// Build it with "make extensions" (the build tag urlnorm_ext keeps it out
// of "go build ./...").
package main

import "C"

import (
	// The functions and their C callback; ext.c calls its
	// urlnorm_register.
	_ "github.com/urlnorm/urlnorm/internal/sqlitecapi"
)

func main() {}
