package parity

import (
	"bytes"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/urlnorm/urlnorm/duckdb"
	"github.com/urlnorm/urlnorm/internal/golden"
	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/sqlite"
	"github.com/urlnorm/urlnorm/udf"
)

// want is Go's answer for one golden row under its profile: for each SQL
// function, the text result or the error message the SQL function raises.
type want struct {
	row     golden.Row
	profile string
	norm    result // normalize_url(input, profile)
	hash    result // canonical_hash(input, profile)
	key     result // canonical_key(input, profile), in decimal
	record  result // canonicalize_url(input, profile), as JSON (udf's Text form)
}

type result struct {
	val string
	err string // the SQL error message; "" if none
}

// functions checked, with how each engine spells the record as text.
var checked = []struct {
	name string
	get  func(w *want) result
}{
	{"normalize_url", func(w *want) result { return w.norm }},
	{"canonical_hash", func(w *want) result { return w.hash }},
	{"canonical_key", func(w *want) result { return w.key }},
	{"canonicalize_url", func(w *want) result { return w.record }},
}

func overload(name string) *udf.Func {
	if f := udf.Overload(name, 2); f != nil {
		return f
	}
	panic("no two-argument " + name)
}

// goWant computes Go's answers and checks them against the golden row.
func goWant(t *testing.T, profile string, r golden.Row) *want {
	w := &want{row: r, profile: profile}
	args := []string{r.Input, profile}
	text := func(name string) result {
		out, _, err := overload(name).Text(nil, args, nil)
		if err != nil {
			return result{err: err.Error()}
		}
		return result{val: string(out)}
	}
	w.norm, w.hash, w.key, w.record = text("normalize_url"), text("canonical_hash"), text("canonical_key"), text("canonicalize_url")
	// The Go library must agree with its SQL layer.
	n, err := normalize.Lookup(profile)
	if err != nil {
		t.Fatalf("golden file for unknown profile %q: %v", profile, err)
	}
	lib := func(name string, val string, err error, sqlRes result) {
		if err != nil {
			if !strings.Contains(sqlRes.err, "): "+normalize.KindOf(err)) {
				t.Errorf("%s Go %s(%q) error %v; udf %s gives %q", r, name, r.Input, err, name, sqlRes.err)
			}
		} else if val != sqlRes.val || sqlRes.err != "" {
			t.Errorf("%s Go %s(%q) = %q; udf gives %q, %s", r, name, r.Input, val, sqlRes.val, sqlRes.err)
		}
	}
	v, err := n.Normalize(r.Input)
	lib("Normalize", v, err, w.norm)
	v, err = n.Hash(r.Input)
	lib("Hash", v, err, w.hash)
	k, err := n.Key(r.Input)
	lib("Key", strconv.FormatInt(k, 10), err, w.key)
	// Go against the golden file (the normalize package's own golden test
	// checks Normalize; this checks the SQL layer on top of it).
	switch {
	case r.WantErr != "":
		for _, c := range checked {
			if e := c.get(w).err; !strings.Contains(e, "): "+r.WantErr) {
				t.Errorf("%s [%s] Go %s(%q, %q) error = %q; want kind %s", r, r.Comment, c.name, r.Input, profile, e, r.WantErr)
			}
		}
	case w.norm.val != r.Want || w.norm.err != "":
		t.Errorf("%s [%s] Go normalize_url(%q, %q) = %q, %s; want %q", r, r.Comment, r.Input, profile, w.norm.val, w.norm.err, r.Want)
	}
	return w
}

// engine is one SQL engine under test.
type engine struct {
	name string
	db   *sql.DB
	// record renders canonicalize_url's value as udf's Text does.
	record func(v any) (string, error)
	// holds reports whether the engine can hold s as text at all.
	holds func(s string) bool
}

func engines(t *testing.T) []engine {
	duck, err := duckdb.Open("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { duck.Close() })
	lite, err := sqlite.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lite.Close() })
	lite.SetMaxOpenConns(1)
	return []engine{
		{name: "duckdb", db: duck, record: duckRecord, holds: utf8.ValidString},
		{name: "sqlite", db: lite, record: liteRecord, holds: func(string) bool { return true }},
	}
}

// duckRecord encodes DuckDB's STRUCT (scanned as map[string]any) as
// udf encodes Go's record.
func duckRecord(v any) (string, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", fmt.Errorf("canonicalize_url gave %T, want a STRUCT", v)
	}
	var b bytes.Buffer
	err := udf.RecordType.EncodeJSON(&b, m)
	return b.String(), err
}

func liteRecord(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("canonicalize_url gave %T, want TEXT", v)
	}
	return s, nil
}

