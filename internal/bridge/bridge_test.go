package bridge

import (
	"bytes"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/urlnorm/urlnorm/udf"
)

// The extensions register exactly udf.Funcs, in order, then the
// test-only functions: none in a normal build, testpanic.go's in the
// urlnorm_testpanic build (which this test runs in too).
func TestFuncsAreUDF(t *testing.T) {
	want := append(append([]*udf.Func(nil), udf.Funcs...), testFuncs...)
	if len(Funcs) != len(want) {
		t.Fatalf("%d functions, want udf's %d and %d test-only", len(Funcs), len(udf.Funcs), len(testFuncs))
	}
	for i, f := range want {
		if Funcs[i] != f {
			t.Errorf("Funcs[%d] = %s, want %s", i, Funcs[i].Name, f.Name)
		}
	}
	for _, f := range testFuncs {
		if !strings.HasPrefix(f.Name, "urlnorm_test_") {
			t.Errorf("test-only function %s: its name must start with urlnorm_test_", f.Name)
		}
	}
}

// The columnar writer supports every result type of udf.Funcs.
func TestCheckType(t *testing.T) {
	for _, f := range udf.Funcs {
		if err := CheckType(f.Returns); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
	for _, s := range []string{"BOOLEAN", "INTEGER", "VARCHAR[]", "MAP(VARCHAR, VARCHAR[])", "STRUCT(a INTEGER, b BOOLEAN[])"} {
		if err := CheckType(mustType(t, s)); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	if err := CheckType(mustType(t, "UBIGINT[]")); err == nil {
		t.Error("UBIGINT[] accepted; Column has no UBIGINT")
	}
}

func mustType(t *testing.T, s string) *udf.SQLType {
	typ, err := udf.ParseSQLType(s)
	if err != nil {
		t.Fatal(err)
	}
	return typ
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
	mask := make([]uint64, 2048/64) // a DuckDB chunk's rows
	for i := range mask {
		mask[i] = ^uint64(0)
	}
	for _, r := range rows {
		mask[r/64] &^= 1 << (r % 64)
	}
	v.Validity = &mask[0]
	return v
}

func lookup(t *testing.T, name string, nargs int) *udf.Func {
	t.Helper()
	f := udf.Overload(name, nargs)
	if f == nil {
		t.Fatalf("no %s/%d", name, nargs)
	}
	return f
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

// collect is a flush that copies the rows out, as the C side would, and
// checks that they arrive in order.
type collect struct {
	t    *testing.T
	rows []string // "NULL" for NULL
	n    int      // flushes
}

func (c *collect) flush(col *Column, at int) error {
	c.n++
	if at != len(c.rows) {
		c.t.Errorf("flush at row %d, have %d rows", at, len(c.rows))
	}
	for i := range col.Len() {
		if col.Null(i) {
			c.rows = append(c.rows, "NULL")
		} else {
			c.rows = append(c.rows, string(col.Text(i)))
		}
	}
	return nil
}

func TestChunkText(t *testing.T) {
	urls := withNulls(duckStrings("HTTP://Example.COM:80/a/../b/", "no scheme", "x", "https://e.com/"), 2)
	profiles := duckStrings("default", "default", "default", "default")
	out := NewColumn(udf.Varchar)
	c := &collect{t: t}
	// try_: bad data gives NULL; NULL url gives NULL.
	if err := Chunk(lookup(t, "try_normalize_url", 2), 4, []Vector{urls, profiles}, out, c.flush); err != nil {
		t.Fatal(err)
	}
	if want := []string{"http://example.com/b", "NULL", "NULL", "https://e.com"}; fmt.Sprint(c.rows) != fmt.Sprint(want) || out.Len() != 0 {
		t.Errorf("rows %q, want %q; %d left in the column", c.rows, want, out.Len())
	}
	// The plain function raises on the bad row, with udf's message.
	err := Chunk(lookup(t, "normalize_url", 2), 4, []Vector{urls, profiles}, NewColumn(udf.Varchar), c.flush)
	if err == nil || !strings.HasPrefix(err.Error(), "normalize_url('no scheme', 'default'): missing_scheme") {
		t.Errorf("normalize_url error = %v", err)
	}
	// No argument: a result per row.
	c = &collect{t: t}
	if err := Chunk(lookup(t, "urlnorm_version", 0), 3, nil, NewColumn(udf.Varchar), c.flush); err != nil || len(c.rows) != 3 || c.rows[2] == "" {
		t.Errorf("urlnorm_version over 3 rows: %q, %v", c.rows, err)
	}
}

// An unknown profile raises even on a row whose url is NULL.
func TestChunkUnknownProfileOnNullRow(t *testing.T) {
	urls := withNulls(duckStrings("x"), 0)
	c := &collect{t: t}
	err := Chunk(lookup(t, "try_normalize_url", 2), 1, []Vector{urls, duckStrings("bogus")}, NewColumn(udf.Varchar), c.flush)
	if err == nil || !strings.Contains(err.Error(), "unknown_profile") {
		t.Errorf("error = %v, want unknown_profile", err)
	}
}

// A chunk of large results is handed over in pieces of about FlushBytes,
// every row intact (issue 16 item 2: row ends were 32-bit and a chunk
// past 4 GiB returned other rows' bytes).
func TestChunkFlushes(t *testing.T) {
	defer func(b int) { FlushBytes = b }(FlushBytes)
	FlushBytes = 1 << 20
	const rows, size = 300, 64 << 10 // 19 MB in all
	big := udf.NewText("big", []udf.Arg{{Name: "c"}}, func(dst []byte, a []string) ([]byte, bool, error) {
		return append(dst, bytes.Repeat([]byte(a[0]), size)...), false, nil
	})
	in := make([]string, rows)
	for i := range in {
		in[i] = string(rune('a' + i%26))
	}
	c := &collect{t: t}
	out := NewColumn(udf.Varchar)
	if err := Chunk(big, rows, []Vector{withNulls(duckStrings(in...), 7)}, out, c.flush); err != nil {
		t.Fatal(err)
	}
	if len(c.rows) != rows || c.n < 15 || out.Len() != 0 {
		t.Fatalf("%d rows in %d flushes, %d left", len(c.rows), c.n, out.Len())
	}
	for i, r := range c.rows {
		want := strings.Repeat(in[i], size)
		if i == 7 {
			want = "NULL"
		}
		if r != want {
			t.Fatalf("row %d: %d bytes of %q…; want %q×%d", i, len(r), r[:min(len(r), 3)], in[i], size)
		}
	}
	if cap(out.Buf) > 2*FlushBytes {
		t.Errorf("the column grew to %d bytes", cap(out.Buf))
	}
}

// Row ends are 64-bit: rows after the first 4 GiB of a column keep their
// own bytes. The 4 GiB are address space (mmap, never touched), not
// memory.
func TestColumnPast4GiB(t *testing.T) {
	const first = 1<<32 + 3
	mem, err := syscall.Mmap(-1, 0, first+1<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		t.Skipf("cannot reserve 4 GiB of address space: %v", err)
	}
	defer syscall.Munmap(mem)
	c := NewColumn(udf.Varchar)
	c.Buf = mem[:first]
	c.EndText(false)
	c.Buf = append(c.Buf, "xyz"...)
	c.EndText(false)
	c.EndText(true)
	if got := c.Text(1); string(got) != "xyz" || len(c.Text(0)) != first || len(c.Text(2)) != 0 {
		t.Errorf("row 1 = %q, row 0 %d bytes; want xyz, %d", got, len(c.Text(0)), first)
	}
}

// canonicalize_url's record lands in the STRUCT's columns: children as
// long as the struct, list entries pointing into the list's child.
func TestChunkRecord(t *testing.T) {
	urls := withNulls(duckStrings("https://boe.es/buscar;jsessionid=1?tipo=leyes&p=7&utm_source=x#top", "x", "https://a.example/"), 1)
	out := NewColumn(udf.RecordType)
	var got *Column
	flush := func(c *Column, at int) error { got = c; return nil }
	if err := Chunk(lookup(t, "canonicalize_url", 2), 3, []Vector{urls, duckStrings("clara", "clara", "clara")}, out, func(c *Column, at int) error {
		// keep a copy of the layout before Chunk resets the column
		cp := NewColumn(udf.RecordType)
		for i := range c.Len() {
			if err := cp.Append(rowValue(c, i)); err != nil {
				return err
			}
		}
		return flush(cp, at)
	}); err != nil {
		t.Fatal(err)
	}
	if got.Len() != 3 || !got.Nulls[1] || got.Nulls[0] || got.Nulls[2] {
		t.Fatalf("struct rows %d nulls %v", got.Len(), got.Nulls)
	}
	for i, ch := range got.Children {
		if ch.Len() != 3 || !ch.Null(1) {
			t.Errorf("child %s: %d rows, row 1 not NULL", udf.RecordType.Members[i].Name, ch.Len())
		}
	}
	removed := got.Children[fieldIndex(t, "removed_params")]
	// jsessionid (a path parameter), p (pagination), utm_source
	if e := removed.Entries; len(e) != 3 || e[0].Length != 3 || e[1].Length != 0 || e[2].Offset != e[0].Length {
		t.Errorf("removed_params entries %+v", e)
	}
	inPath := removed.Elem.Children[3]
	if removed.Elem.Len() != 3 || fmt.Sprint(inPath.Ints) != "[1 0 0]" {
		t.Errorf("removed_params: %d rows, in_path %v", removed.Elem.Len(), inPath.Ints)
	}
	frag := got.Children[fieldIndex(t, "fragment")]
	if string(frag.Text(0)) != "top" {
		t.Errorf("fragment = %q", frag.Text(0))
	}
}

// rowValue reads row i of c back as a value (tests only).
func rowValue(c *Column, i int) any {
	if c.Null(i) {
		return nil
	}
	t := c.Type
	switch {
	case t.IsStruct():
		v := make([]any, len(c.Children))
		for j, ch := range c.Children {
			v[j] = rowValue(ch, i)
		}
		return v
	case t.IsMap():
		var es []udf.Entry
		for k := range c.Entries[i].Length {
			kv := rowValue(c.Elem, int(c.Entries[i].Offset+k)).([]any)
			es = append(es, udf.Entry{Key: kv[0], Value: kv[1]})
		}
		return es
	case t.IsList():
		l := []any{}
		for k := range c.Entries[i].Length {
			l = append(l, rowValue(c.Elem, int(c.Entries[i].Offset+k)))
		}
		return l
	case t.Base == "VARCHAR":
		return string(c.Text(i))
	case t.Base == "BOOLEAN":
		return c.Ints[i] == 1
	}
	return c.Ints[i]
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

// Every value form goes in and comes back out: BOOLEAN, INTEGER, LIST,
// MAP and nested NULLs (the types issue 13's functions return).
func TestColumnRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		typ  string
		vals []any
	}{
		{"BOOLEAN", []any{true, nil, false}},
		{"INTEGER", []any{int64(8080), nil, int64(-1)}},
		{"VARCHAR[]", []any{[]any{"a", nil, "b"}, nil, []any{}}},
		{"MAP(VARCHAR, VARCHAR[])", []any{[]udf.Entry{{Key: "z", Value: []any{"1"}}, {Key: "a", Value: []any{"2", "3"}}}, nil, []udf.Entry(nil)}},
		{"STRUCT(host VARCHAR, port INTEGER, ok BOOLEAN)", []any{[]any{"a.example", int64(8080), true}, nil, []any{nil, nil, nil}}},
	} {
		c := NewColumn(mustType(t, tc.typ))
		for _, v := range tc.vals {
			if err := c.Append(v); err != nil {
				t.Fatalf("%s: Append(%v): %v", tc.typ, v, err)
			}
		}
		for i, v := range tc.vals {
			got := rowValue(c, i)
			if m, ok := v.([]udf.Entry); ok && m == nil {
				v = []udf.Entry(nil)
			}
			if fmt.Sprint(got) != fmt.Sprint(v) {
				t.Errorf("%s row %d = %v; want %v", tc.typ, i, got, v)
			}
		}
	}
}

// Append rejects values that do not have the type's shape, so a change in
// a function cannot silently write a wrong column.
func TestAppendShape(t *testing.T) {
	for _, tc := range []struct {
		typ string
		v   any
	}{
		{"STRUCT(url VARCHAR, hash VARCHAR)", []any{"x"}},
		{"VARCHAR", 3},
		{"INTEGER", int64(1) << 40}, // overflows INTEGER
		{"BOOLEAN", "true"},
		{"MAP(VARCHAR, VARCHAR)", []udf.Entry{{Key: nil, Value: "v"}}},
		{"VARCHAR[]", "a"},
	} {
		if err := NewColumn(mustType(t, tc.typ)).Append(tc.v); err == nil {
			t.Errorf("%s accepted %#v", tc.typ, tc.v)
		}
	}
}

// SQLite cannot take a text of 2 GiB or more (its lengths are 32-bit
// ints; issue 16 item 3), nor one over the connection's length limit.
func TestTextTooBig(t *testing.T) {
	f := lookup(t, "normalize_url", 1)
	for _, tc := range []struct {
		n, limit int64
		ok       bool
	}{
		{100, 1_000_000_000, true},
		{1_000_000_000, 1_000_000_000, true},
		{1_000_000_001, 1_000_000_000, false},
		{101, 100, false},            // a lowered SQLITE_LIMIT_LENGTH
		{1 << 31, 1<<31 - 1, false},  // negative as a C int
		{1<<32 + 10, 1 << 40, false}, // 10 as a C int: a silently truncated result
	} {
		if err := TextTooBig(f, tc.n, tc.limit); (err == nil) != tc.ok {
			t.Errorf("TextTooBig(%d, %d) = %v; want ok=%v", tc.n, tc.limit, err, tc.ok)
		}
	}
}

// Every composite or scalar non-text function writes through the column's
// Builder exactly the value udf's boxed form has, row by row (NULL rows
// and a try_ twin's rejected row included).
func TestChunkBuildsWhatValueReturns(t *testing.T) {
	urls := []string{"HTTPS://user:pw@www.Example.co.uk:8443/a/b.html?q=1&q=2&r#top", "x", "https://[::1]/",
		"http://192.168.0.1:80/a//b/", "https://example.com", "mailto:a@example.com", "https://é.example/%zz?"}
	in := withNulls(duckStrings(urls...), 1)
	compared := map[string]bool{}
	for _, f := range udf.Funcs {
		if len(f.Args) != 1 || f.Returns.Base == "VARCHAR" || f.Volatile {
			continue
		}
		col := NewColumn(f.Returns)
		var rows []any
		err := Chunk(f, len(urls), []Vector{in}, col, func(c *Column, _ int) error {
			for i := range c.Len() {
				rows = append(rows, rowValue(c, i))
			}
			return nil
		})
		if err != nil {
			if !f.Try {
				continue // a row the plain function rejects: the try_ twin covers it
			}
			t.Fatalf("%s: %v", f.Name, err)
		}
		for i, u := range urls {
			want, err := f.Value([]string{u}, []bool{i == 1})
			if err != nil {
				t.Fatalf("%s(%q): %v", f.Name, u, err)
			}
			if m, ok := want.([]udf.Entry); ok && len(m) == 0 {
				want = []udf.Entry(nil) // rowValue reads an empty MAP back as nil
			}
			if fmt.Sprintf("%#v", rows[i]) != fmt.Sprintf("%#v", want) {
				t.Errorf("%s(%q) column row %#v; Value %#v", f.Name, u, rows[i], want)
			}
		}
		compared[f.Name] = true
	}
	for _, name := range []string{"try_parse_url", "try_url_path_segments", "try_url_query_params", "try_canonicalize_url", "try_url_port", "is_valid_url"} {
		if !compared[name] {
			t.Errorf("%s not compared", name)
		}
	}
}

// A row function that writes a value of the wrong shape is reported as an
// internal error naming the function, never a crash or a wrong column.
func TestBuilderRejectsWrongShapes(t *testing.T) {
	typ := mustType(t, "STRUCT(a VARCHAR, b INTEGER)")
	for name, write := range map[string]func(b udf.Builder){
		"too few members":   func(b udf.Builder) { b.Begin(); b.String("x"); b.End() },
		"too many members":  func(b udf.Builder) { b.Begin(); b.String("x"); b.Int(1); b.Int(2); b.End() },
		"string for int":    func(b udf.Builder) { b.Begin(); b.String("x"); b.String("y"); b.End() },
		"int out of range":  func(b udf.Builder) { b.Begin(); b.String("x"); b.Int(1 << 40); b.End() },
		"scalar for STRUCT": func(b udf.Builder) { b.String("x") },
		"two values":        func(b udf.Builder) { b.Null(); b.Null() },
	} {
		f := udf.NewBuild("bad_"+strings.ReplaceAll(name, " ", "_"), []udf.Arg{{Name: "url"}}, typ, func(b udf.Builder, _ []string) (bool, error) {
			write(b)
			return false, nil
		})
		err := Chunk(f, 1, []Vector{duckStrings("https://example.com/")}, NewColumn(typ), func(*Column, int) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "internal error") || !strings.Contains(err.Error(), f.Name) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A composite column is flushed by size too: its builder counts the
// bytes written, so a chunk of large LISTs never builds up in Go.
func TestChunkFlushesComposite(t *testing.T) {
	defer func(b int) { FlushBytes = b }(FlushBytes)
	FlushBytes = 1 << 20
	const rows, size = 100, 64 << 10
	big := udf.NewBuild("big_list", []udf.Arg{{Name: "c"}}, mustType(t, "VARCHAR[]"), func(b udf.Builder, a []string) (bool, error) {
		b.Begin()
		b.String(strings.Repeat(a[0], size))
		b.String(a[0])
		b.End()
		return false, nil
	})
	in := make([]string, rows)
	for i := range in {
		in[i] = string(rune('a' + i%26))
	}
	flushes, got := 0, 0
	out := NewColumn(big.Returns)
	err := Chunk(big, rows, []Vector{duckStrings(in...)}, out, func(c *Column, at int) error {
		flushes++
		if c.Bytes() > FlushBytes+2*size {
			t.Errorf("flush at row %d holds %d bytes", at, c.Bytes())
		}
		for i := range c.Len() {
			l := rowValue(c, i).([]any)
			if len(l) != 2 || l[1] != in[at+i] || l[0] != strings.Repeat(in[at+i], size) {
				t.Fatalf("row %d: %d elements", at+i, len(l))
			}
			got++
		}
		return nil
	})
	if err != nil || got != rows || flushes < 6 {
		t.Fatalf("%d rows in %d flushes: %v", got, flushes, err)
	}
}
