package sqltype

import (
	"reflect"
	"strings"
	"testing"
)

var (
	_ RecordBuilder = (*JSON)(nil)
	_ RecordBuilder = (*Boxed)(nil)
)

// recordCases are records of every scalar type, NULL or not (a NULL
// field's S and N are not read), strings JSON writes plainly or escapes,
// and a composite member, which a record can only leave NULL.
func recordCases() (typ *Type, rows [][]Field) {
	typ = MustParse("STRUCT(s VARCHAR, n INTEGER, ok BOOLEAN, big BIGINT, l VARCHAR[], t VARCHAR)")
	strs := []string{"", "a", "https", "quote \" backslash \\", "é ✓", "\x01", strings.Repeat("x", 40)}
	for i, s := range strs {
		rows = append(rows,
			[]Field{{S: s}, {N: int64(i) - 3}, {N: int64(i % 2)}, {N: int64(i) << 40}, {Null: true}, {S: strs[len(strs)-1-i]}},
			[]Field{{S: "ignored", Null: true}, {N: 7, Null: true}, {N: 1, Null: true}, {Null: true}, {Null: true}, {S: s}})
	}
	return typ, rows
}

// JSON's and Boxed's Record write what WriteMembers (Begin, a scalar call
// per member, End) writes, as the root value and as a member of a STRUCT
// and an element of a LIST around it, with a second record after it.
func TestRecordMatchesMembers(t *testing.T) {
	typ, rows := recordCases()
	outer := &Type{Members: []*Member{{Name: "x", Type: MustParse("INTEGER")}, {Name: "r", Type: typ}, {Name: "y", Type: MustParse("VARCHAR")}}}
	list := &Type{Elem: typ}
	write := func(b Builder, r RecordBuilder, root *Type, fs []Field, record bool) {
		put := func() {
			if record {
				WriteRecord(b, r, typ, fs, "")
			} else {
				WriteMembers(b, typ, fs)
			}
		}
		switch root {
		case typ:
			put()
		case outer:
			b.Begin()
			b.Int(1)
			put()
			b.String("z")
			b.End()
		case list:
			b.Begin()
			put()
			put()
			b.End()
		}
	}
	for _, root := range []*Type{typ, outer, list} {
		for i, r := range rows {
			var jr, jm JSON
			var xr, xm Boxed
			for _, b := range []struct {
				b      Builder
				record bool
			}{{&jr, true}, {&jm, false}, {&xr, true}, {&xm, false}} {
				switch b := b.b.(type) {
				case *JSON:
					b.Reset(root, []byte("#"))
				case *Boxed:
					b.Reset(root)
				}
				rb, fs := Fields(b.b, len(r))
				copy(fs, r)
				write(b.b, rb, root, fs, b.record)
			}
			if string(jr.Buf) != string(jm.Buf) {
				t.Errorf("%s row %d: JSON Record wrote %s, member by member %s", root.SQL(), i, jr.Buf, jm.Buf)
			}
			if !reflect.DeepEqual(xr.Value(), xm.Value()) {
				t.Errorf("%s row %d: Boxed Record built %#v, member by member %#v", root.SQL(), i, xr.Value(), xm.Value())
			}
		}
	}
}

// A record whose fields do not match its type is a bug in the row
// function: every builder panics, as WriteMembers does.
func TestRecordRejects(t *testing.T) {
	typ := MustParse("STRUCT(s VARCHAR, l VARCHAR[])")
	for name, fs := range map[string][]Field{
		"too few fields":        {{S: "a"}},
		"too many fields":       {{S: "a"}, {Null: true}, {S: "b"}},
		"a composite not NULL":  {{S: "a"}, {S: "b"}},
		"a record for a scalar": nil,
	} {
		root := typ
		if fs == nil {
			root, fs = MustParse("VARCHAR"), []Field{{S: "a"}}
		}
		var j JSON
		j.Reset(root, nil)
		var x Boxed
		x.Reset(root)
		for _, b := range []RecordBuilder{&j, &x} {
			if !panics(func() { b.Record(fs, "") }) {
				t.Errorf("%s: %T's Record did not panic", name, b)
			}
		}
		if !panics(func() { WriteMembers(&j, root, fs) }) {
			t.Errorf("%s: WriteMembers did not panic", name)
		}
	}
}

func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}

// Fields hands out the builder's own fields, reused from record to
// record, and new ones for a Builder that is not a RecordBuilder.
func TestFieldsReused(t *testing.T) {
	var j JSON
	a, b := j.Fields(3), j.Fields(2)
	if &a[0] != &b[0] {
		t.Error("JSON's Fields are not reused")
	}
	if r, c := Fields(&j, 1); r != &j || &c[0] != &a[0] {
		t.Error("Fields(JSON) is not JSON's")
	}
	if r, c := Fields(countOnly{}, 4); r != nil || len(c) != 4 {
		t.Errorf("Fields of a plain Builder: %v, %d fields", r, len(c))
	}
}

type countOnly struct{}

func (countOnly) Null()         {}
func (countOnly) String(string) {}
func (countOnly) Int(int64)     {}
func (countOnly) Bool(bool)     {}
func (countOnly) Begin()        {}
func (countOnly) End()          {}
