//go:build urlnorm_ext

// Command sqlite is urlnorm's SQLite loadable extension (urlnorm.so, entry
// point sqlite3_urlnorm_init), built with -buildmode=c-shared against
// sqlite3ext.h. It registers exactly bridge.Funcs, i.e. udf.Funcs, as
// deterministic, innocuous functions; canonicalize_url returns JSON text.
// See docs/extensions.md.
//
// Build it with "make extensions" (the build tag urlnorm_ext keeps it out
// of "go build ./...").
package main

/*
#include <stdint.h>

// Declarations only: the definitions are in ext.c.
void urlnorm_result_text(void *ctx, const char *p, int n);
void urlnorm_result_null(void *ctx);
void urlnorm_result_error(void *ctx, const char *p, int n);
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/urlnorm/urlnorm/ext/internal/bridge"
)

func main() {}

// names are the C strings of the function names, made once: SQLite keeps
// its own copy, the entry point may run once per connection.
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

var buffers = sync.Pool{New: func() any { return new([]byte) }}

// urlnormSqliteCall runs bridge.Funcs[fn] on one row of text arguments
// (borrowed from SQLite for the call; length -1 for NULL) and sets the
// result.
//
//export urlnormSqliteCall
func urlnormSqliteCall(ctx unsafe.Pointer, fn C.uintptr_t, argc C.int, text **C.char, lens *C.int) {
	f := bridge.Funcs[fn]
	defer func() {
		if r := recover(); r != nil {
			resultError(ctx, bridge.PanicError(f.Name, r))
		}
	}()
	var a [8]string
	var v [8]bool
	args, valid := a[:argc], v[:argc]
	ts, ls := unsafe.Slice(text, argc), unsafe.Slice(lens, argc)
	null := false
	for i := range args {
		if valid[i] = ls[i] >= 0; valid[i] {
			args[i] = unsafe.String((*byte)(unsafe.Pointer(ts[i])), int(ls[i]))
		}
		null = null || !valid[i]
	}
	if null {
		if err := bridge.NullRow(f, args, valid); err != nil {
			resultError(ctx, err.Error())
		} else {
			C.urlnorm_result_null(ctx)
		}
		return
	}
	buf := buffers.Get().(*[]byte)
	defer buffers.Put(buf)
	out, null, err := bridge.Text(f, (*buf)[:0], args)
	*buf = out
	switch {
	case err != nil:
		resultError(ctx, err.Error())
	case null:
		C.urlnorm_result_null(ctx)
	default:
		C.urlnorm_result_text(ctx, (*C.char)(unsafe.Pointer(unsafe.SliceData(out))), C.int(len(out)))
	}
}

func resultError(ctx unsafe.Pointer, msg string) {
	C.urlnorm_result_error(ctx, (*C.char)(unsafe.Pointer(unsafe.StringData(msg))), C.int(len(msg)))
}
