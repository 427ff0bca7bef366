//go:build !urlnorm_ext

// The embedded mode of capi_impl.h: DuckDB's C functions, called directly
// (duckdb-go-bindings links libduckdb into the binary).
#include "duckdb.h"

#include "capi_impl.h"
