//go:build !urlnorm_ext

package duckcapi

/*
#cgo CFLAGS: -DDUCKDB_STATIC_BUILD
#include <stdint.h>
*/
import "C"

import (
	"unsafe"

	// The embedded mode calls DuckDB's C functions: duckdb-go-bindings
	// links libduckdb statically, so importing duckdb-go makes this
	// package link on its own.
	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/urlnorm/urlnorm/internal/bridge"
	"github.com/urlnorm/urlnorm/udf"
)

// urlnormDuckBind checks argument i of bridge.Funcs[fn], a constant v,
// when DuckDB binds a query (udf.Func.CheckArg: an unknown profile). It
// returns NULL or a malloc'd error message, which fails the query.
//
//export urlnormDuckBind
func urlnormDuckBind(fn, i C.uint64_t, v *C.char, n C.size_t) (cerr *C.char) {
	f := bridge.Funcs[fn]
	defer func() {
		if r := recover(); r != nil {
			cerr = raise(udf.PanicError(f.Name, r))
		}
	}()
	if int(i) >= len(f.Args) {
		return nil
	}
	if err := f.CheckArg(int(i), unsafe.String((*byte)(unsafe.Pointer(v)), int(n))); err != nil {
		return raise(err)
	}
	return nil
}
