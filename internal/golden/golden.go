// Package golden reads the golden files in testdata/golden: one file per
// built-in profile, one row per input, the single source of truth that the
// Go, DuckDB, SQLite, extension and CLI tests all check against.
//
// Format (UTF-8, one row per line, fields separated by one TAB):
//
//	input <TAB> expected <TAB> comment
//
// Lines that are empty or start with '#' are comments. A field that starts
// with '"' is a Go double-quoted string literal (for inputs with tabs,
// newlines, control bytes or invalid UTF-8); any other field is taken as
// is. expected is the canonical URL, or "!" followed by an error kind code
// from package normalize ("!invalid_host", "!missing_scheme", …). The
// comment names the source of the row (document and example, or issue).
package golden

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Row is one golden case.
type Row struct {
	File    string
	Line    int
	Input   string
	Want    string // canonical URL; empty when WantErr is set
	WantErr string // error kind code, without '!'
	Comment string
}

func (r Row) String() string { return fmt.Sprintf("%s:%d", filepath.Base(r.File), r.Line) }

// Dir returns the absolute path of testdata/golden in this repository.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "golden")
}

// Profiles lists the profiles that have a golden file, sorted.
func Profiles() ([]string, error) {
	files, err := filepath.Glob(filepath.Join(Dir(), "*.tsv"))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".tsv"))
	}
	return names, nil
}

// Load reads the golden file of a profile.
func Load(profile string) ([]Row, error) {
	return ReadFile(filepath.Join(Dir(), profile+".tsv"))
}

// ReadFile reads one golden file.
func ReadFile(path string) ([]Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []Row
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || text[0] == '#' {
			continue
		}
		fields := strings.Split(text, "\t")
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s:%d: want 3 tab-separated fields, got %d", path, line, len(fields))
		}
		var vals [3]string
		for i, f := range fields {
			v, err := field(f)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: field %d: %v", path, line, i+1, err)
			}
			vals[i] = v
		}
		r := Row{File: path, Line: line, Input: vals[0], Comment: vals[2]}
		if k, ok := strings.CutPrefix(vals[1], "!"); ok {
			r.WantErr = k
		} else {
			r.Want = vals[1]
		}
		if r.Comment == "" {
			return nil, fmt.Errorf("%s:%d: every row needs a comment naming its source", path, line)
		}
		rows = append(rows, r)
	}
	return rows, sc.Err()
}

func field(s string) (string, error) {
	if strings.HasPrefix(s, `"`) {
		return strconv.Unquote(s)
	}
	return s, nil
}

// Format renders a field for a golden file (quoting it when needed).
func Format(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			return strconv.Quote(s)
		}
	}
	if strings.HasPrefix(s, `"`) {
		return strconv.Quote(s)
	}
	return s
}
