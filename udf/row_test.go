package udf

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/golden"
	"github.com/urlnorm/urlnorm/internal/sqltype"
	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/version"
)

func overload(t *testing.T, name string, nargs int) *Func {
	t.Helper()
	f := Overload(name, nargs)
	if f == nil {
		t.Fatalf("no %s/%d", name, nargs)
	}
	return f
}

// The row contract, in Text form, for every kind of row.
func TestText(t *testing.T) {
	const bad = "no scheme"
	for _, tc := range []struct {
		fn    string
		args  []string
		nulls []bool
		want  string // result; "NULL"; or "error: " + message prefix
	}{
		{"normalize_url", []string{"HTTP://A.example/x/"}, nil, "http://a.example/x"},
		{"normalize_url", []string{"HTTP://A.example/x/", "rfc3986"}, []bool{false, false}, "http://a.example/x/"},
		{"normalize_url", []string{bad}, nil, "error: normalize_url('no scheme'): missing_scheme (use try_normalize_url to get NULL instead)"},
		{"try_normalize_url", []string{bad}, nil, "NULL"}, // try_: bad data gives NULL
		// NULL in, NULL out, whichever argument
		{"normalize_url", []string{"", "default"}, []bool{true, false}, "NULL"},
		{"normalize_url", []string{"http://a.example/", ""}, []bool{false, true}, "NULL"},
		{"resolve_url", []string{"", "x"}, []bool{true, false}, "NULL"},
		// an unknown profile raises, in try_ too, NULL url or not
		{"normalize_url", []string{"http://a.example/", "bogus"}, nil, "error: normalize_url('http://a.example/', 'bogus'): unknown_profile: known profiles: "},
		{"try_normalize_url", []string{"http://a.example/", "bogus"}, nil, "error: try_normalize_url('http://a.example/', 'bogus'): unknown_profile"},
		{"try_canonical_hash", []string{"", "bogus"}, []bool{true, false}, "error: try_canonical_hash(url, 'bogus'): unknown_profile"},
		// the second argument of resolve_url is a reference, not a profile
		{"resolve_url", []string{"https://a.example/b/c", "../d"}, nil, "https://a.example/d"},
		// url_profile_version's argument is data: try_ tests for a profile
		{"url_profile_version", []string{"nope"}, nil, "error: url_profile_version('nope'): unknown_profile: known profiles: "},
		{"try_url_profile_version", []string{"nope"}, nil, "NULL"},
		{"url_profile_version", []string{""}, []bool{true}, "NULL"},
		// zero arguments
		{"urlnorm_version", nil, nil, version.Version},
		// a STRUCT as JSON: Result's JSON
		{"canonicalize_url", []string{"https://a.example/p?x=1&y=2#f"}, nil, `{"url":"https://a.example/p?x=1&y=2","hash":"`},
		{"try_canonicalize_url", []string{bad}, nil, "NULL"},
		// a LIST as a JSON array (issue 15: Safe Browsing's lookup expressions)
		{"safebrowsing_expressions", []string{"http://a.b.c/1/2.html?param=1"}, nil,
			`["a.b.c/1/2.html?param=1","a.b.c/1/2.html","a.b.c/","a.b.c/1/","b.c/1/2.html?param=1","b.c/1/2.html","b.c/","b.c/1/"]`},
		{"safebrowsing_expressions", []string{"mailto:x"}, nil, "error: safebrowsing_expressions('mailto:x'): missing_host"},
		{"try_safebrowsing_expressions", []string{"mailto:x"}, nil, "NULL"},
		// issue 18: the digest named by the third argument (xxhsum -H64 of
		// http://example.com/Path?a=2&z=1)
		{"canonical_hash", []string{"HTTP://Example.COM:80/Path?z=1&a=2#frag", "default", "xxhash64"}, nil, "f6299ce9b0ffd128"},
		{"canonical_hash", []string{"HTTP://Example.COM:80/Path?z=1&a=2#frag", "edge-gateway", "sha256"}, nil,
			"ba7635008b71b9cdf073bf395409863737487cf7ab64e6944afcc8215fa287cd"},
		{"try_canonical_hash", []string{bad, "default", "xxhash64"}, nil, "NULL"},
		{"canonical_hash", []string{"", "default", "xxhash64"}, []bool{true, false, false}, "NULL"},
		// an unknown algorithm is the query's mistake: it raises in try_
		// too, NULL url or not, and lists the algorithms
		{"canonical_hash", []string{"https://a.example/", "default", "xxh3"}, nil,
			"error: canonical_hash('https://a.example/', 'default', 'xxh3'): unknown_hash: known algorithms: sha256, xxhash64"},
		{"try_canonical_hash", []string{"https://a.example/", "default", "xxh3"}, nil, "error: try_canonical_hash('https://a.example/', 'default', 'xxh3'): unknown_hash"},
		{"try_canonical_hash", []string{"", "default", "SHA256"}, []bool{true, false, false}, "error: try_canonical_hash(url, profile, 'SHA256'): unknown_hash"},
		// the BIGINT key in Text's form (SQLite's): 0xf6299ce9b0ffd128 − 2⁶⁴
		{"canonical_key", []string{"HTTP://Example.COM:80/Path?z=1&a=2#frag"}, nil, "-708862938823274200"},
		{"canonical_key", []string{bad, "default"}, nil, "error: canonical_key('no scheme', 'default'): missing_scheme (use try_canonical_key to get NULL instead)"},
		{"try_canonical_key", []string{bad}, nil, "NULL"},
	} {
		f := overload(t, tc.fn, len(tc.args))
		out, null, err := f.Text([]byte("kept:"), tc.args, tc.nulls)
		got := string(out)
		switch {
		case err != nil:
			got = "error: " + err.Error()
			if string(out) != "kept:" || null {
				t.Errorf("%s%q: error %v with out %q null %v; want dst unchanged", tc.fn, tc.args, err, out, null)
			}
		case null:
			got = "NULL"
			if string(out) != "kept:" {
				t.Errorf("%s%q: NULL with out %q; want dst unchanged", tc.fn, tc.args, out)
			}
		default:
			got = strings.TrimPrefix(got, "kept:")
		}
		if !strings.HasPrefix(got, tc.want) || (!strings.HasPrefix(tc.want, "error: ") && tc.fn != "canonicalize_url" && got != tc.want) {
			t.Errorf("%s%q nulls %v = %q; want %q", tc.fn, tc.args, tc.nulls, got, tc.want)
		}
		// Value agrees with Text for VARCHAR results.
		if f.Returns == Varchar {
			v, verr := f.Value(tc.args, tc.nulls)
			if (verr == nil) != (err == nil) || (verr == nil && (v == nil) != null) || (v != nil && v.(string) != got) {
				t.Errorf("%s%q: Value = %v, %v; Text gave %q, %v", tc.fn, tc.args, v, verr, got, err)
			}
		}
	}
}

