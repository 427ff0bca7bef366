//go:build cgo

package sqlitecapi

/*
#include <stddef.h>
#include <stdint.h>

// urlnorm_row is a row's result as Go leaves it for urlnorm_xfunc to set:
// most rows are set in C, so the Go side makes no call back into C (each
// cost about as much as a short URL's normalization).
typedef struct {
	int kind;       // URLNORM_SET, URLNORM_TEXT, URLNORM_NULL or URLNORM_INT
	long long v;    // URLNORM_INT's value
	uint64_t n;     // URLNORM_TEXT's length: its bytes are in the caller's buffer
} urlnorm_row;

enum {
	URLNORM_SET,    // Go set the result (an error, or a text too long for the buffer)
	URLNORM_TEXT,
	URLNORM_NULL,
	URLNORM_INT,
};

// URLNORM_ROW_BUF is the most bytes of a text result that urlnorm_xfunc
// takes on its stack: almost every URL's.
#define URLNORM_ROW_BUF 4096

// Declarations only: the definitions are in xfunc.h.
void urlnorm_result_text(void *ctx, const char *p, uint64_t n);
void urlnorm_result_toobig(void *ctx, const char *p, int n);
void urlnorm_result_error(void *ctx, const char *p, int n);
int urlnorm_type_null(void);
int urlnorm_type_integer(void);
int urlnorm_type_float(void);
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/urlnorm/urlnorm/internal/bridge"
	"github.com/urlnorm/urlnorm/udf"
)

// RowBuf is the most bytes of a text result that SQLite's call takes on
// its stack; a longer one is set from Go memory.
const RowBuf = C.URLNORM_ROW_BUF

// names are the C strings of the function names, made once: SQLite keeps
// its own copy, and registration runs once per connection.
var names = sync.OnceValue(func() []*C.char {
	cs := make([]*C.char, len(bridge.Funcs))
	for i, f := range bridge.Funcs {
		cs[i] = C.CString(f.Name)
	}
	return cs
})

//export urlnormFuncCount
func urlnormFuncCount() C.int { return C.int(len(bridge.Funcs)) }

//export urlnormFuncName
func urlnormFuncName(i C.int) *C.char { return names()[i] }

//export urlnormFuncArgs
func urlnormFuncArgs(i C.int) C.int { return C.int(len(bridge.Funcs[i].Args)) }

//export urlnormFuncVolatile
func urlnormFuncVolatile(i C.int) C.int {
	if bridge.Funcs[i].Volatile {
		return 1
	}
	return 0
}

// rowState is what a call needs beyond its stack: the arguments (udf's
// functions keep them, so on the stack they would be moved to the heap on
// every row) and the part functions' parser, reused through a pool.
type rowState struct {
	args  [udf.MaxArgs]string
	nulls [udf.MaxArgs]bool

	// scratch is what the rows reuse: the part functions' parser, which
	// they would otherwise take from a pool of their own (udf.Scratch).
	scratch udf.Scratch
}

var states = sync.Pool{New: func() any { return new(rowState) }}

// SQLite's fundamental type codes, from the C side's header.
var (
	typeNull    = C.urlnorm_type_null()
	typeInteger = C.urlnorm_type_integer()
	typeFloat   = C.urlnorm_type_float()
)

// urlnormSqliteCall runs bridge.Funcs[fn] on one row and leaves its result
// in row for the caller to set: a text in buf (of bufCap bytes, the
// caller's), a NULL or an integer. A text that does not fit in buf, and an
// error, it sets itself (URLNORM_SET). Text arguments are borrowed from
// SQLite for the call; a NULL or a number comes as its type (and value in
// ints or nums), text NULL. limit is the connection's
// SQLITE_LIMIT_LENGTH. udf applies the row contract; this only converts
// SQLite's values.
//
//export urlnormSqliteCall
func urlnormSqliteCall(ctx unsafe.Pointer, fn C.uintptr_t, argc C.int, text **C.char, lens *C.int,
	types *C.int, ints *C.longlong, nums *C.double, buf *C.char, bufCap C.size_t, limit C.longlong, row *C.urlnorm_row) {
	f := bridge.Funcs[fn]
	row.kind = C.URLNORM_SET
	st := states.Get().(*rowState)
	args, nulls := st.args[:argc], st.nulls[:argc]
	// One recover serves the row and the glue around it: a panic while the
	// row is evaluated is the row's error (with its arguments), as udf's
	// Text would return it; one in the glue is the function's.
	inRow := false
	defer func() {
		if r := recover(); r != nil {
			err := udf.PanicError(f.Name, r)
			if inRow {
				err = f.RowPanicError(r, args, nulls)
			}
			resultError(ctx, err.Error())
		}
		clear(args) // SQLite's memory, valid for this call only
		states.Put(st)
	}()
	clear(nulls)
	ts, ls, tys := unsafe.Slice(text, argc), unsafe.Slice(lens, argc), unsafe.Slice(types, argc)
	for i := range args {
		switch tys[i] {
		case typeNull:
			nulls[i] = true
		case typeInteger:
			resultError(ctx, f.ArgTypeError(i, "INTEGER", int64(unsafe.Slice(ints, argc)[i])).Error())
			return
		case typeFloat:
			resultError(ctx, f.ArgTypeError(i, "REAL", float64(unsafe.Slice(nums, argc)[i])).Error())
			return
		default: // TEXT, or a BLOB read as its bytes
			args[i] = unsafe.String((*byte)(unsafe.Pointer(ts[i])), int(ls[i]))
		}
	}
	bridge.BeforeRow(f, args)
	inRow = true
	var v int64
	var out []byte
	var null bool
	var err error
	intResult := f.IntResult()
	if intResult {
		v, null, err = f.IntUnguarded(&st.scratch, args, nulls)
	} else {
		// The text is written straight into the caller's buffer; append
		// moves one that does not fit to Go memory, which is set from here.
		out, null, err = f.TextUnguarded(&st.scratch, unsafe.Slice((*byte)(unsafe.Pointer(buf)), bufCap)[:0], args, nulls)
	}
	inRow = false
	switch {
	case err != nil:
		resultError(ctx, err.Error())
	case null:
		row.kind = C.URLNORM_NULL
	case intResult:
		row.kind, row.v = C.URLNORM_INT, C.longlong(v)
	default:
		if err := bridge.TextTooBig(f, int64(len(out)), int64(limit)); err != nil {
			msg := err.Error()
			C.urlnorm_result_toobig(ctx, (*C.char)(unsafe.Pointer(unsafe.StringData(msg))), C.int(len(msg)))
			return
		}
		if len(out) > 0 && unsafe.SliceData(out) != (*byte)(unsafe.Pointer(buf)) {
			C.urlnorm_result_text(ctx, (*C.char)(unsafe.Pointer(unsafe.SliceData(out))), C.uint64_t(len(out)))
			return
		}
		row.kind, row.n = C.URLNORM_TEXT, C.uint64_t(len(out))
	}
}

func resultError(ctx unsafe.Pointer, msg string) {
	C.urlnorm_result_error(ctx, (*C.char)(unsafe.Pointer(unsafe.StringData(msg))), C.int(len(msg)))
}
