package bridge

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/urlnorm/urlnorm/udf"
)

// The extensions register exactly udf.Funcs, in order (a normal build has
// no test-only functions).
func TestFuncsAreUDF(t *testing.T) {
	if len(Funcs) != len(udf.Funcs) {
		t.Fatalf("%d functions, udf has %d", len(Funcs), len(udf.Funcs))
	}
	for i, f := range udf.Funcs {
		if Funcs[i] != f {
			t.Errorf("Funcs[%d] = %s, want %s", i, Funcs[i].Name, f.Name)
		}
	}
}

// The columnar writer supports every type of canonicalize_url's record.
func TestCheckType(t *testing.T) {
	if err := CheckType(udf.RecordType); err != nil {
		t.Errorf("udf.RecordType: %v", err)
	}
	if err := CheckType(&udf.SQLType{Elem: &udf.SQLType{Base: "UBIGINT"}}); err == nil {
		t.Error("UBIGINT[] accepted; Column writes VARCHAR leaves only")
	}
}

// duckStrings lays strings out as DuckDB's duckdb_string_t array.
func duckStrings(vals ...string) Vector {
	data := make([]byte, 16*len(vals))
	for i, s := range vals {
		p := data[16*i:]
		*(*uint32)(unsafe.Pointer(&p[0])) = uint32(len(s))
		if len(s) <= 12 {
			copy(p[4:], s)
		} else {
			copy(p[4:8], s)
			*(**byte)(unsafe.Pointer(&p[8])) = unsafe.StringData(s)
		}
	}
	return Vector{Data: unsafe.Pointer(&data[0])}
}

func withNulls(v Vector, rows ...int) Vector {
	mask := []uint64{^uint64(0), ^uint64(0)}
	for _, r := range rows {
		mask[r/64] &^= 1 << (r % 64)
	}
	v.Validity = &mask[0]
	return v
}

func lookup(t *testing.T, name string, nargs int) *udf.Func {
	for _, f := range udf.Lookup(name) {
		if len(f.Args) == nargs {
			return f
		}
	}
	t.Fatalf("no %s/%d", name, nargs)
	return nil
}

func TestVector(t *testing.T) {
	long := "https://example.com/a/long/path" // > 12 bytes: stored by pointer
	v := withNulls(duckStrings("short", long, "", "x"), 3)
	for i, want := range []string{"short", long, ""} {
		if got := v.String(i); got != want || !v.Valid(i) {
			t.Errorf("row %d = %q valid=%v, want %q", i, got, v.Valid(i), want)
		}
	}
	if v.Valid(3) {
		t.Error("row 3 is valid, want NULL")
	}
}

func TestChunkText(t *testing.T) {
	urls := withNulls(duckStrings("HTTP://Example.COM:80/a/../b/", "no scheme", "x", "https://e.com/"), 2)
	profiles := duckStrings("default", "default", "default", "default")
	out := NewColumn(Varchar)
	// try_: bad data gives NULL; NULL url gives NULL.
	if err := Chunk(lookup(t, "try_normalize_url", 2), 4, []Vector{urls, profiles}, out); err != nil {
		t.Fatal(err)
	}
	want := []string{"http://example.com/b", "NULL", "NULL", "https://e.com"}
	for i, w := range want {
		start := 0
		if i > 0 {
			start = int(out.Ends[i-1])
		}
		got := string(out.Buf[start:out.Ends[i]])
		if out.Nulls[i] {
			got = "NULL"
		}
		if got != w {
			t.Errorf("row %d = %q, want %q", i, got, w)
		}
	}
	// The plain function raises on the bad row, with udf's message.
	out.Reset()
	err := Chunk(lookup(t, "normalize_url", 2), 4, []Vector{urls, profiles}, out)
	if err == nil || !strings.HasPrefix(err.Error(), "normalize_url('no scheme', 'default'): missing_scheme") {
		t.Errorf("normalize_url error = %v", err)
	}
}

// An unknown profile raises even on a row whose url is NULL.
func TestChunkUnknownProfileOnNullRow(t *testing.T) {
	urls := withNulls(duckStrings("x"), 0)
	out := NewColumn(Varchar)
	err := Chunk(lookup(t, "try_normalize_url", 2), 1, []Vector{urls, duckStrings("bogus")}, out)
	if err == nil || !strings.Contains(err.Error(), "unknown_profile") {
		t.Errorf("error = %v, want unknown_profile", err)
	}
	if !RaisesOnNull(lookup(t, "normalize_url", 2)) || RaisesOnNull(lookup(t, "normalize_url", 1)) || RaisesOnNull(lookup(t, "resolve_url", 2)) {
		t.Error("RaisesOnNull: want true only for functions with a profile argument")
	}
}

// canonicalize_url's record lands in the STRUCT's columns: children as
// long as the struct, list entries pointing into the list's child.
func TestChunkRecord(t *testing.T) {
	urls := withNulls(duckStrings("https://boe.es/buscar?tipo=leyes&p=7&utm_source=x#top", "x", "https://a.example/"), 1)
	out := NewColumn(udf.RecordType)
	if err := Chunk(lookup(t, "canonicalize_url", 2), 3, []Vector{urls, duckStrings("clara", "clara", "clara")}, out); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 3 || !out.Nulls[1] || out.Nulls[0] || out.Nulls[2] {
		t.Fatalf("struct rows %d nulls %v", out.Len(), out.Nulls)
	}
	for i, ch := range out.Children {
		if ch.Len() != 3 || !ch.Nulls[1] {
			t.Errorf("child %s: %d rows, nulls %v", udf.RecordType.Members[i].Name, ch.Len(), ch.Nulls)
		}
	}
	removed := out.Children[fieldIndex(t, "removed_params")]
	if e := removed.Entries; len(e) != 3 || e[0].Length == 0 || e[1].Length != 0 || e[2].Offset != e[0].Length {
		t.Errorf("removed_params entries %+v", e)
	}
	if removed.Elem.Len() != int(removed.Entries[0].Length) {
		t.Errorf("removed_params child has %d rows, entries say %d", removed.Elem.Len(), removed.Entries[0].Length)
	}
	frag := out.Children[fieldIndex(t, "fragment")]
	if string(frag.Buf[:frag.Ends[0]]) != "top" {
		t.Errorf("fragment = %q", frag.Buf[:frag.Ends[0]])
	}
}

func fieldIndex(t *testing.T, name string) int {
	for i, m := range udf.RecordType.Members {
		if m.Name == name {
			return i
		}
	}
	t.Fatalf("no field %s", name)
	return -1
}

// Append rejects values that do not have the type's shape, so a change in
// udf.Record cannot silently write a wrong column.
func TestAppendShape(t *testing.T) {
	c := NewColumn(udf.RecordType)
	if err := c.Append(map[string]any{"url": "x"}); err == nil {
		t.Error("a record with one field was accepted")
	}
	if err := NewColumn(Varchar).Append(3); err == nil {
		t.Error("an int was accepted as VARCHAR")
	}
}
