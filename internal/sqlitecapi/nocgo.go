//go:build !cgo

package sqlitecapi

import (
	"errors"
	"unsafe"
)

// Register fails without cgo; so does mattn/go-sqlite3 (a stub).
func Register(unsafe.Pointer) error {
	return errors.New("urlnorm: the SQLite functions need cgo (CGO_ENABLED=1)")
}
