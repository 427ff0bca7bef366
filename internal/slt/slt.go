// Package slt runs sqllogictest files (DuckDB's dialect) against any SQL
// engine, so the same sql/*.test fixtures check embedded DuckDB, embedded
// SQLite and the loadable extensions in their hosts.
//
// Supported records, as in DuckDB's runner:
//
//	statement ok            SQL must succeed
//	statement error         SQL must fail; an optional "----" section holds a
//	                        substring of the expected message ("<REGEX>:re"
//	                        for a regular expression)
//	query <types> [nosort|rowsort|valuesort] [label]
//	                        SQL, "----", then expected rows, values separated
//	                        by one TAB; <types> has one letter per column
//	skipif <engine>         skip the next record on that engine
//	onlyif <engine>         run the next record on that engine only
//	mode skip | mode unskip skip records until "mode unskip"
//	halt                    stop reading the file
//	# comment
//
// Records end at an empty line. Values are rendered by Render and then by
// the column's type letter (see Coerce): I integer, R real, B boolean,
// T (or anything else) text. NULL is "NULL", the empty string "(empty)".
// Queries with the same label must return the same rows.
package slt

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// Engine is a SQL engine a test file runs against.
type Engine interface {
	Name() string                         // "duckdb" or "sqlite" (matched by skipif/onlyif)
	Exec(sql string) error                // runs a statement to completion
	Query(sql string) ([][]string, error) // rows of values rendered by Render
}

// Dir returns the absolute path of the repository's sql/ directory.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "sql")
}

// Files lists the *.test files of Dir, sorted.
func Files() ([]string, error) {
	return filepath.Glob(filepath.Join(Dir(), "*.test"))
}

// RunFiles runs every file of Files as a subtest, each on a fresh engine
// from open (which may register cleanups on its t).
func RunFiles(t *testing.T, open func(t *testing.T) Engine) {
	files, err := Files()
	if err != nil || len(files) == 0 {
		t.Fatalf("no sql/*.test files in %s: %v", Dir(), err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			RunFile(t, file, open(t))
		})
	}
}

// RunFile runs one test file against e, reporting every failing record
// as "file:line: …" with what was wanted and what was got.
func RunFile(t testing.TB, path string, e Engine) {
	t.Helper()
	recs, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Run(recs, e) {
		t.Error(f)
	}
}

// Record is one statement or query of a test file.
type Record struct {
	File, Line  string // Line is "file:line" of the record's first line
	Query       bool
	WantError   bool   // statement error
	ErrorText   string // expected error substring ("" = any error)
	Types       string // query column types, one letter each
	Sort        string // "nosort", "rowsort" or "valuesort"
	Label       string
	SQL         string
	Want        []string // expected result lines
	SkipIf      []string
	OnlyIf      []string
	skippedMode bool // inside mode skip
}

// ParseFile reads a test file.
func ParseFile(path string) ([]*Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p := parser{file: filepath.Base(path), sc: bufio.NewScanner(f)}
	p.sc.Buffer(make([]byte, 1<<20), 1<<20)
	return p.parse()
}

type parser struct {
	file string
	sc   *bufio.Scanner
	line int
}

func (p *parser) next() (string, bool) {
	if !p.sc.Scan() {
		return "", false
	}
	p.line++
	return strings.TrimRight(p.sc.Text(), "\r"), true
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.file, p.line, fmt.Sprintf(format, args...))
}

func (p *parser) parse() ([]*Record, error) {
	var recs []*Record
	var skipIf, onlyIf []string
	skipMode := false
	for {
		line, ok := p.next()
		if !ok {
			break
		}
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		switch fields[0] {
		case "halt":
			return recs, p.sc.Err()
		case "mode":
			if len(fields) != 2 || (fields[1] != "skip" && fields[1] != "unskip") {
				return nil, p.errorf("want \"mode skip\" or \"mode unskip\", got %q", line)
			}
			skipMode = fields[1] == "skip"
			continue
		case "skipif", "onlyif":
			if len(fields) != 2 {
				return nil, p.errorf("want %q followed by one engine name", fields[0])
			}
			if fields[0] == "skipif" {
				skipIf = append(skipIf, fields[1])
			} else {
				onlyIf = append(onlyIf, fields[1])
			}
			continue
		}
		r := &Record{File: p.file, Line: fmt.Sprintf("%s:%d", p.file, p.line),
			SkipIf: skipIf, OnlyIf: onlyIf, skippedMode: skipMode}
		skipIf, onlyIf = nil, nil
		if err := p.header(r, fields); err != nil {
			return nil, err
		}
		if err := p.body(r); err != nil {
			return nil, err
		}
		recs = append(recs, r)
	}
	if len(skipIf)+len(onlyIf) > 0 {
		return nil, p.errorf("skipif/onlyif at end of file applies to no record")
	}
	return recs, p.sc.Err()
}

