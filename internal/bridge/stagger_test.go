package bridge

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/urlnorm/urlnorm/internal/sqltype"
)

// A STRUCT's VARCHAR members share one array for their ends
// (staggerEnds): each starts a line past a page boundary than the one
// before, and one that outgrows its room (more rows than a DuckDB chunk,
// as a LIST's elements may be) moves out without writing over the next
// one's. Every row reads back as written, across a Reset.
func TestStaggeredEnds(t *testing.T) {
	typ := mustType(t, "STRUCT(a VARCHAR, n INTEGER, b VARCHAR, c VARCHAR)")
	c := NewColumn(typ)
	var starts []uintptr
	for _, ch := range c.Children {
		if ch.kind == kindVarchar {
			if cap(ch.Ends) != chunkRows {
				t.Fatalf("%s: room for %d ends, want %d", ch.Type.SQL(), cap(ch.Ends), chunkRows)
			}
			starts = append(starts, uintptrOf(ch.Ends))
		}
	}
	for i := 1; i < len(starts); i++ {
		if starts[i]%4096 == starts[i-1]%4096 {
			t.Errorf("members %d and %d start at the same offset of a page", i-1, i)
		}
	}
	for round := range 2 {
		c.Reset()
		const rows = 3*chunkRows + 5
		for i := range rows {
			b := c.Builder()
			r, fs := sqltype.Fields(b, 4)
			fs[0], fs[1], fs[2], fs[3] = sqltype.Field{S: fmt.Sprint("a", i)}, sqltype.Field{N: int64(i)}, sqltype.Field{S: fmt.Sprint("bb", i), Null: i%3 == 0}, sqltype.Field{S: fmt.Sprint("ccc", i)}
			sqltype.WriteRecord(b, r, typ, fs, "")
		}
		for i := range rows {
			var b any = fmt.Sprint("bb", i)
			if i%3 == 0 {
				b = nil
			}
			want := fmt.Sprintf("%#v", []any{fmt.Sprint("a", i), int64(i), b, fmt.Sprint("ccc", i)})
			if got := fmt.Sprintf("%#v", rowValue(c, i)); got != want {
				t.Fatalf("round %d, row %d: %s, want %s", round, i, got, want)
			}
		}
	}
}

func uintptrOf(s []uint64) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(s))) }
