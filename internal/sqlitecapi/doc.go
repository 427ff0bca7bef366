// Package sqlitecapi registers udf's functions (bridge.Funcs) on a SQLite
// connection through SQLite's C API and evaluates each call: one C
// callback per row hands Go the row's borrowed argument bytes, Go
// evaluates the function through udf and sets the result with one
// sqlite3_result_text64 (or _int64, _null, _error).
//
// Both SQLite hosts use it, from one source (xfunc.h):
//
//   - the loadable extension (ext/sqlite, build tag urlnorm_ext), whose
//     entry point calls the C function urlnorm_register; every sqlite3_*
//     call is then a macro into the API table (sqlite3ext.h);
//   - the embedded adapter (package sqlite), which calls Register with a
//     connection's sqlite3* and calls SQLite's functions directly: they
//     are in the binary, compiled by mattn/go-sqlite3, which this package
//     imports. This build needs only a C compiler: it declares the part of
//     SQLite's API it uses itself (sqlite3decl.h), not sqlite3.h.
//
// Functions are registered with the flags the extension always had:
// SQLITE_DETERMINISTIC and SQLITE_INNOCUOUS, but SQLITE_DIRECTONLY for the
// volatile urlnorm_load_profile. udf applies the row contract (NULL, try_,
// errors, panics); this package only converts SQLite's values.
package sqlitecapi