func (p *parser) header(r *Record, f []string) error {
	switch {
	case f[0] == "statement" && len(f) == 2 && f[1] == "ok":
	case f[0] == "statement" && len(f) == 2 && f[1] == "error":
		r.WantError = true
	case f[0] == "query" && len(f) >= 2 && len(f) <= 4:
		r.Query, r.Types, r.Sort = true, f[1], "nosort"
		if len(f) > 2 {
			switch f[2] {
			case "nosort", "rowsort", "valuesort":
				r.Sort = f[2]
			default:
				return p.errorf("unknown sort mode %q (want nosort, rowsort or valuesort)", f[2])
			}
		}
		if len(f) > 3 {
			r.Label = f[3]
		}
	default:
		return p.errorf("unknown or malformed record %q", strings.Join(f, " "))
	}
	return nil
}

// body reads the SQL and, after "----", the expected lines.
func (p *parser) body(r *Record) error {
	var sql []string
	sep := false
	for {
		line, ok := p.next()
		if !ok || line == "" {
			break
		}
		if line == "----" && !sep {
			sep = true
			continue
		}
		if sep {
			r.Want = append(r.Want, line)
		} else {
			sql = append(sql, line)
		}
	}
	r.SQL = strings.Join(sql, "\n")
	switch {
	case r.SQL == "":
		return p.errorf("record at %s has no SQL", r.Line)
	case r.Query && !sep:
		return p.errorf("query at %s has no ---- line", r.Line)
	case !r.Query && !r.WantError && sep:
		return p.errorf("statement ok at %s has a ---- section", r.Line)
	}
	r.ErrorText = strings.Join(r.Want, "\n")
	return nil
}

// Run runs records against e and returns one message per failure.
func Run(recs []*Record, e Engine) []string {
	var fails []string
	labels := map[string][]string{}
	for _, r := range recs {
		if r.skipped(e.Name()) {
			continue
		}
		if msg := r.run(e, labels); msg != "" {
			fails = append(fails, r.Line+": "+msg)
		}
	}
	return fails
}

func (r *Record) skipped(engine string) bool {
	if r.skippedMode {
		return true
	}
	for _, s := range r.SkipIf {
		if s == engine {
			return true
		}
	}
	for _, s := range r.OnlyIf {
		if s != engine {
			return true
		}
	}
	return false
}

func (r *Record) run(e Engine, labels map[string][]string) string {
	if !r.Query {
		err := e.Exec(r.SQL)
		return r.checkError(e, err)
	}
	rows, err := e.Query(r.SQL)
	if err != nil {
		return fmt.Sprintf("[%s] query failed:\n%s\nerror: %v", e.Name(), r.SQL, err)
	}
	got, msg := r.render(rows)
	if msg != "" {
		return fmt.Sprintf("[%s] %s\n%s", e.Name(), msg, r.SQL)
	}
	want := r.sorted(r.Want)
	if !equal(got, want) {
		return fmt.Sprintf("[%s] wrong result for\n%s\nwant:\n%s\ngot:\n%s",
			e.Name(), r.SQL, block(want), block(got))
	}
	if r.Label != "" {
		if prev, ok := labels[r.Label]; ok && !equal(prev, got) {
			return fmt.Sprintf("[%s] label %q: result differs from the earlier query with that label\nearlier:\n%s\nthis:\n%s",
				e.Name(), r.Label, block(prev), block(got))
		}
		labels[r.Label] = got
	}
	return ""
}

func (r *Record) checkError(e Engine, err error) string {
	switch {
	case !r.WantError && err != nil:
		return fmt.Sprintf("[%s] statement failed:\n%s\nerror: %v", e.Name(), r.SQL, err)
	case r.WantError && err == nil:
		return fmt.Sprintf("[%s] statement succeeded, want an error:\n%s", e.Name(), r.SQL)
	case r.WantError && !matchError(err.Error(), r.ErrorText):
		return fmt.Sprintf("[%s] wrong error for\n%s\nwant (substring): %s\ngot: %v", e.Name(), r.SQL, r.ErrorText, err)
	}
	return ""
}

func matchError(got, want string) bool {
	if re, ok := strings.CutPrefix(want, "<REGEX>:"); ok {
		m, err := regexp.MatchString(re, got)
		return err == nil && m
	}
	return strings.Contains(got, want)
}

// render turns result rows into lines, coercing each column by its type.
func (r *Record) render(rows [][]string) ([]string, string) {
	lines := make([]string, len(rows))
	for i, row := range rows {
		if len(row) != len(r.Types) {
			return nil, fmt.Sprintf("query returned %d columns, types %q declare %d", len(row), r.Types, len(r.Types))
		}
		vals := make([]string, len(row))
		for j, v := range row {
			vals[j] = Coerce(r.Types[j], v)
		}
		lines[i] = strings.Join(vals, "\t")
	}
	return r.sorted(lines), ""
}

// sorted applies the record's sort mode to result lines.
func (r *Record) sorted(lines []string) []string {
	switch r.Sort {
	case "rowsort":
		lines = append([]string(nil), lines...)
		sort.Strings(lines)
	case "valuesort":
		var vals []string
		for _, l := range lines {
			vals = append(vals, strings.Split(l, "\t")...)
		}
		sort.Strings(vals)
		lines = vals
	}
	return lines
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func block(lines []string) string {
	if len(lines) == 0 {
		return "  (no rows)"
	}
	return "  " + strings.Join(lines, "\n  ")
}
