//go:build urlnorm_ext

// The extension's entry point, which DuckDB looks up from the file name
// (urlnorm_init_c_api). DUCKDB_EXTENSION_ENTRYPOINT also defines the API
// struct (DUCKDB_EXTENSION_GLOBAL) through which internal/duckcapi's C
// code, compiled with DUCKDB_EXTENSION_EXTERN, calls DuckDB.
#define DUCKDB_EXTENSION_NAME urlnorm
#include <stdlib.h>
#include "duckdb_extension.h"
#include "_cgo_export.h"

DUCKDB_EXTENSION_ENTRYPOINT(duckdb_connection connection, duckdb_extension_info info,
                            struct duckdb_extension_access *access) {
	char *err = urlnormDuckRegister(connection);
	if (err) {
		access->set_error(info, err);
		free(err);
		return false;
	}
	return true;
}
