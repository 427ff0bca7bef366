package slt

import (
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fake answers SQL from a table: a statement or query not in the table
// fails with "unknown".
type fake struct {
	name string
	rows map[string][][]string
	errs map[string]string
	ran  []string
}

func (f *fake) Name() string { return f.name }

func (f *fake) Exec(sql string) error {
	_, err := f.Query(sql)
	return err
}

func (f *fake) Query(sql string) ([][]string, error) {
	f.ran = append(f.ran, sql)
	if msg, ok := f.errs[sql]; ok {
		return nil, errors.New(msg)
	}
	if rows, ok := f.rows[sql]; ok {
		return rows, nil
	}
	return nil, errors.New("unknown")
}

func newFake(name string) *fake {
	return &fake{name: name,
		rows: map[string][][]string{
			"CREATE TABLE t(x)":    nil,
			"SELECT 1":             {{"1"}},
			"SELECT b, a FROM t":   {{"z", "1"}, {"a", "2"}},
			"SELECT eq":            {{"1"}}, // SQLite's true
			"SELECT x FROM empty":  nil,
			"SELECT two, columns":  {{"a", "b"}},
			"SELECT engine":        {{name}},
			"SELECT spaced\nvalue": {{"(empty)", "NULL"}},
		},
		errs: map[string]string{
			"SELECT bad": `Invalid Input Error: normalize_url('x'): missing_scheme`,
		},
	}
}

func parse(t *testing.T, src string) []*Record {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.test")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestRunPasses(t *testing.T) {
	src := `# a comment
statement ok
CREATE TABLE t(x)

query I
SELECT 1
----
1

# rowsort sorts both sides
query TI rowsort
SELECT b, a FROM t
----
a	2
z	1

# valuesort compares the sorted values
query TI valuesort
SELECT b, a FROM t
----
1
2
a
z

# B renders SQLite's 1 as true
query B
SELECT eq
----
true

query T
SELECT x FROM empty
----

statement error
SELECT bad
----
missing_scheme

statement error
SELECT bad
----
<REGEX>:normalize_url\('x'\).*scheme

statement error
SELECT bad

query TT
SELECT spaced
value
----
(empty)	NULL

onlyif duckdb
query T
SELECT engine
----
duckdb

skipif duckdb
query T
SELECT engine
----
sqlite

mode skip

query T
SELECT never
----
x

mode unskip

query I nosort same
SELECT 1
----
1

query I nosort same
SELECT 1
----
1

halt

query T
SELECT after halt
----
x
`
	for _, engine := range []string{"duckdb", "sqlite"} {
		f := newFake(engine)
		if fails := Run(parse(t, src), f); len(fails) > 0 {
			t.Errorf("%s: unexpected failures:\n%s", engine, strings.Join(fails, "\n"))
		}
		for _, q := range f.ran {
			if q == "SELECT never" || q == "SELECT after halt" {
				t.Errorf("%s: ran %q", engine, q)
			}
		}
	}
}

// Each broken expectation must fail, at its own line, saying why.
func TestRunFails(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"wrong value", "query I\nSELECT 1\n----\n2\n", "x.test:1: [duckdb] wrong result"},
		{"wrong row count", "\n\nquery I\nSELECT 1\n----\n1\n1\n", "x.test:3: [duckdb] wrong result"},
		{"order matters under nosort", "query TI\nSELECT b, a FROM t\n----\na\t2\nz\t1\n", "wrong result"},
		{"column count", "query T\nSELECT two, columns\n----\na\tb\n", "query returned 2 columns, types \"T\" declare 1"},
		{"query error", "query T\nSELECT bad\n----\nx\n", "query failed"},
		{"statement ok fails", "statement ok\nSELECT bad\n", "statement failed"},
		{"statement error succeeds", "statement error\nSELECT 1\n", "statement succeeded, want an error"},
		{"wrong error text", "statement error\nSELECT bad\n----\ninvalid_host\n", "wrong error"},
		{"label differs", "query I nosort l\nSELECT 1\n----\n1\n\nquery I nosort l\nSELECT eq\n----\n1\n\nquery T nosort l\nSELECT engine\n----\nduckdb\n", "x.test:11: [duckdb] label \"l\""},
		{"onlyif other engine still checks this one", "onlyif duckdb\nquery I\nSELECT 1\n----\n3\n", "x.test:2:"},
	} {
		fails := Run(parse(t, tc.src), newFake("duckdb"))
		if len(fails) != 1 || !strings.Contains(fails[0], tc.want) {
			t.Errorf("%s: failures = %q; want one containing %q", tc.name, fails, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"query T\nSELECT 1\n", "x.test:2: query at x.test:1 has no ---- line"},
		{"statment ok\nSELECT 1\n", "x.test:1: unknown or malformed record"},
		{"query T wrongsort\nSELECT 1\n----\n1\n", "unknown sort mode"},
		{"statement ok\n\n", "has no SQL"},
		{"statement ok\nSELECT 1\n----\n1\n", "statement ok at x.test:1 has a ---- section"},
		{"mode fast\n", "want \"mode skip\""},
		{"skipif\n", "followed by one engine name"},
		{"skipif duckdb\n", "applies to no record"},
	} {
		path := filepath.Join(t.TempDir(), "x.test")
		os.WriteFile(path, []byte(tc.src), 0o644)
		_, err := ParseFile(path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFile(%q) error = %v; want %q", tc.src, err, tc.want)
		}
	}
}

