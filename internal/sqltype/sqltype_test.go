package sqltype

import (
	"bytes"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"VARCHAR", "VARCHAR"},
		{"UBIGINT[]", "UBIGINT[]"},
		{"STRUCT(a VARCHAR, b BOOLEAN)", "STRUCT(a VARCHAR, b BOOLEAN)"},
		{"STRUCT(a STRUCT(x DOUBLE, y VARCHAR)[], b INTEGER)[][]", "STRUCT(a STRUCT(x DOUBLE, y VARCHAR)[], b INTEGER)[][]"}, // commas inside a nested STRUCT
		{" STRUCT( a VARCHAR ) ", "STRUCT(a VARCHAR)"},
		{`STRUCT("key" VARCHAR, "value" VARCHAR)[]`, "STRUCT(key VARCHAR, value VARCHAR)[]"}, // as DuckDB's typeof() prints keywords
		{"MAP(VARCHAR, VARCHAR[])", "MAP(VARCHAR, VARCHAR[])"},                               // url_query_params (issue 13)
		{"MAP(VARCHAR, STRUCT(a INTEGER, b VARCHAR))", "MAP(VARCHAR, STRUCT(a INTEGER, b VARCHAR))"},
		{"MAP(VARCHAR)", "error"}, // a MAP has a key and a value type
		{`STRUCT("a"b" VARCHAR)`, "error"},
		{"", "error"},
		{"varchar", "error"},          // type names are upper case, as DuckDB prints them
		{"STRUCT(a VARCHAR", "error"}, // unclosed
		{"STRUCT(a)", "error"},        // member without a type
		{"VARCHAR[", "error"},
		{"VARCHAR x", "error"},
	} {
		typ, err := Parse(tc.in)
		got := "error"
		if err == nil {
			got = typ.SQL()
			// SQL renders what Parse reads, members in order, nested.
			if again, err := Parse(got); err != nil || again.SQL() != got || typ.String() != got {
				t.Errorf("Parse(%q).SQL() = %q does not parse back: %v", tc.in, got, err)
			}
		}
		if got != tc.want {
			t.Errorf("Parse(%q) = %s (%v); want %s", tc.in, got, err, tc.want)
		}
	}
}

func TestEncodeJSON(t *testing.T) {
	st := MustParse("STRUCT(z VARCHAR, a STRUCT(y INTEGER, b VARCHAR)[])")
	v := map[string]any{"a": []any{map[string]any{"b": "x&y", "y": 1}}, "z": nil}
	m := MustParse("MAP(VARCHAR, VARCHAR[])")
	for _, tc := range []struct {
		typ  *Type
		v    any
		want string
	}{
		{st, v, `{"z":null,"a":[{"y":1,"b":"x&y"}]}`},                                    // declared order, '&' unescaped
		{nil, v, `{"a":[{"b":"x&y","y":1}],"z":null}`},                                   // type unknown: sorted keys
		{st, []any{"z", []any{[]any{int64(1), "b"}}}, `{"z":"z","a":[{"y":1,"b":"b"}]}`}, // positional STRUCT values
		{st, []any{"z"}, "error"},                                                        // a member short
		{nil, []any{1.5, true, "s"}, `[1.5,true,"s"]`},
		{m, []Entry{{"b", []any{"2", "1"}}, {"a", []any{}}}, `{"b":["2","1"],"a":[]}`}, // entry order kept
		{MustParse("VARCHAR"), []byte("<b>"), `"<b>"`},                                 // VARCHAR as bytes: text
		{st, "not a struct", "error"},
	} {
		var b bytes.Buffer
		got := "error"
		if err := tc.typ.EncodeJSON(&b, tc.v); err == nil {
			got = b.String()
		}
		if got != tc.want {
			t.Errorf("EncodeJSON(%v) = %s; want %s", tc.v, got, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	st := MustParse("STRUCT(a VARCHAR, b BOOLEAN, c INTEGER[], d MAP(VARCHAR, VARCHAR))")
	for _, tc := range []struct {
		v  any
		ok bool
	}{
		{nil, true},
		{[]any{"x", true, []any{int64(1), nil}, []Entry{{"k", "v"}}}, true},
		{[]any{"x", nil, nil, nil}, true},                   // NULL members
		{[]any{"x", "true", nil, nil}, false},               // a string for a BOOLEAN
		{[]any{"x", true, []any{"1"}, nil}, false},          // a string in an INTEGER[]
		{[]any{"x", true, nil, []Entry{{nil, "v"}}}, false}, // a NULL MAP key
		{[]any{"x", true, nil}, false},                      // a member short
		{map[string]any{"a": "x", "b": false}, true},        // a scanned STRUCT
		{"x", false},
	} {
		if err := st.Check(tc.v); (err == nil) != tc.ok {
			t.Errorf("Check(%v) = %v; want ok=%v", tc.v, err, tc.ok)
		}
	}
}

func TestInt(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want int64
		ok   bool
	}{{true, 1, true}, {false, 0, true}, {int64(-7), -7, true}, {int32(3), 3, true}, {"1", 0, false}} {
		if got, ok := Int(tc.v); got != tc.want || ok != tc.ok {
			t.Errorf("Int(%v) = %d, %v; want %d, %v", tc.v, got, ok, tc.want, tc.ok)
		}
	}
}
