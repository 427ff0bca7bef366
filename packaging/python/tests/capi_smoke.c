// Smoke test of the C ABI of urlnorm.so (ext/sqlite/capi.go) that the
// Python package calls through ctypes, for a wheel this machine cannot run
// Python for: packaging/python/test.sh builds it with the cross compiler
// and runs it under qemu-user on the aarch64 wheel's library.
//
// usage: capi_smoke LIBRARY VERSION     (exit 0: every check passed)
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct {
	const char *data;
	const int64_t *ends;
	const uint8_t *nulls;
	int32_t constant;
} urlnorm_column;

typedef struct {
	int64_t rows;
	char *data;
	int64_t *ends;
	uint8_t *nulls;
	char *error;
	char *kind;
	int64_t error_row;
} urlnorm_result;

static int failures;

static void check(int ok, const char *what) {
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	failures += !ok;
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: capi_smoke LIBRARY VERSION\n");
		return 2;
	}
	void *h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	int32_t (*abi)(void) = (int32_t (*)(void))dlsym(h, "urlnorm_abi");
	const char *(*version)(void) = (const char *(*)(void))dlsym(h, "urlnorm_version");
	int32_t (*func)(const char *, int32_t) = (int32_t (*)(const char *, int32_t))dlsym(h, "urlnorm_func");
	urlnorm_result *(*call)(int32_t, int32_t, const urlnorm_column *, int64_t) =
		(urlnorm_result * (*)(int32_t, int32_t, const urlnorm_column *, int64_t)) dlsym(h, "urlnorm_call");
	void (*release)(urlnorm_result *) = (void (*)(urlnorm_result *))dlsym(h, "urlnorm_free");
	check(abi && version && func && call && release, "the five symbols");
	if (failures) return 1;
	check(abi() == 1, "urlnorm_abi() == 1");
	check(strcmp(version(), argv[2]) == 0, "urlnorm_version() is the release version");
	check(func("normalize_url", 3) == -1, "no normalize_url with 3 arguments");

	// Rows: a URL, NULL, bad input, non-ASCII; profile "default" constant.
	const char *urls = "HTTP://Example.COM:80/a/../b/" "nope" "http://\xc3\xbc.example/\xc3\xa9";
	int64_t ends[] = {29, 29, 33, 54};
	uint8_t nulls[] = {0, 1, 0, 0};
	int64_t pend[] = {7};
	urlnorm_column cols[2] = {{urls, ends, nulls, 0}, {"default", pend, NULL, 1}};

	urlnorm_result *r = call(func("try_normalize_url", 2), 2, cols, 4);
	const char *want = "http://example.com/b" "http://xn--tda.example/%C3%A9";
	check(r->error == NULL && r->rows == 4, "try_normalize_url: 4 rows, no error");
	check(r->ends[0] == 20 && r->ends[3] == (int64_t)strlen(want) && memcmp(r->data, want, strlen(want)) == 0,
	      "try_normalize_url: values");
	check(!r->nulls[0] && r->nulls[1] && r->nulls[2] && !r->nulls[3], "try_normalize_url: NULL for NULL and bad input");
	release(r);

	r = call(func("normalize_url", 2), 2, cols, 4);
	check(r->error_row == 2 && r->rows == 2 && r->kind && strcmp(r->kind, "missing_scheme") == 0 &&
	          strcmp(r->error, "normalize_url('nope', 'default'): missing_scheme "
	                           "(use try_normalize_url to get NULL instead)") == 0,
	      "normalize_url: raises on row 2 with the SQL message");
	release(r);

	urlnorm_column typo[2] = {{urls, ends, nulls, 0}, {"typo", (int64_t[]){4}, NULL, 1}};
	r = call(func("try_normalize_url", 2), 2, typo, 0);
	check(r->error_row == -1 && r->kind && strcmp(r->kind, "unknown_profile") == 0, "unknown profile, no rows: raises");
	release(r);
	return failures != 0;
}
