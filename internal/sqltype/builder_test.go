package sqltype

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// Writing a boxed value to a Builder gives the same JSON as EncodeJSON
// (SQLite's output must not change) and the same boxed value back.
func TestBuilders(t *testing.T) {
	record := MustParse("STRUCT(scheme VARCHAR, port INTEGER, ok BOOLEAN, segs VARCHAR[], params MAP(VARCHAR, VARCHAR[]), inner STRUCT(a VARCHAR, b BIGINT))")
	for _, tc := range []struct {
		typ string
		v   any
	}{
		{"VARCHAR[]", []any{"a", "", nil, "b c"}}, // url_path_segments: empty and NULL elements
		{"VARCHAR[]", []any{}},                    // an empty LIST is [], not null
		{"VARCHAR[]", []any{"quote \" backslash \\ tab \t", "é ✓", "\u2028", "<&>"}}, // escaped as encoding/json does, '&' as it is
		{"MAP(VARCHAR, VARCHAR[])", []Entry{{"a", []any{"1", "3"}}, {"b", []any{}}, {"", []any{nil}}}},
		{"MAP(VARCHAR, VARCHAR[])", []Entry{}},
		{"MAP(BIGINT, BOOLEAN)", []Entry{{int64(7), true}, {int64(-1), false}}}, // a non-text key is a JSON string
		{record.SQL(), []any{"https", int64(8443), true, []any{"a", "b"}, []Entry{{"q", []any{"1"}}}, []any{"x", int64(1) << 40}}},
		{record.SQL(), []any{"https", nil, false, nil, nil, nil}}, // NULL members
		{record.SQL(), nil},
		{"BIGINT", int64(-3)},
	} {
		typ := MustParse(tc.typ)
		var want bytes.Buffer
		if err := typ.EncodeJSON(&want, tc.v); err != nil {
			t.Fatalf("%s %v: %v", tc.typ, tc.v, err)
		}
		j := &JSON{}
		j.Reset(typ, []byte("prefix:"))
		if err := Write(j, typ, tc.v); err != nil {
			t.Fatalf("%s %v: %v", tc.typ, tc.v, err)
		}
		if got := string(j.Buf); got != "prefix:"+want.String() {
			t.Errorf("%s: JSON builder wrote %s, EncodeJSON %s", tc.typ, got, want.String())
		}
		var x Boxed
		x.Reset(typ)
		if err := Write(&x, typ, tc.v); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(x.Value(), tc.v) {
			t.Errorf("%s: Boxed built %#v, want %#v", tc.typ, x.Value(), tc.v)
		}
	}
}

// Boxed copies the strings it is given: a row function may hand it
// strings that alias a buffer it reuses.
func TestBoxedCopiesStrings(t *testing.T) {
	typ := MustParse("VARCHAR[]")
	buf := []byte("first")
	var x Boxed
	x.Reset(typ)
	x.Begin()
	x.String(string(buf[:3]))
	x.String(unsafeString(buf))
	x.End()
	copy(buf, "XXXXX")
	if got := x.Value().([]any); got[0] != "fir" || got[1] != "first" {
		t.Fatalf("Boxed kept aliases: %q", got)
	}
}

// Write refuses a value that does not have its type's form.
func TestWriteRejects(t *testing.T) {
	for _, tc := range []struct {
		typ string
		v   any
	}{
		{"VARCHAR[]", "not a list"},
		{"STRUCT(a VARCHAR, b VARCHAR)", []any{"one member"}},
		{"MAP(VARCHAR, VARCHAR)", []Entry{{nil, "x"}}}, // a NULL key
		{"INTEGER", int64(1) << 40},                    // out of range
		{"VARCHAR", 3},
	} {
		var x Boxed
		x.Reset(MustParse(tc.typ))
		if err := Write(&x, MustParse(tc.typ), tc.v); err == nil {
			t.Errorf("%s: %#v accepted", tc.typ, tc.v)
		}
	}
}

func unsafeString(b []byte) string { return unsafe.String(&b[0], len(b)) }

