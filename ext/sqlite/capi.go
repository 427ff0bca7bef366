//go:build urlnorm_ext

package main

// The C ABI of urlnorm.so for callers that are not SQLite: the Python
// package calls it with ctypes for its plain functions
// (urlnorm.normalize_url(...) without a database), so a Python process has
// one Go runtime whether it uses sqlite3 or not. It evaluates a whole batch
// of rows per call: crossing from Python into Go costs microseconds, a row
// costs a few hundred nanoseconds.
//
// The row semantics are the SQLite extension's (urlnormSqliteCall): the
// same bridge.Funcs handles, bridge.NullRow for rows with a NULL argument,
// bridge.Text for the others, so results and error messages are the SQL
// functions' byte for byte.
//
// ABI (version 1; see packaging/python/src/urlnorm/_lib.py):
//
//	int32_t urlnorm_abi(void);
//	const char *urlnorm_version(void);
//	int32_t urlnorm_func(const char *name, int32_t nargs);   // handle, or -1
//	urlnorm_result *urlnorm_call(int32_t fn, int32_t nargs,
//	                             const urlnorm_column *args, int64_t n);
//	void urlnorm_free(urlnorm_result *);

/*
#include <stdint.h>
#include <stdlib.h>

// One argument of urlnorm_call: n values back to back in data, value i
// ending at ends[i] (it starts where value i-1 ends, value 0 at 0). A
// constant column has one value for every row. nulls, when not NULL,
// flags NULL values (1); a NULL value's bytes are empty.
typedef struct urlnorm_column {
	const char *data;
	const int64_t *ends;
	const uint8_t *nulls;
	int32_t constant;
} urlnorm_column;

// The result of urlnorm_call: one block of malloc'ed memory, released by
// urlnorm_free. rows results were evaluated, laid out like a column
// (data, ends, nulls). error is NULL, or the NUL-terminated message
// the SQL function raises, kind its kind code ("invalid_host", …,
// "internal"), and error_row the row that raised (-1: no row, e.g. an
// unknown constant profile); evaluation stops there.
typedef struct urlnorm_result {
	int64_t rows;
	char *data;
	int64_t *ends;
	uint8_t *nulls;
	char *error;
	char *kind;
	int64_t error_row;
} urlnorm_result;
*/
import "C"

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"unsafe"

	"github.com/urlnorm/urlnorm/internal/bridge"
	"github.com/urlnorm/urlnorm/udf"
	"github.com/urlnorm/urlnorm/version"
)

// abi is the version of the C ABI above; a caller refuses a library with
// another one.
const abi = 1

//export urlnorm_abi
func urlnorm_abi() C.int32_t { return abi }

var versionC = sync.OnceValue(func() *C.char { return C.CString(version.Version) })

// urlnorm_version returns the release version (version.Version); the
// string is static.
//
//export urlnorm_version
func urlnorm_version() *C.char { return versionC() }

// urlnorm_func returns the handle of the overload of name that takes nargs
// arguments (its index in bridge.Funcs, as in the SQLite extension), or -1.
//
//export urlnorm_func
func urlnorm_func(name *C.char, nargs C.int32_t) C.int32_t {
	s := C.GoString(name)
	for i, f := range bridge.Funcs {
		if f.Name == s && len(f.Args) == int(nargs) {
			return C.int32_t(i)
		}
	}
	return -1
}

// urlnorm_free releases a result of urlnorm_call (NULL is a no-op).
//
//export urlnorm_free
func urlnorm_free(r *C.urlnorm_result) { C.free(unsafe.Pointer(r)) }

// urlnorm_call evaluates function fn over n rows of its nargs argument
// columns. It never returns NULL unless malloc fails.
//
//export urlnorm_call
func urlnorm_call(fn C.int32_t, nargs C.int32_t, args *C.urlnorm_column, n C.int64_t) *C.urlnorm_result {
	var b batch
	switch {
	case fn < 0 || int(fn) >= len(bridge.Funcs) || n < 0 || args == nil && nargs > 0:
		b.fail(fmt.Sprintf("urlnorm_call: bad call (function %d, %d rows)", fn, n))
	case int(nargs) != len(bridge.Funcs[fn].Args):
		f := bridge.Funcs[fn]
		b.fail(fmt.Sprintf("urlnorm_call: %s takes %d arguments, got %d", f.Name, len(f.Args), nargs))
	default:
		b.f = bridge.Funcs[fn]
		b.cols = make([]column, 0, nargs)
		for _, c := range unsafe.Slice(args, nargs) {
			b.cols = append(b.cols, column{data: unsafe.Pointer(c.data), ends: unsafe.Pointer(c.ends),
				nulls: unsafe.Pointer(c.nulls), constant: c.constant != 0})
		}
		b.run(int(n))
	}
	return b.store()
}

// column reads one urlnorm_column; the memory is the caller's, borrowed
// for the call.
type column struct {
	data, ends, nulls unsafe.Pointer
	constant          bool
}

