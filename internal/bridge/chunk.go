package bridge

import (
	"unsafe"

	"github.com/urlnorm/urlnorm/udf"
)

// Vector is a flat DuckDB VARCHAR vector as the C API hands it to a scalar
// function: an array of 16-byte duckdb_string_t and a validity mask (nil
// when every row is valid). The memory belongs to DuckDB and is only
// borrowed for the duration of one call.
type Vector struct {
	Data     unsafe.Pointer
	Validity *uint64
}

// Valid reports whether row is not NULL.
func (v Vector) Valid(row int) bool {
	if v.Validity == nil {
		return true
	}
	word := *(*uint64)(unsafe.Add(unsafe.Pointer(v.Validity), 8*(row/64)))
	return word&(1<<(row%64)) != 0
}

// String returns row's value without copying. duckdb_string_t is a
// uint32 length, then either the bytes inline (length ≤ 12) or a 4-byte
// prefix and a pointer.
func (v Vector) String(row int) string {
	p := unsafe.Add(v.Data, 16*row)
	n := *(*uint32)(p)
	if n <= 12 {
		return unsafe.String((*byte)(unsafe.Add(p, 4)), n)
	}
	return unsafe.String(*(**byte)(unsafe.Add(p, 8)), n)
}

// FlushBytes bounds the result bytes a chunk holds in Go: Chunk hands the
// rows so far to flush whenever the column holds more, so a chunk of large
// results (2048 rows of megabytes each) never builds gigabytes in Go, and
// no offset comes near a 32-bit limit on either side.
var FlushBytes = 32 << 20

// Chunk evaluates f over n rows of its argument vectors into out (a
// column of f.Returns), one result row per input row, with udf's row
// contract. It calls flush(out, at) with the rows from row at whenever out
// holds FlushBytes or more, and at the end, then empties out. It stops at
// the first error, which is ready to show to the SQL user.
//
// A panic while a row is evaluated is that row's internal error, as udf
// reports it; one recover serves the whole chunk (udf.Func.TextUnguarded).
// A panic in the bridge's own code between rows goes on to the host's
// handler.
func Chunk(f *udf.Func, n int, in []Vector, out *Column, flush func(c *Column, at int) error) (err error) {
	var argStore [udf.MaxArgs]string
	var nullStore [udf.MaxArgs]bool
	args, nulls := argStore[:len(in)], nullStore[:len(in)]
	inRow := false
	defer func() {
		if inRow {
			if r := recover(); r != nil {
				err = f.RowPanicError(r, args, nulls)
			}
		}
	}()
	at := 0
	for row := 0; row < n; row++ {
		for i, v := range in {
			nulls[i] = !v.Valid(row)
			args[i] = ""
			if !nulls[i] {
				args[i] = v.String(row)
			}
		}
		BeforeRow(f, args)
		inRow = true
		err := out.AppendRow(f, args, nulls)
		inRow = false
		if err != nil {
			return err
		}
		if out.Bytes() >= FlushBytes {
			if err := flush(out, at); err != nil {
				return err
			}
			at += out.Len()
			out.Reset()
		}
	}
	if out.Len() == 0 {
		return nil
	}
	err = flush(out, at)
	out.Reset()
	return err
}
