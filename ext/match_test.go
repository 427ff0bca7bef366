package ext_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/urlnorm/urlnorm/internal/golden"
	"github.com/urlnorm/urlnorm/internal/slt"
	"github.com/urlnorm/urlnorm/udf"
)

// A check case: one row of the cases table every host loads.
type testCase struct {
	id      int
	u, p, r *string // url (or base), profile, relative ref
	a       *string // canonical_hash's algorithm
	want    string  // golden expectation for normalize_url(u, p), "" if none
}

// argColumn maps udf's parameter names to the cases table's columns. A
// new parameter name in udf fails TestHostsMatchUDF until it is added.
// url_query_param's name takes the reference column: mostly names no
// query has (NULL), which the check compares too.
var argColumn = map[string]string{"url": "u", "profile": "p", "base": "u", "ref": "r", "name": "r", "algorithm": "a"}

func str(s string) *string { return &s }

// cases are the golden inputs of every built-in profile that SQL literals
// can carry (no NUL, valid UTF-8: DuckDB rejects invalid UTF-8 in a
// literal), each with a relative reference for resolve_url, plus rows with
// NULL arguments.
func cases(t *testing.T) []testCase {
	profiles, err := golden.Profiles()
	if err != nil || len(profiles) == 0 {
		t.Fatalf("golden profiles: %v %v", profiles, err)
	}
	refs := []string{"../c?d", "//other.example/x", "#f", "?q=1", "/abs/../p", "", "ht tp://bad"}
	algorithms := []string{"sha256", "xxhash64"}
	var cs []testCase
	for _, p := range profiles {
		rows, err := golden.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if strings.ContainsRune(r.Input, 0) || !utf8.ValidString(r.Input) {
				continue
			}
			cs = append(cs, testCase{id: len(cs) + 1, u: str(r.Input), p: str(p), r: str(refs[len(cs)%len(refs)]),
				a: str(algorithms[len(cs)%len(algorithms)]), want: r.Want})
		}
	}
	cs = append(cs,
		testCase{id: len(cs) + 1, u: nil, p: str("default"), r: str("x"), a: str("xxhash64")},       // NULL url
		testCase{id: len(cs) + 2, u: str("https://example.com/"), p: nil, r: nil},                   // NULL profile, ref and algorithm
		testCase{id: len(cs) + 3, u: str("HTTPS://Example.COM/a/"), p: nil, r: str("")},             // NULL profile, empty ref
		testCase{id: len(cs) + 4, u: str("https://example.com/"), p: str("default"), a: str("md5")}, // unknown algorithm
	)
	return cs
}

func literal(s *string) string {
	if s == nil {
		return "NULL"
	}
	return "'" + strings.ReplaceAll(*s, "'", "''") + "'"
}

func loadCases(t *testing.T, h host, cs []testCase) {
	t.Helper()
	if err := h.Exec("CREATE TABLE cases (id INTEGER, u VARCHAR, p VARCHAR, r VARCHAR, a VARCHAR)"); err != nil {
		t.Fatalf("%s: %v", h.Label(), err)
	}
	var vals []string
	for _, c := range cs {
		vals = append(vals, fmt.Sprintf("(%d, %s, %s, %s, %s)", c.id, literal(c.u), literal(c.p), literal(c.r), literal(c.a)))
	}
	if err := h.Exec("INSERT INTO cases VALUES " + strings.Join(vals, ",\n")); err != nil {
		t.Fatalf("%s: %v", h.Label(), err)
	}
}

func (c testCase) column(name string) *string {
	switch name {
	case "u":
		return c.u
	case "p":
		return c.p
	case "a":
		return c.a
	}
	return c.r
}

// expect is what udf itself (the code the embedded adapters call) says a
// call gives: a value, NULL, or an error message.
type expect struct {
	null  bool
	value string // udf's Text form (JSON for a composite)
	err   string
}

func call(f *udf.Func, args []*string) expect {
	vals := make([]string, len(args))
	nulls := make([]bool, len(args))
	for i, a := range args {
		if a != nil {
			vals[i] = *a
		}
		nulls[i] = a == nil
	}
	out, null, err := f.Text(nil, vals, nulls)
	switch {
	case err != nil:
		return expect{err: err.Error()}
	case null:
		return expect{null: true}
	}
	return expect{value: string(out)}
}

// sqlExpr is f applied to columns or literals, as text: a DuckDB STRUCT,
// LIST or MAP goes through to_json, SQLite's is JSON already.
func sqlExpr(h host, f *udf.Func, args []string) string {
	e := f.Name + "(" + strings.Join(args, ", ") + ")"
	if f.Returns.IsComposite() && isDuckDB(h) {
		e = "CAST(to_json(" + e + ") AS VARCHAR)"
	}
	return e
}

