//go:build urlnorm_ext

// The extension's entry points. Every sqlite3_* call in a loadable
// extension is a macro into the sqlite3_api table the host passes to the
// entry point: SQLITE_EXTENSION_INIT1 defines that table's pointer here,
// INIT2 sets it, and package sqlitecapi's C (the same source as the
// embedded adapter's, built against sqlite3ext.h with SQLITE_EXTENSION_INIT3)
// calls through it.

#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

// In internal/sqlitecapi (xfunc.h): registers every function on db.
int urlnorm_register(sqlite3 *db, char **errmsg);

// The entry point SQLite derives from the file name urlnorm.so.
#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_urlnorm_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
	SQLITE_EXTENSION_INIT2(pApi);
	return urlnorm_register(db, pzErrMsg);
}

// The generic entry point, for a copy of the file under another name.
#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_extension_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
	return sqlite3_urlnorm_init(db, pzErrMsg, pApi);
}
