// The C side of package duckcapi, compiled in one of two modes from this
// one source (included by ext.c or embed.c, whose build constraints pick
// the mode):
//
//   - URLNORM_DUCKDB_EXTENSION (build tag urlnorm_ext, the loadable
//     extension): through duckdb_extension.h, where every duckdb_* call is
//     a macro into the API struct DuckDB hands to the entry point
//     (ext/duckdb defines it), which cgo cannot call;
//   - otherwise (the embedded adapter, package duckdb): through duckdb.h,
//     calling DuckDB's C functions, which duckdb-go-bindings links into the
//     same binary.
//
// Either way the Go code (duckcapi.go) reaches DuckDB only through the
// small functions below. They take and return void* so duckcapi.go's cgo
// preamble needs no DuckDB header, and they are named duckcapi_*: the
// embedded mode links them into programs that also hold the SQLite
// glue's C functions (urlnorm_*).

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "_cgo_export.h"

#define URLNORM_MAX_ARGS 8

// duckcapi_scalar is every function's callback: one call into Go per chunk
// (up to 2048 rows), not per row. The function's index in bridge.Funcs
// travels as its extra info.
static void duckcapi_scalar(duckdb_function_info info, duckdb_data_chunk input, duckdb_vector output) {
	uint64_t fn = (uint64_t)(uintptr_t)duckdb_scalar_function_get_extra_info(info);
	idx_t n = duckdb_data_chunk_get_size(input);
	idx_t nargs = duckdb_data_chunk_get_column_count(input);
	void *data[URLNORM_MAX_ARGS];
	uint64_t *valid[URLNORM_MAX_ARGS];
	if (nargs > URLNORM_MAX_ARGS) {
		duckdb_scalar_function_set_error(info, "urlnorm: too many arguments");
		return;
	}
	for (idx_t i = 0; i < nargs; i++) {
		duckdb_vector v = duckdb_data_chunk_get_vector(input, i);
		data[i] = duckdb_vector_get_data(v);
		valid[i] = duckdb_vector_get_validity(v);
	}
	char *err = urlnormDuckChunk(fn, n, nargs, data, valid, output);
	if (err) {
		duckdb_scalar_function_set_error(info, err);
		free(err);
	}
}

// duckcapi_validity returns vec's validity mask, made writable: fetched
// once per vector and call, not per NULL row.
static uint64_t *duckcapi_validity(duckdb_vector vec) {
	duckdb_vector_ensure_validity_writable(vec);
	return duckdb_vector_get_validity(vec);
}

// duckcapi_set_invalid clears row's bit, as duckdb_validity_set_row_invalid
// does (one bit per row, 64 rows per word), without a call per row.
static void duckcapi_set_invalid(uint64_t *validity, uint64_t row) {
	validity[row / 64] &= ~((uint64_t)1 << (row % 64));
}

// duckcapi_load reads n bytes (1 to 8) at p as a little-endian word.
static inline uint64_t duckcapi_load(const char *p, int n) {
	uint64_t w = 0;
	memcpy(&w, p, n);
	return w;
}

// duckcapi_inline_string writes a string of len ≤ 12 bytes into d as DuckDB
// stores it inline: the length, the bytes, zeros to the end of the 16 (DuckDB
// compares inline strings as 16 bytes). The bytes are gathered from at most
// two loads that overlap (the first and the last 8 or 4 of them), never
// reading outside s[0:len], and stored as two words: a memset and a memcpy
// of a variable length, a call into libc, for each short string cost more
// than the rest of its write (url_path_segments' elements, most of
// parse_url's members). Little-endian only (amd64, arm64).
static inline void duckcapi_inline_string(duckdb_string_t *d, const char *s, uint32_t len) {
	uint64_t lo, hi = 0; // the string's bytes 0–7 and 8–11
	if (len >= 8) {
		lo = duckcapi_load(s, 8);
		hi = duckcapi_load(s + len - 4, 4) >> (8 * (12 - len)); // bytes 8..len-1: the top of the last four
	} else if (len >= 4) {
		lo = duckcapi_load(s, 4) | (duckcapi_load(s + len - 4, 4) >> (8 * (8 - len))) << 32;
	} else if (len > 0) {
		lo = (uint64_t)(uint8_t)s[0] | (uint64_t)(uint8_t)s[len / 2] << (8 * (len / 2)) |
		     (uint64_t)(uint8_t)s[len - 1] << (8 * (len - 1));
	} else {
		lo = 0;
	}
	uint64_t w[2] = {(uint64_t)len | lo << 32, lo >> 32 | hi << 32};
	memcpy(d, w, sizeof(w));
}

void duckcapi_set_nulls(void *vec, uint64_t at, uint64_t n, const _Bool *nulls) {
	uint64_t *validity = NULL;
	for (uint64_t i = 0; i < n; i++) {
		if (nulls[i]) {
			if (!validity) {
				validity = duckcapi_validity((duckdb_vector)vec);
			}
			duckcapi_set_invalid(validity, at + i);
		}
	}
}

