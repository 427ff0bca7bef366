/*
 * A minimal DuckDB shell for the arm64 install test: no DuckDB CLI or Node
 * for arm64 is installable here, so this program, cross-compiled and run
 * under qemu-user, links DuckDB's own libduckdb.so (from npm's
 * @duckdb/node-bindings-linux-arm64) and runs each argument as a
 * statement, like "duckdb -unsigned -c".
 *
 *   duckdb_host STATEMENT...
 *
 * Prints the last statement's rows as tab-separated values ("NULL" for
 * NULL); on an error prints "Error: <message>" to stderr and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include "duckdb.h"

int main(int argc, char **argv) {
	duckdb_database db;
	duckdb_connection con;
	duckdb_config config;
	char *err = NULL;
	if (duckdb_create_config(&config) != DuckDBSuccess ||
	    duckdb_set_config(config, "allow_unsigned_extensions", "true") != DuckDBSuccess) {
		fprintf(stderr, "Error: cannot set allow_unsigned_extensions\n");
		return 1;
	}
	if (duckdb_open_ext(NULL, &db, config, &err) != DuckDBSuccess) {
		fprintf(stderr, "Error: %s\n", err ? err : "cannot open DuckDB");
		return 1;
	}
	duckdb_destroy_config(&config);
	if (duckdb_connect(db, &con) != DuckDBSuccess) {
		fprintf(stderr, "Error: cannot connect\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		duckdb_result res;
		if (duckdb_query(con, argv[i], &res) != DuckDBSuccess) {
			fprintf(stderr, "Error: %s\n", duckdb_result_error(&res));
			duckdb_destroy_result(&res);
			return 1;
		}
		idx_t rows = i == argc - 1 ? duckdb_row_count(&res) : 0, cols = duckdb_column_count(&res);
		for (idx_t r = 0; r < rows; r++) {
			for (idx_t c = 0; c < cols; c++) {
				char *v = duckdb_value_is_null(&res, c, r) ? NULL : duckdb_value_varchar(&res, c, r);
				printf("%s%s", c ? "\t" : "", v ? v : "NULL");
				duckdb_free(v);
			}
			printf("\n");
		}
		duckdb_destroy_result(&res);
	}
	duckdb_disconnect(&con);
	duckdb_close(&db);
	return 0;
}