// TestParity runs every golden row of every profile (whatever files
// testdata/golden holds: new profiles are picked up) through Go, DuckDB
// and SQLite.
func TestParity(t *testing.T) {
	profiles, err := golden.Profiles()
	if err != nil || len(profiles) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	var wants []*want
	for _, p := range profiles {
		rows, err := golden.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 0 {
			t.Errorf("%s.tsv has no rows", p)
		}
		for _, r := range rows {
			wants = append(wants, goWant(t, p, r))
		}
	}
	for _, e := range engines(t) {
		t.Run(e.name, func(t *testing.T) {
			n := checkBatch(t, e, wants)
			m := checkErrors(t, e, wants)
			t.Logf("%s: %d profiles, %d rows: %d compared in one batch, %d error messages compared, %d inputs the engine cannot hold",
				e.name, len(profiles), len(wants), n, m, len(wants)-n)
		})
	}
}

// checkBatch loads every row the engine can hold into a table and runs
// the try_ functions over all of them in one query (the engines' vector
// and parallel paths): values must be Go's, NULL exactly where Go raises.
func checkBatch(t *testing.T, e engine, wants []*want) int {
	for _, q := range []string{"DROP TABLE IF EXISTS g", "CREATE TABLE g(id INTEGER, profile VARCHAR, input VARCHAR)"} {
		if _, err := e.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for i, w := range wants {
		_, err := e.db.Exec("INSERT INTO g VALUES (?, ?, ?)", i, w.profile, w.row.Input)
		switch {
		case e.holds(w.row.Input) && err != nil:
			t.Errorf("%s: inserting %q: %v", w.row, w.row.Input, err)
		case !e.holds(w.row.Input) && err == nil:
			t.Errorf("%s: %s stored %q, which it cannot hold as text", w.row, e.name, w.row.Input)
		case err == nil:
			n++
		}
	}
	rows, err := e.db.Query(`SELECT id, try_normalize_url(input, profile), try_canonical_hash(input, profile),
		try_canonicalize_url(input, profile), try_normalize_url(input), try_canonical_key(input, profile) FROM g`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var id int
		var norm, hash, norm1, key sql.NullString
		var rec any
		if err := rows.Scan(&id, &norm, &hash, &rec, &norm1, &key); err != nil {
			t.Fatal(err)
		}
		seen++
		w := wants[id]
		compare(t, e, w, "try_normalize_url", w.norm, norm)
		compare(t, e, w, "try_canonical_hash", w.hash, hash)
		compare(t, e, w, "try_canonical_key", w.key, key)
		var recStr sql.NullString
		if rec != nil {
			s, err := e.record(rec)
			if err != nil {
				t.Errorf("%s: %s: %v", w.row, e.name, err)
			}
			recStr = sql.NullString{String: s, Valid: true}
		}
		compare(t, e, w, "try_canonicalize_url", w.record, recStr)
		if w.profile == udf.DefaultProfile {
			compare(t, e, w, "try_normalize_url/1", w.norm, norm1)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if seen != n {
		t.Errorf("%s: batch returned %d rows; want %d", e.name, seen, n)
	}
	return n
}

func compare(t *testing.T, e engine, w *want, fn string, want result, got sql.NullString) {
	t.Helper()
	switch {
	case want.err != "" && got.Valid:
		t.Errorf("%s [%s] %s %s(%q, %q) = %q; want NULL (Go: %s)", w.row, w.row.Comment, e.name, fn, w.row.Input, w.profile, got.String, want.err)
	case want.err == "" && (!got.Valid || got.String != want.val):
		t.Errorf("%s [%s] %s %s(%q, %q) = %q (valid %v); want %q", w.row, w.row.Comment, e.name, fn, w.row.Input, w.profile, got.String, got.Valid, want.val)
	}
}

// checkErrors runs the plain functions on every row where Go raises: the
// engine must raise Go's message (which names the function, quotes the
// input and gives the kind code).
func checkErrors(t *testing.T, e engine, wants []*want) int {
	n := 0
	for _, w := range wants {
		if !e.holds(w.row.Input) {
			continue
		}
		for _, c := range checked {
			want := c.get(w)
			if want.err == "" {
				continue
			}
			n++
			var got any
			err := e.db.QueryRow("SELECT "+c.name+"(?, ?)", w.row.Input, w.profile).Scan(&got)
			if err == nil || !strings.Contains(err.Error(), want.err) {
				t.Errorf("%s [%s] %s %s(%q, %q) = %v, error %v; want error %q", w.row, w.row.Comment, e.name, c.name, w.row.Input, w.profile, got, err, want.err)
			}
		}
	}
	return n
}