// duckcapi_heap_piece copies buf[from:end] (at most 4 GiB - 1 of it, a
// string's largest length) into the string heap of vec through row's
// slot, sets *piece to the copy and returns where the copy ends in buf.
// The caller then overwrites row's slot.
static uint64_t duckcapi_heap_piece(void *vec, uint64_t row, const char *buf, uint64_t from, uint64_t end,
                                   const char **piece) {
	uint64_t len = end - from;
	if (len > UINT32_MAX) {
		len = UINT32_MAX;
	}
	duckdb_vector_assign_string_element_len((duckdb_vector)vec, row, buf + from, len);
	*piece = ((duckdb_string_t *)duckdb_vector_get_data((duckdb_vector)vec))[row].value.pointer.ptr;
	return from + len;
}

// DUCKCAPI_NULL_END flags a NULL row's end (bridge.NullEnd).
#define DUCKCAPI_NULL_END ((uint64_t)1 << 63)

uint64_t duckcapi_null_end(void) { return DUCKCAPI_NULL_END; }

// duckcapi_assign_varchar writes n strings, stored back to back in buf with
// row i ending at ends[i], to rows at.. of a VARCHAR vector; a NULL row's
// end is flagged DUCKCAPI_NULL_END (bridge.NullEnd). The ends are 64-bit:
// the strings of one call may pass 4 GiB. A string of at most 12
// bytes is written in place, inline in its duckdb_string_t as DuckDB
// itself stores it (length, bytes, zero padding: DuckDB compares inline
// strings as 16 bytes). A longer one must live in the vector's string
// heap, into which only duckdb_vector_assign_string_element_len copies;
// instead of one call (a heap allocation and a copy) per row, it copies
// buf from the first long row on in one piece (duckcapi_heap_piece) and
// each long row's duckdb_string_t points into that copy, with its 4-byte
// prefix, as DuckDB's own string_t does. The piece lives as long as the
// vector's heap, like any string assigned to the vector.
void duckcapi_assign_varchar(void *vec, uint64_t at, uint64_t n, const char *buf, const uint64_t *ends) {
	duckdb_string_t *data = (duckdb_string_t *)duckdb_vector_get_data((duckdb_vector)vec) + at;
	uint64_t *validity = NULL;
	uint64_t start = 0;
	const char *piece = NULL; // the heap's copy of buf[from:to]
	uint64_t from = 0, to = 0;
	uint64_t last = ends[n - 1] & ~DUCKCAPI_NULL_END;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t end = ends[i] & ~DUCKCAPI_NULL_END;
		uint64_t len = end - start;
		if (ends[i] & DUCKCAPI_NULL_END) {
			if (!validity) {
				validity = duckcapi_validity((duckdb_vector)vec);
			}
			duckcapi_set_invalid(validity, at + i);
		} else if (len <= sizeof(data[i].value.inlined.inlined)) {
			duckcapi_inline_string(&data[i], buf + start, (uint32_t)len);
		} else {
			if (!piece || end > to) {
				from = start;
				to = duckcapi_heap_piece(vec, at + i, buf, start, last, &piece);
			}
			data[i].value.pointer.length = (uint32_t)len;
			memcpy(data[i].value.pointer.prefix, piece + (start - from), 4);
			data[i].value.pointer.ptr = (char *)piece + (start - from);
		}
		start = end;
	}
}

void *duckcapi_vector_data(void *vec) { return duckdb_vector_get_data((duckdb_vector)vec); }

void *duckcapi_struct_child(void *vec, uint64_t i) { return duckdb_struct_vector_get_child((duckdb_vector)vec, i); }

// duckcapi_list_grow makes room for add more child rows and returns the
// list's previous child size, where they start.
int duckcapi_list_grow(void *vec, uint64_t add, uint64_t *base) {
	*base = duckdb_list_vector_get_size((duckdb_vector)vec);
	if (duckdb_list_vector_reserve((duckdb_vector)vec, *base + add) != DuckDBSuccess) {
		return 1;
	}
	return duckdb_list_vector_set_size((duckdb_vector)vec, *base + add) == DuckDBSuccess ? 0 : 1;
}

void *duckcapi_list_child(void *vec) { return duckdb_list_vector_get_child((duckdb_vector)vec); }

// Logical types, built from udf's result types by main.go.
void *duckcapi_type_varchar(void) { return duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR); }
void *duckcapi_type_boolean(void) { return duckdb_create_logical_type(DUCKDB_TYPE_BOOLEAN); }
void *duckcapi_type_integer(void) { return duckdb_create_logical_type(DUCKDB_TYPE_INTEGER); }
void *duckcapi_type_bigint(void) { return duckdb_create_logical_type(DUCKDB_TYPE_BIGINT); }

void *duckcapi_type_map(void *key, void *value) {
	return duckdb_create_map_type((duckdb_logical_type)key, (duckdb_logical_type)value);
}

void *duckcapi_type_list(void *elem) { return duckdb_create_list_type((duckdb_logical_type)elem); }

void *duckcapi_type_struct(void **types, const char **names, uint64_t n) {
	return duckdb_create_struct_type((duckdb_logical_type *)types, names, n);
}

