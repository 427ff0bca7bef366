//go:build cgo

package sqlitecapi

/*
#include <stdint.h>

// Declarations only: the definitions are in xfunc.h.
void urlnorm_result_text(void *ctx, const char *p, uint64_t n);
void urlnorm_result_int(void *ctx, long long v);
long long urlnorm_length_limit(void *ctx);
void urlnorm_result_toobig(void *ctx, const char *p, int n);
void urlnorm_result_null(void *ctx);
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
// every row) and the result buffer, reused through a pool.
type rowState struct {
	args  [udf.MaxArgs]string
	nulls [udf.MaxArgs]bool
	out   []byte
}

var states = sync.Pool{New: func() any { return new(rowState) }}

// SQLite's fundamental type codes, from the C side's header.
var (
	typeNull    = C.urlnorm_type_null()
	typeInteger = C.urlnorm_type_integer()
	typeFloat   = C.urlnorm_type_float()
)

// urlnormSqliteCall runs bridge.Funcs[fn] on one row and sets the result.
// Text arguments are borrowed from SQLite for the call; a NULL or a
// number comes as its type (and value in ints or nums), text NULL. udf
// applies the row contract; this only converts SQLite's values.
//
//export urlnormSqliteCall
func urlnormSqliteCall(ctx unsafe.Pointer, fn C.uintptr_t, argc C.int, text **C.char, lens *C.int,
	types *C.int, ints *C.longlong, nums *C.double) {
	f := bridge.Funcs[fn]
	defer func() {
		if r := recover(); r != nil {
			resultError(ctx, udf.PanicError(f.Name, r).Error())
		}
	}()
	st := states.Get().(*rowState)
	defer states.Put(st)
	args, nulls := st.args[:argc], st.nulls[:argc]
	// The arguments are SQLite's memory, valid for this call only.
	defer clear(args)
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
	var v int64
	var out []byte
	var null bool
	var err error
	intResult := f.IntResult()
	if intResult {
		v, null, err = f.Int(args, nulls)
	} else {
		out, null, err = f.Text(st.out[:0], args, nulls)
		st.out = out
		if err == nil && !null {
			if err = bridge.TextTooBig(f, int64(len(out)), int64(C.urlnorm_length_limit(ctx))); err != nil {
				msg := err.Error()
				C.urlnorm_result_toobig(ctx, (*C.char)(unsafe.Pointer(unsafe.StringData(msg))), C.int(len(msg)))
				return
			}
		}
	}
	switch {
	case err != nil:
		resultError(ctx, err.Error())
	case null:
		C.urlnorm_result_null(ctx)
	case intResult:
		C.urlnorm_result_int(ctx, C.longlong(v))
	default:
		C.urlnorm_result_text(ctx, (*C.char)(unsafe.Pointer(unsafe.SliceData(out))), C.uint64_t(len(out)))
	}
}

func resultError(ctx unsafe.Pointer, msg string) {
	C.urlnorm_result_error(ctx, (*C.char)(unsafe.Pointer(unsafe.StringData(msg))), C.int(len(msg)))
}