// An error says which function, quotes the input and keeps the normalize
// error for errors.Is / errors.As.
func TestErrorUnwraps(t *testing.T) {
	_, _, err := overload(t, "normalize_url", 1).Text(nil, []string{"http://a b/"}, nil)
	var e *Error
	if !errors.As(err, &e) || e.Func != "normalize_url" || e.Kind != "invalid_host" || !errors.Is(err, normalize.ErrInvalid) {
		t.Errorf("error %#v", err)
	}
}

// A panic below a function becomes an error with one wording, in every
// result form and in hosts' glue (PanicError).
func TestPanic(t *testing.T) {
	boom := func([]string) (any, error) { panic("boom") }
	for _, f := range []*Func{
		NewText("p", []Arg{{Name: "url"}}, func([]byte, []string) ([]byte, bool, error) { panic("boom") }),
		{Name: "p", Args: []Arg{{Name: "url"}}, Returns: RecordType, value: boom},
		{Name: "p", Args: []Arg{{Name: "url"}}, Returns: Boolean, value: boom},
	} {
		const want = "p('x'): internal error: boom (please report this query)"
		_, _, err1 := f.Text(nil, []string{"x"}, nil)
		_, err2 := f.Value([]string{"x"}, nil)
		for _, err := range []error{err1, err2} {
			var e *Error
			if err == nil || err.Error() != want || !errors.As(err, &e) || e.Kind != "internal" {
				t.Errorf("%s: %v; want %q", f.Returns.SQL(), err, want)
			}
		}
	}
	// A value that does not have the declared type is a bug, even in try_.
	wrong := &Func{Name: "try_w", Args: []Arg{{Name: "url"}}, Returns: RecordType, Try: true,
		value: func([]string) (any, error) { return []any{"only one member"}, nil }}
	if _, null, err := wrong.Text(nil, []string{"x"}, nil); null || err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Errorf("a mistyped value: null %v, %v; want an internal error", null, err)
	}
	if err := PanicError("p", "boom"); err.Error() != "p: internal error: boom (please report this query)" {
		t.Errorf("PanicError = %v", err)
	}
}