func (c column) value(row int) (s string, valid bool) {
	if c.constant {
		row = 0
	}
	if c.nulls != nil && *(*uint8)(unsafe.Add(c.nulls, row)) != 0 {
		return "", false
	}
	var start int64
	if row > 0 {
		start = *(*int64)(unsafe.Add(c.ends, 8*(row-1)))
	}
	end := *(*int64)(unsafe.Add(c.ends, 8*row))
	return unsafe.String((*byte)(unsafe.Add(c.data, start)), int(end-start)), true
}

// batch evaluates rows in Go memory; store copies the outcome into C
// memory.
type batch struct {
	f     *udf.Func
	cols  []column
	out   []byte
	ends  []int64
	nulls []uint8
	err   error
	row   int // the row that raised, or -1

	// scratch is what the rows reuse: the part functions' parser, which
	// they would otherwise take from a pool for every row (udf.Scratch).
	scratch udf.Scratch
}

func (b *batch) fail(msg string) {
	b.err, b.row = glueError{msg}, -1
}

func (b *batch) run(n int) {
	b.row = -1
	args, nulls := make([]string, len(b.cols)), make([]bool, len(b.cols))
	// One recover serves every row (TextUnguarded): a panic while a row is
	// evaluated is that row's error, as Text would return it; one in the
	// glue (BeforeRow) is the function's.
	inRow := false
	defer func() {
		if r := recover(); r != nil {
			b.err = udf.PanicError(b.f.Name, r)
			if inRow {
				b.err = b.f.RowPanicError(r, args, nulls)
			}
			b.row = len(b.ends)
		}
	}()
	// A constant argument (a profile) is checked once, as DuckDB's binder
	// does in the embedded adapter: a misspelt profile raises even with no
	// rows.
	for i, c := range b.cols {
		if !c.constant {
			continue
		}
		if v, ok := c.value(0); ok {
			if b.err = b.f.CheckArg(i, v); b.err != nil {
				return
			}
		}
	}
	b.ends = make([]int64, 0, n)
	b.nulls = make([]uint8, 0, n)
	for row := 0; row < n; row++ {
		for i, c := range b.cols {
			var ok bool
			args[i], ok = c.value(row)
			nulls[i] = !ok
		}
		bridge.BeforeRow(b.f, args)
		inRow = true
		null, err := b.row1(args, nulls)
		inRow = false
		if err != nil {
			b.err, b.row = err, row
			return
		}
		b.ends = append(b.ends, int64(len(b.out)))
		b.nulls = append(b.nulls, boolByte(null))
	}
}

// row1 appends one row's result to b.out: text, or an integer result
// (BOOLEAN 0/1, INTEGER, BIGINT) in decimal.
func (b *batch) row1(args []string, nulls []bool) (null bool, err error) {
	if !b.f.IntResult() {
		b.out, null, err = b.f.TextUnguarded(&b.scratch, b.out, args, nulls)
		return null, err
	}
	v, null, err := b.f.IntUnguarded(&b.scratch, args, nulls)
	if err == nil && !null {
		b.out = strconv.AppendInt(b.out, v, 10)
	}
	return null, err
}

// glueError is an error of the glue itself: a bad call.
type glueError struct{ msg string }

func (e glueError) Error() string { return e.msg }

func boolByte(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// store copies the outcome into one malloc'ed block: the urlnorm_result,
// then ends, data, nulls, and the error and kind strings (NUL-terminated).
// One allocation keeps a call of one row cheap.
func (b *batch) store() *C.urlnorm_result {
	var msg, kind string
	if b.err != nil {
		msg, kind = b.err.Error(), "internal"
		var ue *udf.Error
		if errors.As(b.err, &ue) {
			kind = ue.Kind
		}
	}
	head := int(C.sizeof_urlnorm_result) // a multiple of 8: ends stay aligned
	size := head + 8*len(b.ends) + len(b.out) + len(b.nulls) + len(msg) + 1 + len(kind) + 1
	p := C.malloc(C.size_t(size))
	if p == nil {
		return nil
	}
	mem := unsafe.Slice((*byte)(p), size)
	at := head
	put := func(src []byte) unsafe.Pointer {
		q := unsafe.Pointer(&mem[at])
		at += copy(mem[at:], src)
		return q
	}
	res := (*C.urlnorm_result)(p)
	*res = C.urlnorm_result{rows: C.int64_t(len(b.ends)), error_row: C.int64_t(b.row)}
	res.ends = (*C.int64_t)(put(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b.ends))), 8*len(b.ends))))
	res.data = (*C.char)(put(b.out))
	res.nulls = (*C.uint8_t)(put(b.nulls))
	if b.err != nil {
		res.error = (*C.char)(put(append([]byte(msg), 0)))
		res.kind = (*C.char)(put(append([]byte(kind), 0)))
	}
	return res
}
