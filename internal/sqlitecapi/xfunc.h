// The C side of package sqlitecapi, one source for both builds: ext.c
// includes it after sqlite3ext.h (the loadable extension, where every
// sqlite3_* call is a macro into the API table the host passed to the
// entry point), embedded.c after sqlite3decl.h (the embedded adapter, which
// calls the SQLite that mattn/go-sqlite3 compiled into the binary). Go
// reaches SQLite only through the small functions below, which take void*
// so that the Go files' cgo preambles need no SQLite header. Both includers
// include stdint.h and _cgo_export.h (the Go side: call.go) first.

#define URLNORM_MAX_ARGS 8

// urlnorm_xfunc is every function's implementation. It hands Go each
// argument as text (a BLOB as its bytes) with length, or, for a NULL, an
// INTEGER or a REAL, a NULL pointer, length -1 and the type and number in
// types and nums: Go raises on numbers and gives NULL for NULL unless the
// profile is unknown.
static void urlnorm_xfunc(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
	char *text[URLNORM_MAX_ARGS];
	int len[URLNORM_MAX_ARGS];
	int types[URLNORM_MAX_ARGS];
	double nums[URLNORM_MAX_ARGS];
	long long ints[URLNORM_MAX_ARGS];
	if (argc > URLNORM_MAX_ARGS) {
		sqlite3_result_error(ctx, "urlnorm: too many arguments", -1);
		return;
	}
	for (int i = 0; i < argc; i++) {
		types[i] = sqlite3_value_type(argv[i]);
		text[i] = NULL;
		len[i] = -1;
		switch (types[i]) {
		case SQLITE_INTEGER:
			ints[i] = sqlite3_value_int64(argv[i]);
			break;
		case SQLITE_FLOAT:
			nums[i] = sqlite3_value_double(argv[i]);
			break;
		case SQLITE_TEXT:
		case SQLITE_BLOB:
			text[i] = (char *)sqlite3_value_text(argv[i]);
			len[i] = sqlite3_value_bytes(argv[i]);
			if (text[i] == NULL && len[i] > 0) {
				sqlite3_result_error_nomem(ctx);
				return;
			}
			if (len[i] == 0) {
				text[i] = "";
			}
			break;
		}
	}
	// A text result is written here (Go's bytes would need a call back
	// into C to set, which cost as much as the row's work); SQLite copies
	// it. Longer ones Go sets itself.
	char buf[URLNORM_ROW_BUF];
	urlnorm_row row;
	long long limit = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
	urlnormSqliteCall(ctx, (uintptr_t)sqlite3_user_data(ctx), argc, text, len, types, ints, nums,
	                  buf, sizeof buf, limit, &row);
	switch (row.kind) {
	case URLNORM_TEXT:
		urlnorm_result_text(ctx, buf, row.n);
		break;
	case URLNORM_NULL:
		sqlite3_result_null(ctx);
		break;
	case URLNORM_INT:
		sqlite3_result_int64(ctx, row.v);
		break;
	}
}

int urlnorm_type_null(void) { return SQLITE_NULL; }
int urlnorm_type_integer(void) { return SQLITE_INTEGER; }
int urlnorm_type_float(void) { return SQLITE_FLOAT; }

// urlnorm_result_text sets a text result of n bytes, from urlnorm_xfunc's
// buffer or from Go for one too long for it; Go has checked n against
// SQLITE_LIMIT_LENGTH. The 64-bit call: a length is never narrowed to an
// int (one of 2 GiB would turn negative).
void urlnorm_result_text(void *ctx, const char *p, uint64_t n) {
	// SQLite copies the bytes: the buffer's stack frame and Go's memory
	// are gone or reused once the call returns.
	sqlite3_result_text64((sqlite3_context *)ctx, n ? p : "", n, SQLITE_TRANSIENT, SQLITE_UTF8);
}

// urlnorm_result_toobig raises a result over the length limit: the
// message says which function, the code is SQLITE_TOOBIG.
void urlnorm_result_toobig(void *ctx, const char *p, int n) {
	sqlite3_result_error((sqlite3_context *)ctx, p, n);
	sqlite3_result_error_code((sqlite3_context *)ctx, SQLITE_TOOBIG);
}

void urlnorm_result_error(void *ctx, const char *p, int n) { sqlite3_result_error((sqlite3_context *)ctx, p, n); }

// urlnorm_register registers every function of bridge.Funcs on db (the
// user data of each is its index, the handle urlnormSqliteCall gets).
// On failure it returns SQLite's code and sets *errmsg to a message from
// sqlite3_mprintf (the caller frees it with sqlite3_free, or SQLite does,
// for an extension's entry point).
int urlnorm_register(sqlite3 *db, char **errmsg) {
	int n = urlnormFuncCount();
	for (int i = 0; i < n; i++) {
		const char *name = urlnormFuncName(i);
		// urlnorm_load_profile reads files and changes the process's
		// profiles: not deterministic, and direct-only (never from a
		// trigger or a view of a schema someone else wrote). The others
		// are deterministic (expression indexes, generated columns) and
		// innocuous (usable in a schema with PRAGMA trusted_schema=OFF).
		int flags = urlnormFuncVolatile(i) ? SQLITE_DIRECTONLY : SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
		int rc = sqlite3_create_function_v2(db, name, urlnormFuncArgs(i), SQLITE_UTF8 | flags,
		                                    (void *)(uintptr_t)i, urlnorm_xfunc, NULL, NULL, NULL);
		if (rc != SQLITE_OK) {
			*errmsg = sqlite3_mprintf("urlnorm: registering %s: %s", name, sqlite3_errmsg(db));
			return rc;
		}
	}
	return SQLITE_OK;
}