// Non-VARCHAR results: Value in sqltype's form, Text in SQLite's (JSON
// for composites), Int for booleans and integers.
func TestResultForms(t *testing.T) {
	is := &Func{Name: "is_x", Args: []Arg{{Name: "url"}}, Returns: Boolean, NoTry: true,
		value: func(a []string) (any, error) { return a[0] == "x", nil }}
	segs := &Func{Name: "segs", Args: []Arg{{Name: "url"}}, Returns: mustType(t, "VARCHAR[]"),
		value: func(a []string) (any, error) {
			if a[0] == "" {
				return nil, nil // a part the URL does not have
			}
			return []any{"a", "b&c"}, nil
		}}
	params := &Func{Name: "params", Args: []Arg{{Name: "url"}}, Returns: mustType(t, "MAP(VARCHAR, VARCHAR[])"),
		value: func([]string) (any, error) {
			return []Entry{{Key: "z", Value: []any{"1"}}, {Key: "a", Value: []any{"2", "3"}}}, nil
		}}
	for _, tc := range []struct {
		f          *Func
		arg        string
		text       string
		intResult  bool
		wantInt    int64
		wantIntNil bool
	}{
		{is, "x", "true", true, 1, false},
		{is, "y", "false", true, 0, false},
		{segs, "u", `["a","b&c"]`, false, 0, false},
		{segs, "", "NULL", false, 0, false},
		{params, "u", `{"z":["1"],"a":["2","3"]}`, false, 0, false},
	} {
		out, null, err := tc.f.Text(nil, []string{tc.arg}, nil)
		got := string(out)
		if null {
			got = "NULL"
		}
		if err != nil || got != tc.text {
			t.Errorf("%s(%q) Text = %q, %v; want %q", tc.f.Name, tc.arg, got, err, tc.text)
		}
		if tc.f.IntResult() != tc.intResult {
			t.Errorf("%s: IntResult = %v", tc.f.Name, !tc.intResult)
		}
		if tc.intResult {
			if n, null, err := tc.f.Int([]string{tc.arg}, nil); n != tc.wantInt || null || err != nil {
				t.Errorf("%s(%q) Int = %d, %v, %v", tc.f.Name, tc.arg, n, null, err)
			}
		}
		v, err := tc.f.Value([]string{tc.arg}, nil)
		if err != nil || tc.f.Returns.Check(v) != nil || (v == nil) != (got == "NULL") {
			t.Errorf("%s(%q) Value = %#v, %v", tc.f.Name, tc.arg, v, err)
		}
	}
	// NULL in, NULL out for every form.
	if n, null, err := is.Int([]string{""}, []bool{true}); !null || err != nil || n != 0 {
		t.Errorf("is_x(NULL) = %d, %v, %v", n, null, err)
	}
}

// canonical_key is a BIGINT: an int64 value (DuckDB), an integer in
// SQLite (Int), with the sign bit of the xxhash64 (issue 18).
func TestCanonicalKeyForms(t *testing.T) {
	f := overload(t, "canonical_key", 2)
	if f.Returns.SQL() != "BIGINT" || !f.IntResult() {
		t.Fatalf("canonical_key returns %s, IntResult %v; want BIGINT, true", f.Returns.SQL(), f.IntResult())
	}
	// xxhsum -H64 of https://example.com/page: a2c6e14dadc95727 (≥ 2⁶³)
	args := []string{"HTTPS://example.com:443/page#top", "edge-gateway"}
	const want = int64(-6717434070432131289)
	if v, err := f.Value(args, nil); v != want || err != nil {
		t.Errorf("Value = %#v, %v; want int64 %d", v, err, want)
	}
	if n, null, err := f.Int(args, nil); n != want || null || err != nil {
		t.Errorf("Int = %d, %v, %v; want %d", n, null, err, want)
	}
	if n, null, err := f.Int([]string{"", "default"}, []bool{true, false}); !null || err != nil || n != 0 {
		t.Errorf("Int(NULL) = %d, %v, %v; want NULL", n, null, err)
	}
}

