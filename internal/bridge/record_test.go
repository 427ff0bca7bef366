package bridge

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/sqltype"
	"github.com/urlnorm/urlnorm/udf"
)

// Record writes the very columns that Begin, a scalar call per member
// and End write (sqltype.WriteMembers, the reference): strings of every
// length from 0 to 40 (Record's copies change at 4, 8, 16 and 32 bytes),
// NULL members whose S is set, every scalar type and a composite member
// left NULL; as the row's value and as a LIST's element; into columns
// whose buffers start empty (each grows as it goes) and, after a Reset,
// with room. There the bytes past each buffer's end, marked before each
// row, stay as they were: a copy never writes outside its place.
func TestRecordMatchesMembers(t *testing.T) {
	typ := mustType(t, "STRUCT(a VARCHAR, n INTEGER, ok BOOLEAN, big BIGINT, b VARCHAR, l VARCHAR[], c VARCHAR)")
	src := strings.Repeat("0123456789abcdefghijklmnopqrstuvwxyz!?", 2)
	var rows [][]sqltype.Field
	for k := 0; k <= 40; k++ {
		rows = append(rows,
			[]sqltype.Field{{S: src[k%7 : k%7+k]}, {N: int64(k) - 20}, {N: int64(k % 2)}, {N: int64(k) << 40}, {S: src[:40-k]}, {Null: true}, {S: src[3 : 3+k/2]}},
			[]sqltype.Field{{S: "x", Null: true}, {N: 1, Null: true}, {Null: true}, {Null: true}, {S: src[:k]}, {Null: true}, {Null: true}})
	}
	for _, root := range []*udf.SQLType{typ, {Elem: typ}} {
		fast, ref := NewColumn(root), NewColumn(root)
		for round := range 2 {
			fast.Reset()
			ref.Reset()
			for _, r := range rows {
				if round == 1 {
					mark(fast)
				}
				for _, c := range []*Column{fast, ref} {
					b := c.Builder()
					if root != typ {
						b.Begin()
					}
					writeRecord(b, typ, r, c == fast)
					if root != typ {
						b.End()
					}
				}
				if msg := marked(fast); round == 1 && msg != "" {
					t.Fatalf("%s: %s", root.SQL(), msg)
				}
			}
			if msg := sameColumn(fast, ref); msg != "" {
				t.Errorf("%s, round %d: %s", root.SQL(), round, msg)
			}
			if fast.Bytes() != ref.Bytes() {
				t.Errorf("%s, round %d: Bytes %d, member by member %d", root.SQL(), round, fast.Bytes(), ref.Bytes())
			}
		}
	}
}

// mark fills the spare capacity of every VARCHAR buffer in c with '#'.
func mark(c *Column) {
	if c.kind == kindVarchar {
		spare := c.Buf[len(c.Buf):cap(c.Buf)]
		for i := range spare {
			spare[i] = '#'
		}
	}
	for _, ch := range c.Children {
		mark(ch)
	}
	if c.Elem != nil {
		mark(c.Elem)
	}
}

// marked describes a VARCHAR buffer of c whose spare capacity is not all
// '#', or is "".
func marked(c *Column) string {
	if c.kind == kindVarchar {
		if spare := c.Buf[len(c.Buf):cap(c.Buf)]; strings.Trim(string(spare), "#") != "" {
			return fmt.Sprintf("%s: a write past the end: %q", c.Type.SQL(), spare)
		}
	}
	for _, ch := range c.Children {
		if msg := marked(ch); msg != "" {
			return msg
		}
	}
	if c.Elem != nil {
		return marked(c.Elem)
	}
	return ""
}

// A record whose fields do not fit the column is a bug in the row
// function, reported as an internal error like the other wrong shapes.
func TestRecordRejectsWrongShapes(t *testing.T) {
	for _, tc := range []struct{ typ, name string }{
		{"STRUCT(a VARCHAR)", "too many fields"},
		{"STRUCT(a VARCHAR, b VARCHAR, c VARCHAR)", "too few fields"},
		{"STRUCT(a VARCHAR, b INTEGER)", "out of range"},
		{"STRUCT(a VARCHAR, b VARCHAR[])", "a LIST not NULL"},
		{"VARCHAR[]", "a record for a LIST"},
	} {
		f := udf.NewBuild("bad_record", []udf.Arg{{Name: "url"}}, mustType(t, tc.typ), func(b udf.Builder, _ []string) (bool, error) {
			_, fs := sqltype.Fields(b, 2)
			fs[0], fs[1] = sqltype.Field{S: "x"}, sqltype.Field{N: 1 << 40}
			b.(sqltype.RecordBuilder).Record(fs, "")
			return false, nil
		})
		err := Chunk(f, 1, []Vector{duckStrings("https://example.com/")}, NewColumn(f.Returns), func(*Column, int) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "internal error") {
			t.Errorf("%s (%s): %v", tc.name, tc.typ, err)
		}
	}
}

// try_parse_url through the bridge (Record) has, row for row of a chunk
// of the shipped web URLs and their oddities (a NULL row, a row it rejects), the
// value udf's boxed Value builds, across flushes in the middle of the
// chunk (a small FlushBytes) and the columns' reuse after each.
func TestChunkParseURLAsValue(t *testing.T) {
	defer func(b int) { FlushBytes = b }(FlushBytes)
	FlushBytes = 4 << 10
	data, err := os.ReadFile("../../testdata/urls/kasztp.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	urls := append(lines[:min(len(lines), 2000)], "HTTPS://user:pw@www.Example.co.uk:8443/a/b.html?q=1#top",
		"https://[::1]:1/", "http://192.168.0.1/", "mailto:a@example.com", "sc://h", "https://é.example/%zz?#", "x", "null row")
	f := udf.Overload("try_parse_url", 1)
	var rows []any
	flushes := 0
	err = Chunk(f, len(urls), []Vector{withNulls(duckStrings(urls...), len(urls)-1)}, NewColumn(f.Returns), func(c *Column, _ int) error {
		flushes++
		for i := range c.Len() {
			rows = append(rows, rowValue(c, i))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if flushes < 3 {
		t.Errorf("%d flushes: the chunk was not cut", flushes)
	}
	for i, u := range urls {
		want, err := f.Value([]string{u}, []bool{i == len(urls)-1})
		if err != nil {
			t.Fatal(err)
		}
		if got := rows[i]; fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
			t.Errorf("try_parse_url(%q): column %#v, Value %#v", u, got, want)
		}
	}
	if rows[len(rows)-1] != nil || rows[len(rows)-2] != nil {
		t.Errorf("the NULL row and the rejected row: %#v, %#v", rows[len(rows)-1], rows[len(rows)-2])
	}
}

// writeRecord writes the record fs of type typ to b through the builder's
// own Fields: in one call (WriteRecord) when fast, else member by member
// (WriteMembers, the reference).
func writeRecord(b sqltype.Builder, typ *udf.SQLType, fs []sqltype.Field, fast bool) {
	r, own := sqltype.Fields(b, len(fs))
	copy(own, fs)
	if fast {
		sqltype.WriteRecord(b, r, typ, own, "")
	} else {
		sqltype.WriteMembers(b, typ, own)
	}
}
