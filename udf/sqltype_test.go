package udf

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/golden"
)

func TestParseSQLType(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"VARCHAR", "VARCHAR"},
		{"UBIGINT[]", "[UBIGINT]"},
		{"STRUCT(a VARCHAR, b BOOLEAN)", "{a:VARCHAR b:BOOLEAN}"},
		{"STRUCT(a STRUCT(x DOUBLE, y VARCHAR)[], b INTEGER)[][]", "[[{a:[{x:DOUBLE y:VARCHAR}] b:INTEGER}]]"}, // commas inside a nested STRUCT
		{" STRUCT( a VARCHAR ) ", "{a:VARCHAR}"},
		{`STRUCT("key" VARCHAR, "value" VARCHAR)[]`, "[{key:VARCHAR value:VARCHAR}]"}, // as DuckDB's typeof() prints keywords
		{`STRUCT("a"b" VARCHAR)`, "error"},
		{"", "error"},
		{"varchar", "error"},          // type names are upper case, as DuckDB prints them
		{"STRUCT(a VARCHAR", "error"}, // unclosed
		{"STRUCT(a)", "error"},        // member without a type
		{"VARCHAR[", "error"},
		{"VARCHAR x", "error"},
	} {
		typ, err := ParseSQLType(tc.in)
		got := "error"
		if err == nil {
			got = typ.String()
		}
		if got != tc.want {
			t.Errorf("ParseSQLType(%q) = %s (%v); want %s", tc.in, got, err, tc.want)
		}
	}
}

// JSON encodes every golden row's record: valid JSON, top-level keys in
// Fields order, nested keys in their declared order.
func TestJSONOrder(t *testing.T) {
	profiles, err := golden.Profiles()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range Fields {
		want = append(want, `"`+f.Name+`":`)
	}
	n := 0
	for _, p := range profiles {
		rows, _ := golden.Load(p)
		for _, r := range rows {
			res, null, err := overload(t, "canonicalize_url", 2).CallCanonical([]string{r.Input, p})
			if err != nil || null {
				continue
			}
			n++
			js := string(JSON(res))
			if !json.Valid([]byte(js)) {
				t.Fatalf("%s: invalid JSON %s", r, js)
			}
			if !inOrder(js, want) {
				t.Errorf("%s: keys out of Fields order: %s", r, js)
			}
			if strings.Contains(js, `"removed_params":[{`) && !inOrder(js, []string{`{"key":`, `,"value":`, `,"reason":`}) {
				t.Errorf("%s: removed_params keys out of order: %s", r, js)
			}
		}
	}
	if n == 0 {
		t.Fatal("no golden row canonicalized")
	}
}

func inOrder(s string, parts []string) bool {
	for _, p := range parts {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

func overload(t *testing.T, name string, nargs int) *Func {
	for _, f := range Lookup(name) {
		if len(f.Args) == nargs {
			return f
		}
	}
	t.Fatalf("no %s/%d", name, nargs)
	return nil
}

func TestEncodeJSON(t *testing.T) {
	st, _ := ParseSQLType("STRUCT(z VARCHAR, a STRUCT(y INTEGER, b VARCHAR)[])")
	v := map[string]any{"a": []any{map[string]any{"b": "x&y", "y": 1}}, "z": nil}
	for _, tc := range []struct {
		typ  *SQLType
		v    any
		want string
	}{
		{st, v, `{"z":null,"a":[{"y":1,"b":"x&y"}]}`},  // declared order, '&' unescaped
		{nil, v, `{"a":[{"b":"x&y","y":1}],"z":null}`}, // type unknown: sorted keys
		{nil, []any{1.5, true, "s"}, `[1.5,true,"s"]`},
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
