//go:build cgo && !urlnorm_ext

// The embedded adapter's build of xfunc.h: SQLite's functions are called
// directly; they are in the binary, compiled by mattn/go-sqlite3 (which
// embedded.go imports), and declared in sqlite3decl.h.

#include <stdint.h>
#include <stddef.h>
#include "sqlite3decl.h"
#include "_cgo_export.h"

#include "xfunc.h"
