//go:build cgo && !urlnorm_ext

package sqlitecapi

/*
#include "sqlite3decl.h"

int urlnorm_register(sqlite3 *db, char **errmsg); // xfunc.h
*/
import "C"

import (
	"errors"
	"unsafe"

	// SQLite itself: the C side calls the functions of the amalgamation
	// that mattn/go-sqlite3 compiles into the binary.
	_ "github.com/mattn/go-sqlite3"
)

// Register registers every function of bridge.Funcs on the connection db,
// a sqlite3* of the SQLite linked into this binary (mattn/go-sqlite3's),
// open and not used by another goroutine during the call.
func Register(db unsafe.Pointer) error {
	if db == nil {
		return errors.New("urlnorm: registering the SQLite functions: no connection")
	}
	var msg *C.char
	if rc := C.urlnorm_register((*C.sqlite3)(db), &msg); rc != 0 {
		defer C.sqlite3_free(unsafe.Pointer(msg))
		if msg == nil {
			return errors.New("urlnorm: registering the SQLite functions: out of memory")
		}
		return errors.New(C.GoString(msg))
	}
	return nil
}
