// Package ext holds urlnorm's loadable extensions and their host tests:
//
//   - ext/duckdb: urlnorm.duckdb_extension, for DuckDB's LOAD (C extension
//     API, entry point urlnorm_init_c_api);
//   - ext/sqlite: urlnorm.so, for SQLite's .load / load_extension (entry
//     point sqlite3_urlnorm_init);
//   - internal/bridge (the module's, not ext's): what both share (the function table, taken from
//     udf.Funcs, DuckDB's columnar result layout, SQLite's length limit;
//     udf itself applies the row contract);
//   - ext/appendmeta: appends DuckDB's extension metadata footer;
//   - ext/build.sh, ext/fetch.sh: the build ("make extensions") and the
//     headers and Node host it fetches.
//
// The tests in this directory build both extensions from the checkout and
// load them into hosts we did not write: the Debian sqlite3 shell,
// Python's sqlite3 module, duckdb-go (LOAD), and Node's @duckdb/node-api.
// See docs/extensions.md.
package ext