void duckcapi_type_destroy(void *t) {
	duckdb_logical_type lt = (duckdb_logical_type)t;
	duckdb_destroy_logical_type(&lt);
}

void *duckcapi_set_new(const char *name) { return duckdb_create_scalar_function_set(name); }

#ifndef URLNORM_DUCKDB_EXTENSION
// duckcapi_bind checks a function's constant arguments once per query, when
// DuckDB binds it (urlnormDuckBind: an unknown profile), so that the query
// fails even over an empty table. Embedded mode only: the extension
// targets C API v1.2.0, which has no scalar bind callback. An argument
// that fails to fold fails the query with DuckDB's error, as in
// duckdb-go's binder; one that folds to anything but a VARCHAR, or to
// NULL, is left to the rows.
static void duckcapi_bind(duckdb_bind_info info) {
	uint64_t fn = (uint64_t)(uintptr_t)duckdb_scalar_function_bind_get_extra_info(info);
	idx_t n = duckdb_scalar_function_bind_get_argument_count(info);
	duckdb_client_context ctx = NULL;
	for (idx_t i = 0; i < n; i++) {
		duckdb_expression expr = duckdb_scalar_function_bind_get_argument(info, i);
		if (!expr) {
			continue;
		}
		char *err = NULL;
		if (duckdb_expression_is_foldable(expr)) {
			if (!ctx) {
				duckdb_scalar_function_get_client_context(info, &ctx);
			}
			duckdb_value v = NULL;
			duckdb_error_data fold = duckdb_expression_fold(ctx, expr, &v);
			if (fold && duckdb_error_data_has_error(fold)) {
				duckdb_scalar_function_bind_set_error(info, duckdb_error_data_message(fold));
				duckdb_destroy_error_data(&fold);
				duckdb_destroy_expression(&expr);
				break;
			}
			if (fold) {
				duckdb_destroy_error_data(&fold);
			}
			if (v && !duckdb_is_null_value(v)) {
				duckdb_logical_type t = duckdb_get_value_type(v); // owned by v
				if (duckdb_get_type_id(t) == DUCKDB_TYPE_VARCHAR) {
					char *s = duckdb_get_varchar(v);
					err = urlnormDuckBind(fn, i, s, strlen(s));
					duckdb_free(s);
				}
			}
			if (v) {
				duckdb_destroy_value(&v);
			}
		}
		duckdb_destroy_expression(&expr);
		if (err) {
			duckdb_scalar_function_bind_set_error(info, err);
			free(err);
			break;
		}
	}
	if (ctx) {
		duckdb_destroy_client_context(&ctx);
	}
}
#endif

// duckcapi_set_add adds the overload bridge.Funcs[fn]: nargs VARCHAR
// parameters, result type ret. Functions are deterministic, DuckDB's
// default (so TRY() and constant folding work). NULL in gives NULL out
// (DuckDB's default handling) unless own_nulls: then Go sees rows with
// NULL arguments, where an unknown profile still raises. The parameters
// stay unnamed (col0, col1 … in duckdb_functions()): the C API has no
// call to name a scalar function's parameters (v1.2.0, nor 1.5's). A
// volatile function (urlnorm_load_profile) is never folded or cached.
int duckcapi_set_add(void *set, const char *name, uint64_t fn, uint64_t nargs, void *ret, int own_nulls, int volatile_) {
	duckdb_scalar_function f = duckdb_create_scalar_function();
	duckdb_scalar_function_set_name(f, name);
	duckdb_logical_type varchar = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
	for (uint64_t i = 0; i < nargs; i++) {
		duckdb_scalar_function_add_parameter(f, varchar);
	}
	duckdb_destroy_logical_type(&varchar);
	duckdb_scalar_function_set_return_type(f, (duckdb_logical_type)ret);
	duckdb_scalar_function_set_extra_info(f, (void *)(uintptr_t)fn, NULL);
	duckdb_scalar_function_set_function(f, duckcapi_scalar);
	if (own_nulls) {
		duckdb_scalar_function_set_special_handling(f);
	}
	if (volatile_) {
		duckdb_scalar_function_set_volatile(f);
	}
#ifndef URLNORM_DUCKDB_EXTENSION
	duckdb_scalar_function_set_bind(f, duckcapi_bind);
#endif
	duckdb_state st = duckdb_add_scalar_function_to_set((duckdb_scalar_function_set)set, f);
	duckdb_destroy_scalar_function(&f);
	return st == DuckDBSuccess ? 0 : 1;
}

int duckcapi_set_register(void *con, void *set) {
	duckdb_scalar_function_set s = (duckdb_scalar_function_set)set;
	duckdb_state st = duckdb_register_scalar_function_set((duckdb_connection)con, s);
	duckdb_destroy_scalar_function_set(&s);
	return st == DuckDBSuccess ? 0 : 1;
}

void duckcapi_set_destroy(void *set) {
	duckdb_scalar_function_set s = (duckdb_scalar_function_set)set;
	duckdb_destroy_scalar_function_set(&s);
}
