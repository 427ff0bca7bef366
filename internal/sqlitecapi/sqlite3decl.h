// The part of SQLite's C API that xfunc.h uses, declared here for the
// embedded build (embedded.c): SQLite itself is in the binary, compiled by
// mattn/go-sqlite3 from its amalgamation, but its sqlite3.h is not on the
// include path of this package, and a Go user must be able to build the
// embedded adapter with a C compiler alone (no libsqlite3-dev). So the
// types are opaque structs, the functions are declared as sqlite3.h
// declares them, and the constants are SQLite's stable ABI (the values of
// sqlite3.h since 3.31, which added SQLITE_INNOCUOUS and
// SQLITE_DIRECTONLY). abi_test.go compiles this file after the system's
// sqlite3.h when that header is there: a prototype that differs fails to
// compile and every constant is compared with the header's.
#ifndef URLNORM_SQLITE3DECL_H
#define URLNORM_SQLITE3DECL_H

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_context sqlite3_context;
typedef struct sqlite3_value sqlite3_value;
typedef long long int sqlite3_int64;
typedef unsigned long long int sqlite3_uint64;
typedef void (*sqlite3_destructor_type)(void *);

#define SQLITE_OK 0
#define SQLITE_TOOBIG 18
#define SQLITE_INTEGER 1
#define SQLITE_FLOAT 2
#define SQLITE_TEXT 3
#define SQLITE_BLOB 4
#define SQLITE_NULL 5
#define SQLITE_UTF8 1
#define SQLITE_DETERMINISTIC 0x000000800
#define SQLITE_DIRECTONLY 0x000080000
#define SQLITE_INNOCUOUS 0x000200000
#define SQLITE_LIMIT_LENGTH 0
#define SQLITE_TRANSIENT ((sqlite3_destructor_type)-1)

int sqlite3_create_function_v2(sqlite3 *db, const char *zFunctionName, int nArg, int eTextRep, void *pApp,
                               void (*xFunc)(sqlite3_context *, int, sqlite3_value **),
                               void (*xStep)(sqlite3_context *, int, sqlite3_value **),
                               void (*xFinal)(sqlite3_context *), void (*xDestroy)(void *));
const char *sqlite3_errmsg(sqlite3 *);
char *sqlite3_mprintf(const char *, ...);
void sqlite3_free(void *);
int sqlite3_limit(sqlite3 *, int id, int newVal);

int sqlite3_value_type(sqlite3_value *);
sqlite3_int64 sqlite3_value_int64(sqlite3_value *);
double sqlite3_value_double(sqlite3_value *);
const unsigned char *sqlite3_value_text(sqlite3_value *);
int sqlite3_value_bytes(sqlite3_value *);

void *sqlite3_user_data(sqlite3_context *);
sqlite3 *sqlite3_context_db_handle(sqlite3_context *);
void sqlite3_result_text64(sqlite3_context *, const char *, sqlite3_uint64, void (*)(void *), unsigned char encoding);
void sqlite3_result_int64(sqlite3_context *, sqlite3_int64);
void sqlite3_result_null(sqlite3_context *);
void sqlite3_result_error(sqlite3_context *, const char *, int);
void sqlite3_result_error_code(sqlite3_context *, int);
void sqlite3_result_error_nomem(sqlite3_context *);

#endif