// jsonPlain answers what a byte loop answers: every byte value at every
// position of strings of 1 to 24 bytes (the word steps and the tail),
// and two bad bytes at once (the word test may flag a byte above a bad
// one wrongly, never miss one).
func TestJSONPlain(t *testing.T) {
	plain := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
				return false
			}
		}
		return true
	}
	for n := 1; n <= 24; n++ {
		for i := range n {
			for c := range 256 {
				b := []byte(strings.Repeat("a", n))
				b[i] = byte(c)
				if got, want := jsonPlain(string(b)), plain(string(b)); got != want {
					t.Fatalf("jsonPlain(%q) = %v, want %v", b, got, want)
				}
				for _, d := range []byte{0x00, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0xff, '"', '\\', '!'} {
					b2 := append([]byte(nil), b...)
					b2[(i+3)%n] = d
					if got, want := jsonPlain(string(b2)), plain(string(b2)); got != want {
						t.Fatalf("jsonPlain(%q) = %v, want %v", b2, got, want)
					}
				}
			}
		}
	}
}

// A STRUCT member's key is written with one 32-byte copy when it fits and
// the buffer has room, by append otherwise: keys of 29 to 40 encoded bytes
// (the first member's has no ','), into buffers with 0 to 40 bytes of
// spare capacity holding garbage, give EncodeJSON's text.
func TestJSONStructKeys(t *testing.T) {
	typ := MustParse("STRUCT(" + strings.Repeat("a", 26) + " VARCHAR, " + strings.Repeat("b", 28) + " VARCHAR, " +
		strings.Repeat("c", 29) + " INTEGER, d VARCHAR, " + strings.Repeat("e", 36) + " VARCHAR, " + strings.Repeat("f", 27) + " VARCHAR)")
	v := []any{"x", nil, int64(5), "", "yz", "w"}
	var want bytes.Buffer
	if err := typ.EncodeJSON(&want, v); err != nil {
		t.Fatal(err)
	}
	for spare := 0; spare <= 40; spare++ {
		buf := make([]byte, 3, 3+spare)
		copy(buf[:cap(buf)], strings.Repeat("#", cap(buf)))
		j := &JSON{}
		j.Reset(typ, buf)
		if err := Write(j, typ, v); err != nil {
			t.Fatal(err)
		}
		if got := string(j.Buf); got != "###"+want.String() {
			t.Errorf("spare %d: JSON builder wrote %s, EncodeJSON %s", spare, got, want.String())
		}
	}
}

// JSON's Split writes what Begin, a String per piece and End write: at the
// root and as a STRUCT's member between others, for plain strings (its one
// pass), for strings that need escapes and for separators that do (a
// String per piece).
func TestJSONSplit(t *testing.T) {
	list := MustParse("VARCHAR[]")
	st := MustParse("STRUCT(a INTEGER, segs VARCHAR[], b VARCHAR)")
	pieces := []string{"", "a", "a/b", "/", "//", "a//b/", "/x/y.html", "é/a", `a"b/c`, "a\\b/c", "a\x01/b", "%2F/%20"}
	for _, s := range pieces {
		for _, sep := range []byte{'/', '"', 'a', 0x01} {
			var want, got JSON
			want.Reset(list, nil)
			want.Begin()
			for _, p := range strings.Split(s, string(sep)) {
				want.String(p)
			}
			want.End()
			got.Reset(list, nil)
			got.Split(s, sep)
			if string(got.Buf) != string(want.Buf) {
				t.Errorf("Split(%q, %q) = %s, want %s", s, sep, got.Buf, want.Buf)
			}
			want.Reset(st, nil)
			got.Reset(st, nil)
			for _, j := range []*JSON{&want, &got} {
				j.Begin()
				j.Int(1)
				if j == &got {
					j.Split(s, sep)
				} else {
					j.Begin()
					for _, p := range strings.Split(s, string(sep)) {
						j.String(p)
					}
					j.End()
				}
				j.String("z")
				j.End()
			}
			if string(got.Buf) != string(want.Buf) {
				t.Errorf("as a member: Split(%q, %q) = %s, want %s", s, sep, got.Buf, want.Buf)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Split into a STRUCT did not panic")
		}
	}()
	var j JSON
	j.Reset(st, nil)
	j.Split("a/b", '/')
}