type decimal float64

func (d decimal) Float64() float64 { return float64(d) }

func TestRender(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{nil, "NULL"},
		{[]byte(nil), "NULL"},                    // mattn: NULL scanned as a nil []byte
		{"", "(empty)"},                          // sqllogictest convention
		{[]byte(""), "(empty)"},                  //
		{"abc", "abc"},                           //
		{true, "true"},                           // DuckDB BOOLEAN
		{int64(-3), "-3"},                        //
		{uint64(1 << 63), "9223372036854775808"}, // DuckDB UBIGINT
		{int32(7), "7"},                          //
		{0.5, "0.5"},                             // shortest round-trip form
		{float32(0.25), "0.25"},                  //
		{2.0, "2"},                               //
		{decimal(1.5), "1.5"},                    // DuckDB DECIMAL
		{big.NewInt(12), "12"},                   // DuckDB HUGEINT
		{map[string]any{"b": 1, "a": nil}, `{"a":null,"b":1}`}, // STRUCT, sorted keys
		{[]any{"x", nil}, `["x",null]`},                        // LIST
	} {
		if got := Render(tc.in); got != tc.want {
			t.Errorf("Render(%#v) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestCoerce(t *testing.T) {
	for _, tc := range []struct {
		typ     byte
		in, out string
	}{
		{'I', "true", "1"},    // DuckDB boolean in an integer column
		{'I', "3", "3"},       //
		{'I', "3.0", "3"},     // SQLite computed a float
		{'I', "3.5", "3.5"},   // not integral: left for the diff to show
		{'I', "NULL", "NULL"}, //
		{'B', "1", "true"},    // SQLite comparison result
		{'B', "0", "false"},   //
		{'B', "true", "true"}, //
		{'B', "NULL", "NULL"}, //
		{'R', "0.50", "0.5"},  //
		{'R', "2", "2"},       //
		{'T', "1", "1"},       // text is never coerced
		{'T', "true", "true"}, //
		{'B', "yes", "yes"},   // not a boolean: unchanged
	} {
		if got := Coerce(tc.typ, tc.in); got != tc.out {
			t.Errorf("Coerce(%c, %q) = %q; want %q", tc.typ, tc.in, got, tc.out)
		}
	}
}

func TestFilesExist(t *testing.T) {
	files, err := Files()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no *.test files in %s", Dir())
	}
}
