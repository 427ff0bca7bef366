// Package bridge is the engine-side logic the two loadable extensions
// (ext/duckdb, ext/sqlite) share, kept free of cgo so it can be tested
// with plain "go test": which functions they register (exactly udf.Funcs,
// so they cannot drift from the embedded adapters), how a DuckDB chunk is
// read and how results are laid out as DuckDB vectors (Column), and the
// limits of a SQLite result.
//
// udf applies the row contract (NULL, try_, errors, panics); the cgo
// packages only move bytes between the host's C API and this package.
package bridge

import (
	"fmt"

	"github.com/urlnorm/urlnorm/udf"
)

// Funcs is what an extension registers: every overload of udf.Funcs, in
// order, plus test-only functions in builds tagged urlnorm_testpanic. The
// index into Funcs is the handle the C side passes back on every call.
var Funcs = append(append([]*udf.Func(nil), udf.Funcs...), testFuncs...)

// TextTooBig is the error of a text result that SQLite cannot take: over
// the connection's SQLITE_LIMIT_LENGTH (limit), or over what its C API
// can address. Nil when n bytes fit.
func TextTooBig(f *udf.Func, n, limit int64) error {
	if n <= limit && n <= maxSQLiteText {
		return nil
	}
	return fmt.Errorf("%s: result too big: %d bytes, over SQLite's length limit of %d (SQLITE_LIMIT_LENGTH)", f.Name, n, min(limit, maxSQLiteText))
}

// maxSQLiteText is the most bytes a SQLite value can hold: its lengths
// are 32-bit signed ints inside, whatever sqlite3_result_text64 takes.
const maxSQLiteText = 1<<31 - 1