// An integer implementation (IntFunc) gives one answer in every form:
// Text's decimal or true/false, Value's int64 or bool, Int, and Build's
// Int or Bool; NULL, errors and try_ as every function.
func TestIntegerForms(t *testing.T) {
	for _, tc := range []struct {
		fn   string
		args []string
		text string // "NULL", or "error" for an error
	}{
		{"url_port", []string{"https://example.com:8443/"}, "8443"},
		{"url_port", []string{"https://example.com:443/"}, "NULL"}, // the scheme's default: NULL (issue 13)
		{"url_port", []string{"no scheme"}, "error"},
		{"try_url_port", []string{"no scheme"}, "NULL"},
		{"is_valid_url", []string{"https://example.com/"}, "true"},
		{"is_valid_url", []string{"https://exa mple.com/"}, "false"}, // never raises on data
		{"canonical_key", []string{"https://example.com/a?b=1"}, "unchecked"},
		{"canonical_key", []string{"https://example.com/", "nope"}, "error"}, // unknown profile
	} {
		f := overload(t, tc.fn, len(tc.args))
		if f.integer == nil {
			t.Fatalf("%s: not an integer implementation", tc.fn)
		}
		out, null, err := f.Text(nil, tc.args, nil)
		text := string(out)
		switch {
		case err != nil:
			text = "error"
		case null:
			text = "NULL"
		}
		if tc.text != "unchecked" && text != tc.text {
			t.Errorf("%s(%q) Text = %q (%v); want %s", tc.fn, tc.args, text, err, tc.text)
		}
		n, null, err := f.Int(tc.args, nil)
		v, vErr := f.Value(tc.args, nil)
		x := new(sqltype.Boxed)
		x.Reset(f.Returns)
		bErr := f.Build(x, tc.args, nil)
		built := x.Value()
		if (err != nil) != (text == "error") || (vErr != nil) != (text == "error") || (bErr != nil) != (text == "error") {
			t.Errorf("%s(%q): errors Text %q, Int %v, Value %v, Build %v", tc.fn, tc.args, text, err, vErr, bErr)
			continue
		}
		if text == "error" {
			continue
		}
		want := any(nil)
		if !null {
			want = f.box(n)
			if got := string(f.appendInt(nil, n)); got != text {
				t.Errorf("%s(%q): Int %d reads %s, Text %s", tc.fn, tc.args, n, got, text)
			}
		}
		if null != (text == "NULL") || v != want || built != want {
			t.Errorf("%s(%q): Int %d null %v, Value %#v, Build %#v; want %#v", tc.fn, tc.args, n, null, v, built, want)
		}
	}
}

// canonical_key's Int and Build (SQLite's and the DuckDB extension's
// forms) box nothing: no allocation per row beyond Key's own (none on a
// canonical input).
func TestIntegerAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	f := overload(t, "canonical_key", 2)
	args := []string{"https://example.com/a?b=1", "default"}
	if n := testing.AllocsPerRun(100, func() { f.Int(args, nil) }); n != 0 {
		t.Errorf("Int: %v allocations per row", n)
	}
	var b countBuilder
	if n := testing.AllocsPerRun(100, func() { f.Build(&b, args, nil) }); n != 0 {
		t.Errorf("Build: %v allocations per row", n)
	}
	if b.ints == 0 {
		t.Errorf("Build wrote no integer")
	}
}

// canonicalize_url writes its record to the host's builder: the
// canonical URL's and the hash's strings are its only allocations when
// the rules remove nothing (a boxed record cost fourteen per row; each
// removed parameter or fragment still costs its own strings).
func TestRecordAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	f := overload(t, "canonicalize_url", 2)
	args := []string{"https://Example.com/a/?b=1", "clara"}
	var b countBuilder
	if n := testing.AllocsPerRun(100, func() { f.Build(&b, args, nil) }); n > 2 {
		t.Errorf("Build: %v allocations per row", n)
	}
	if b.strings == 0 {
		t.Errorf("Build wrote no string")
	}
}

// countBuilder counts the integers and strings written to it.
type countBuilder struct{ ints, strings int }

