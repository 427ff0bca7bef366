package bridge

import (
	"fmt"
	"testing"

	"github.com/urlnorm/urlnorm/internal/sqltype"
	"github.com/urlnorm/urlnorm/udf"
)

// FuzzRecord: a record of any strings (cut from a and b at any lengths,
// NULL or not) is written by the columns' Record and by SQLite's JSON
// Record (given a as its hint: the pieces of a are quoted without a test
// of their own when a is plain) exactly as member by member
// (sqltype.WriteMembers); and
// try_parse_url of a through the bridge (Record) is the value udf's
// boxed Value builds.
//
//	go test ./internal/bridge -run - -fuzz FuzzRecord -parallel 1
func FuzzRecord(f *testing.F) {
	f.Add("https://user:pw@www.example.co.uk:8443/a/b.html?q=1#top", "x", uint8(0))
	f.Add("0123456789abcdefghijklmnopqrstuvwxyz", "é\"\\\x01", uint8(0x2a))
	f.Add("https://example.com/0123456789abc", "/0123456789abcdef", uint8(0)) // 33 and 17 bytes: past two of Record's copies
	typ := sqltype.MustParse("STRUCT(a VARCHAR, n INTEGER, b VARCHAR, ok BOOLEAN, c VARCHAR)")
	parse := udf.Overload("try_parse_url", 1)
	f.Fuzz(func(t *testing.T, a, b string, nulls uint8) {
		fs := []sqltype.Field{{S: a, Null: nulls&1 != 0}, {N: int64(len(b)), Null: nulls&2 != 0}, {S: b, Null: nulls&4 != 0},
			{N: int64(nulls >> 7), Null: nulls&8 != 0}, {S: a[:len(a)/2], Null: nulls&16 != 0}}
		fast, ref := NewColumn(typ), NewColumn(typ)
		for i := range 6 { // rows after rows, again after a Reset: buffers without and with room
			if i == 3 {
				fast.Reset()
				ref.Reset()
				mark(fast) // stale bytes would hide one not copied
			}
			for _, c := range []*Column{fast, ref} {
				writeRecord(c.Builder(), typ, fs, c == fast)
			}
		}
		if msg := sameColumn(fast, ref); msg != "" {
			t.Fatalf("columns: %s", msg)
		}
		var jr, jm sqltype.JSON
		jr.Reset(typ, nil)
		jm.Reset(typ, nil)
		r, own := sqltype.Fields(&jr, len(fs))
		copy(own, fs)
		sqltype.WriteRecord(&jr, r, typ, own, a) // a and a[:len(a)/2] are pieces of the hint
		sqltype.WriteMembers(&jm, typ, fs)
		if string(jr.Buf) != string(jm.Buf) {
			t.Fatalf("JSON: Record %s, member by member %s", jr.Buf, jm.Buf)
		}
		var got any
		err := Chunk(parse, 1, []Vector{duckStrings(a)}, NewColumn(parse.Returns), func(c *Column, _ int) error {
			got = rowValue(c, 0)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want, err := parse.Value([]string{a}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
			t.Fatalf("try_parse_url(%q): column %#v, Value %#v", a, got, want)
		}
	})
}
