// Package bridge is the engine-side logic the two loadable extensions
// (ext/duckdb, ext/sqlite) share, kept free of cgo so it can be tested
// with plain "go test": which functions they register (exactly udf.Funcs,
// so they cannot drift from the embedded adapters), how a call is made,
// and how canonicalize_url's record is laid out as DuckDB columns.
//
// The cgo packages only move bytes between the host's C API and this
// package.
package bridge

import (
	"fmt"

	"github.com/urlnorm/urlnorm/udf"
)

// Funcs is what an extension registers: every overload of udf.Funcs, in
// order, plus test-only functions in builds tagged urlnorm_testpanic. The
// index into Funcs is the handle the C side passes back on every call.
var Funcs = append(append([]*udf.Func(nil), udf.Funcs...), testFuncs...)

// Text calls a Text function on non-NULL arguments, appending the result
// to dst; see udf.Func.CallText. In SQLite, canonicalize_url's record is
// text too (udf.JSON), so Text serves both result types there.
func Text(f *udf.Func, dst []byte, args []string) (out []byte, null bool, err error) {
	testHook(f, args)
	if f.Returns == udf.Canonical {
		res, null, err := f.CallCanonical(args)
		if err != nil || null {
			return dst, null, err
		}
		return append(dst, udf.JSON(res)...), false, nil
	}
	return f.CallText(dst, args)
}

// NullRow decides a row that has a NULL argument: NULL (nil), unless a
// non-NULL profile argument names no profile, which raises as it does on
// every row (udf.Func.CheckProfile). valid[i] reports whether args[i] is
// non-NULL.
func NullRow(f *udf.Func, args []string, valid []bool) error {
	if last := len(args) - 1; last > 0 && valid[last] {
		return f.CheckProfile(args[last])
	}
	return nil
}

// RaisesOnNull reports whether f can raise on a row with a NULL argument
// (its profile argument is checked even then; see NullRow). DuckDB must
// then call f for such rows instead of folding them to NULL. udf's
// CheckProfile decides, so the rule lives in one place: a name no profile
// can have is rejected only by functions that take a profile.
func RaisesOnNull(f *udf.Func) bool {
	return f.CheckProfile("\x00not a profile") != nil
}

// Record calls a Canonical function on non-NULL arguments and returns its
// record (udf.Record), or nil for a NULL result.
func Record(f *udf.Func, args []string) (map[string]any, error) {
	testHook(f, args)
	res, null, err := f.CallCanonical(args)
	if err != nil || null {
		return nil, err
	}
	return udf.Record(res), nil
}

// PanicError is the error an extension reports when it recovers a panic
// outside udf's own recovery (in the glue itself). fn is the SQL function
// name, or the extension entry point.
func PanicError(fn string, r any) string {
	return fmt.Sprintf("%s: internal error in the urlnorm extension: %v (please report this query)", fn, r)
}
