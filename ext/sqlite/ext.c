//go:build urlnorm_ext

// C side of the SQLite extension. Every sqlite3_* call in a loadable
// extension is a macro into the sqlite3_api table the host passes to the
// entry point, which cgo cannot call, so main.go reaches SQLite only
// through the small functions below (taking void*, so its cgo preamble
// needs no SQLite header).

#include <stdint.h>
#include <sqlite3ext.h>
#include "_cgo_export.h"
SQLITE_EXTENSION_INIT1

#define URLNORM_MAX_ARGS 8

// urlnorm_xfunc is every function's implementation: it hands the
// arguments' text (SQLite's own conversion for numbers and blobs) to Go,
// which sets the result. A NULL argument is passed as NULL with length -1:
// the result is NULL, but an unknown profile still raises.
static void urlnorm_xfunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	char *text[URLNORM_MAX_ARGS];
	int len[URLNORM_MAX_ARGS];
	if (argc > URLNORM_MAX_ARGS) {
		sqlite3_result_error(ctx, "urlnorm: too many arguments", -1);
		return;
	}
	for (int i = 0; i < argc; i++) {
		if (sqlite3_value_type(argv[i]) == SQLITE_NULL) {
			text[i] = NULL;
			len[i] = -1;
			continue;
		}
		text[i] = (char *)sqlite3_value_text(argv[i]);
		len[i] = sqlite3_value_bytes(argv[i]);
		if (text[i] == NULL && len[i] > 0) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
	}
	urlnormSqliteCall(ctx, (uintptr_t)sqlite3_user_data(ctx), argc, text, len);
}

void urlnorm_result_text(void *ctx, const char *p, int n) {
	// SQLite copies the bytes: the Go buffer is reused for the next row.
	sqlite3_result_text((sqlite3_context *)ctx, n ? p : "", n, SQLITE_TRANSIENT);
}

void urlnorm_result_null(void *ctx) { sqlite3_result_null((sqlite3_context *)ctx); }

void urlnorm_result_error(void *ctx, const char *p, int n) { sqlite3_result_error((sqlite3_context *)ctx, p, n); }

// The entry point SQLite derives from the file name urlnorm.so.
#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_urlnorm_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
	SQLITE_EXTENSION_INIT2(pApi);
	int n = urlnormFuncCount();
	for (int i = 0; i < n; i++) {
		const char *name = urlnormFuncName(i);
		int rc = sqlite3_create_function_v2(db, name, urlnormFuncArgs(i),
		                                    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
		                                    (void *)(uintptr_t)i, urlnorm_xfunc, NULL, NULL, NULL);
		if (rc != SQLITE_OK) {
			*pzErrMsg = sqlite3_mprintf("urlnorm: registering %s: %s", name, sqlite3_errmsg(db));
			return rc;
		}
	}
	return SQLITE_OK;
}

// The generic entry point, for a copy of the file under another name.
#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_extension_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
	return sqlite3_urlnorm_init(db, pzErrMsg, pApi);
}
