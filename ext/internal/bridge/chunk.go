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

// Chunk evaluates f over n rows of its argument vectors into out (a
// Varchar column for Text functions, a RecordType column for Canonical
// ones), one result row per input row: NULL when any argument is NULL (but see
// NullRow) or when a try_ function rejects the row. It stops at the first error, which
// is ready to show to the SQL user.
func Chunk(f *udf.Func, n int, in []Vector, out *Column) error {
	args := make([]string, len(in))
	valid := make([]bool, len(in))
	for row := 0; row < n; row++ {
		null := false
		for i, v := range in {
			valid[i] = v.Valid(row)
			args[i] = ""
			if valid[i] {
				args[i] = v.String(row)
			}
			null = null || !valid[i]
		}
		if null {
			if err := NullRow(f, args, valid); err != nil {
				return err
			}
			out.AppendNull()
			continue
		}
		if err := call(f, args, out); err != nil {
			return err
		}
	}
	return nil
}

func call(f *udf.Func, args []string, out *Column) error {
	if f.Returns == udf.Canonical {
		rec, err := Record(f, args)
		if err != nil {
			return err
		}
		return out.Append(asAny(rec))
	}
	var null bool
	var err error
	out.Buf, null, err = Text(f, out.Buf, args)
	if err != nil {
		return err
	}
	out.EndText(null)
	return nil
}

// asAny keeps a nil record a nil interface (a NULL row).
func asAny(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}