// same compares a host's value with udf's Text form: JSON as data (DuckDB's
// to_json and Go escape differently), a BOOLEAN whether SQLite gives 1 or
// DuckDB true.
func same(f *udf.Func, got string, want expect) bool {
	if want.null || got == "NULL" {
		return want.null && got == "NULL"
	}
	switch {
	case f.Returns.IsComposite():
		var g, w any
		return json.Unmarshal([]byte(got), &g) == nil && json.Unmarshal([]byte(want.value), &w) == nil && reflect.DeepEqual(g, w)
	case f.Returns.Base == "BOOLEAN":
		return slt.Coerce('B', got) == want.value
	}
	return got == slt.Render(want.value)
}

// TestHostsMatchUDF runs every function of udf.Funcs, generated from the
// table, over the golden inputs in each host and checks each row against
// udf: values, NULL for NULL arguments, NULL from try_ twins, and the
// plain function's error message for every row it rejects.
func TestHostsMatchUDF(t *testing.T) {
	cs := cases(t)
	for _, h := range hosts(t, "") {
		t.Run(h.Label(), func(t *testing.T) {
			loadCases(t, h, cs)
			for _, f := range udf.Funcs {
				if f.Volatile {
					continue // urlnorm_load_profile changes the process: TestShellLoadProfile, sql/load_profile.test
				}
				checkFunc(t, h, f, cs)
			}
			checkGolden(t, h, cs)
			if isDuckDB(h) {
				checkResultTypes(t, h)
			}
		})
	}
}

func checkFunc(t *testing.T, h host, f *udf.Func, cs []testCase) {
	var cols []string
	for _, a := range f.Args {
		col, ok := argColumn[a.Name]
		if !ok {
			t.Fatalf("%s: no cases column for parameter %q: add it to argColumn", f.Name, a.Name)
		}
		cols = append(cols, col)
	}
	want := map[int]expect{}
	var ok, bad []int
	for _, c := range cs {
		args := make([]*string, len(cols))
		for i, col := range cols {
			args[i] = c.column(col)
		}
		want[c.id] = call(f, args)
		if want[c.id].err == "" {
			ok = append(ok, c.id)
		} else {
			bad = append(bad, c.id)
		}
	}
	if len(ok) == 0 {
		t.Fatalf("%s: no case succeeds: the check would be vacuous", f.Name)
	}
	q := fmt.Sprintf("SELECT id, %s FROM cases WHERE id IN (%s) ORDER BY id", sqlExpr(h, f, cols), ids(ok))
	rows, err := h.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if len(rows) != len(ok) {
		t.Fatalf("%s: %d rows, want %d", q, len(rows), len(ok))
	}
	failed := 0
	for _, row := range rows {
		var id int
		fmt.Sscan(row[0], &id)
		if w := want[id]; !same(f, row[1], w) && failed < 5 {
			failed++
			t.Errorf("%s(%s) row %d = %q, want %q (null=%v)", f.Name, strings.Join(cols, ", "), id, row[1], w.value, w.null)
		}
	}
	for _, id := range bad {
		q := fmt.Sprintf("SELECT %s FROM cases WHERE id = %d", sqlExpr(h, f, cols), id)
		_, err := h.Query(q)
		if err == nil || !strings.Contains(err.Error(), want[id].err) {
			t.Errorf("%s: error %v, want one containing %q", q, err, want[id].err)
		}
	}
}

// checkGolden checks normalize_url(u, p) against the golden files directly.
func checkGolden(t *testing.T, h host, cs []testCase) {
	want := map[string]string{}
	var with []int
	for _, c := range cs {
		if c.want != "" {
			want[fmt.Sprint(c.id)] = c.want
			with = append(with, c.id)
		}
	}
	q := fmt.Sprintf("SELECT id, normalize_url(u, p) FROM cases WHERE id IN (%s) ORDER BY id", ids(with))
	rows, err := h.Query(q)
	if err != nil || len(rows) != len(with) || len(with) == 0 {
		t.Fatalf("%s: %d rows (want %d), %v", q, len(rows), len(with), err)
	}
	for _, row := range rows {
		if row[1] != want[row[0]] {
			t.Errorf("golden case %s: normalize_url = %q, want %q", row[0], row[1], want[row[0]])
		}
	}
}

func ids(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, ",")
}

// typeofArg is an argument of each parameter name that every function
// accepts, for checkResultTypes.
var typeofArg = map[string]string{"url": "'https://example.com/'", "base": "'https://example.com/'", "ref": "'x'",
	"profile": "'default'", "name": "'q'", "algorithm": "'sha256'", "path_or_text": `'{"name": "x", "version": "1", "hash": "sha256"}'`}

// checkResultTypes checks that every function's result has the type udf
// declares, canonicalize_url's STRUCT udf.RecordType in order (typeof
// quotes keywords such as "version"; the quotes are dropped).
func checkResultTypes(t *testing.T, h host) {
	for _, f := range udf.Funcs {
		want := f.Returns.SQL()
		var args []string
		for _, a := range f.Args {
			args = append(args, typeofArg[a.Name])
		}
		q := "SELECT typeof(" + f.Name + "(" + strings.Join(args, ", ") + "))"
		rows, err := h.Query(q)
		if err != nil || len(rows) != 1 || strings.ReplaceAll(rows[0][0], `"`, "") != want {
			t.Errorf("%s = %v, %v; want %s", q, rows, err, want)
		}
	}
}
