//go:build urlnorm_ext

// The loadable extension's build of xfunc.h: SQLite's functions are
// macros into the API table that the entry point (ext/sqlite/ext.c,
// SQLITE_EXTENSION_INIT1/2) stores in sqlite3_api.

#include <stdint.h>
#include <stddef.h>
#include <sqlite3ext.h>
#include "_cgo_export.h"
SQLITE_EXTENSION_INIT3

#include "xfunc.h"
