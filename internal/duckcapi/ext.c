//go:build urlnorm_ext

// The loadable extension's mode of capi_impl.h: every duckdb_* call goes
// through the API struct the extension's entry point (ext/duckdb) fills.
#define URLNORM_DUCKDB_EXTENSION
#include "duckdb_extension.h"

DUCKDB_EXTENSION_EXTERN

#include "capi_impl.h"