func (b *countBuilder) Null()         {}
func (b *countBuilder) String(string) { b.strings++ }
func (b *countBuilder) Int(int64)     { b.ints++ }
func (b *countBuilder) Bool(bool)     {}
func (b *countBuilder) Begin()        {}
func (b *countBuilder) End()          {}

func mustType(t *testing.T, s string) *SQLType {
	typ, err := ParseSQLType(s)
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

func TestCheckArg(t *testing.T) {
	for _, tc := range []struct {
		fn      string
		nargs   int
		i       int
		profile string
		want    string // error substring; "" = no error
	}{
		{"normalize_url", 2, 1, "default", ""},
		{"normalize_url", 2, 1, "bogus", "normalize_url(url, 'bogus'): unknown_profile: known profiles: "},
		{"try_canonical_hash", 2, 1, "bogus", "try_canonical_hash(url, 'bogus'): unknown_profile"}, // try_ raises too
		{"normalize_url", 2, 0, "bogus", ""},       // the url
		{"resolve_url", 2, 1, "bogus", ""},         // second argument is a reference
		{"url_profile_version", 1, 0, "bogus", ""}, // the profile name is data
		// issue 18: the algorithm is checked like a profile
		{"canonical_hash", 3, 2, "xxhash64", ""},
		{"try_canonical_hash", 3, 2, "xxh3", "try_canonical_hash(url, profile, 'xxh3'): unknown_hash: known algorithms: sha256, xxhash64"},
		{"canonical_hash", 3, 1, "bogus", "canonical_hash(url, 'bogus', algorithm): unknown_profile"},
	} {
		err := overload(t, tc.fn, tc.nargs).CheckArg(tc.i, tc.profile)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s/%d CheckArg(%d, %q) = %v; want nil", tc.fn, tc.nargs, tc.i, tc.profile, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s/%d CheckArg(%d, %q) = %v; want prefix %q", tc.fn, tc.nargs, tc.i, tc.profile, err, tc.want)
		case tc.want != "" && strings.Contains(err.Error(), "use try_"):
			t.Errorf("%s: unknown profile must not point to try_ (it raises there too): %v", tc.fn, err)
		}
	}
	for _, tc := range []struct {
		fn    string
		nargs int
		want  bool
	}{{"normalize_url", 2, true}, {"try_canonicalize_url", 2, true}, {"normalize_url", 1, false}, {"resolve_url", 2, false},
		{"url_profile_version", 1, false}, {"urlnorm_version", 0, false}, {"canonical_hash", 3, true}, {"canonical_key", 1, false}} {
		if got := overload(t, tc.fn, tc.nargs).RaisesOnNull(); got != tc.want {
			t.Errorf("%s/%d RaisesOnNull = %v", tc.fn, tc.nargs, got)
		}
	}
}

// The table: try_ twins for everything that can raise on data, none for
// the functions that cannot; every row follows the contract.
func TestTable(t *testing.T) {
	for _, name := range Names() {
		if strings.HasPrefix(name, "try_") {
			continue
		}
		for _, f := range Lookup(name) {
			twin := Overload("try_"+name, len(f.Args))
			if (twin == nil) != f.NoTry {
				t.Errorf("%s/%d: NoTry %v, try_ twin %v", name, len(f.Args), f.NoTry, twin != nil)
			}
			if f.Doc == "" || !strings.HasPrefix(f.Example, name+"(") {
				t.Errorf("%s/%d: doc %q, example %q", name, len(f.Args), f.Doc, f.Example)
			}
		}
	}
	for _, f := range Funcs {
		if err := f.check(); err != nil || f.Returns == nil {
			t.Error(err)
		}
	}
	if err := (&Func{Name: "x", Returns: Boolean, text: normalizeURL}).check(); err == nil {
		t.Error("a text implementation returning BOOLEAN passed")
	}
	if err := (&Func{Name: "x", Returns: Varchar}).check(); err == nil {
		t.Error("a row without implementation passed")
	}
}

// The record's SQLite JSON is Result's JSON, for every golden row: keys in
// normalize.ResultFields order, nested keys in their declared order.
func TestRecordJSON(t *testing.T) {
	profiles, err := golden.Profiles()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range profiles {
		rows, _ := golden.Load(p)
		nz := normalize.MustLookup(p)
		for _, r := range rows {
			out, null, err := overload(t, "canonicalize_url", 2).Text(nil, []string{r.Input, p}, nil)
			if err != nil || null {
				continue
			}
			n++
			res, _ := nz.Canonicalize(r.Input)
			want, _ := res.MarshalJSON()
			if string(out) != string(want) || !json.Valid(out) {
				t.Fatalf("%s: Text %s\nMarshalJSON %s", r, out, want)
			}
			var keys []string
			for _, f := range RecordType.Members {
				keys = append(keys, `"`+f.Name+`":`)
			}
			if !inOrder(string(out), keys) {
				t.Errorf("%s: keys out of order: %s", r, out)
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

func TestQuoteArgs(t *testing.T) {
	long := "http://" + strings.Repeat("a", 100)
	for _, tc := range []struct {
		args  []string
		nulls []bool
		want  string
	}{
		{[]string{"http://x"}, nil, `'http://x'`},
		{[]string{"a\"b", "p"}, nil, `'a"b', 'p'`},               // Go's \" unescaped inside SQL quotes
		{[]string{"a\tb"}, nil, `'a\tb'`},                        // control bytes stay visible
		{[]string{long}, nil, "'" + long[:80] + "'…(107 bytes)"}, // truncation marker outside the quotes
		{[]string{"", "p"}, []bool{true, false}, `NULL, 'p'`},    // a NULL argument
	} {
		if got := quoteArgs(tc.args, tc.nulls); got != tc.want {
			t.Errorf("quoteArgs(%q) = %s; want %s", tc.args, got, tc.want)
		}
	}
}

// Text appends without allocating on the hot path (normalize_url).
func TestTextAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	f := overload(t, "normalize_url", 2)
	args, nulls := []string{"HTTP://Example.COM:80/a/../b/?z=1&a=2", "default"}, []bool{false, false}
	buf := make([]byte, 0, 256)
	if n := testing.AllocsPerRun(100, func() { f.Text(buf[:0], args, nulls) }); n != 0 {
		t.Errorf("Text: %v allocations per row", n)
	}
}

// sql/urlnorm_version.test pins the version every host reports: it must
// be version.Version.
func TestVersionFixture(t *testing.T) {
	b, err := os.ReadFile("../sql/urlnorm_version.test")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "SELECT urlnorm_version()\n----\n"+version.Version+"\n") {
		t.Errorf("sql/urlnorm_version.test does not expect %s: update it with version.Version", version.Version)
	}
}

// lookupProfile caches the built-in a row named last, never a user
// profile (Register may replace it: the next row must see the new rules)
// nor an unknown name (it may be loaded later). It runs in a child
// process: the profile it registers would show in other tests' lists of
// known profiles.
func TestLookupProfileCache(t *testing.T) {
	if os.Getenv("URLNORM_UDF_CACHE_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestLookupProfileCache$", "-test.count", "1", "-test.v")
		cmd.Env = append(os.Environ(), "URLNORM_UDF_CACHE_CHILD=1")
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "--- PASS: TestLookupProfileCache") {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	for _, name := range []string{"clara", "default+https"} {
		want, _ := normalize.Lookup(name)
		for range 2 {
			if n, err := lookupProfile(name); n != want || err != nil {
				t.Fatalf("lookupProfile(%q) = %p, %v; want %p", name, n, err, want)
			}
		}
		if p := lastProfile.Load(); p == nil || p.name != name {
			t.Errorf("%s: a built-in is cached", name)
		}
	}
	if _, err := lookupProfile("udf-cache-test"); err == nil {
		t.Fatal("an unknown name resolves")
	}
	// Each name registered twice with different rules: the row after the
	// second Register must see them, from the name itself and from its
	// "+SCHEME" variant.
	for _, name := range []string{"udf-cache-test", "udf-cache-test2+https"} {
		base, _, _ := strings.Cut(name, "+")
		for _, slash := range []string{"keep", "remove"} {
			p := normalize.MustLookup("default").Profile()
			p.Name, p.Path.TrailingSlash = base, slash // rules that differ
			n, err := normalize.New(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := normalize.Register(n); err != nil {
				t.Fatal(err)
			}
			for range 2 {
				if got, err := lookupProfile(name); err != nil || got.Profile().Path.TrailingSlash != slash {
					t.Errorf("after Register(%s, %s): lookupProfile(%q) = %v, %v", base, slash, name, got, err)
				}
			}
		}
	}
}
