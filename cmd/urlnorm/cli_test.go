package main

// These tests run the built urlnorm binary on real files, the way users
// and pipelines do. The expected values come from package normalize (the
// library the SQL functions also call), never from the CLI itself.

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/normalize/sourceconfig"
)

// bin is the urlnorm binary built once for all tests.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "urlnorm-cli-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "urlnorm")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building urlnorm:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is one run of the binary.
type result struct {
	stdout, stderr string
	code           int
	maxRSS         int64 // peak resident set, KiB
}

// urlnorm runs the binary with stdin and args.
func urlnorm(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("urlnorm %q: %v", args, err)
	}
	return result{out.String(), errb.String(), cmd.ProcessState.ExitCode(),
		cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss}
}

// mustRun runs the binary and fails unless it exits with want.
func mustRun(t *testing.T, want int, stdin string, args ...string) result {
	t.Helper()
	r := urlnorm(t, stdin, args...)
	if r.code != want {
		t.Fatalf("urlnorm %q: exit %d, want %d\nstdout: %s\nstderr: %s", args, r.code, want, r.stdout, r.stderr)
	}
	return r
}

func tempFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// want is what the library says about an input under a profile.
type want struct {
	url, hash, linkType, kind string
}

func expect(t *testing.T, profile, in string) want {
	t.Helper()
	n, err := normalize.Lookup(profile)
	if err != nil {
		t.Fatal(err)
	}
	var w want
	u, err := n.Normalize(in)
	if err != nil {
		w.kind = normalize.KindOf(err)
	} else {
		w.url = u
		w.hash, _ = n.Hash(in)
	}
	w.linkType, _ = normalize.ClassifyURL(in)
	return w
}

// mixed is a text file's worth of inputs: valid, invalid, empty, and
// already canonical, with a BOM and a CRLF line (kasztp.txt has both).
var mixed = []string{
	"HTTP://Example.COM:80/a/../b/?z=1&a=2#x",
	"not a url",
	"",
	"https://www.sepe.es/HomeSepe/Personas",
	"http://exa mple.com/",
	"https://example.com/p?utm_source=x&id=7",
}

func mixedFile(t *testing.T) string {
	return tempFile(t, "mixed.txt", "\xEF\xBB\xBF"+mixed[0]+"\r\n"+strings.Join(mixed[1:], "\n")+"\n")
}

func TestNormalizeText(t *testing.T) {
	r := mustRun(t, 0, "", "normalize", mixedFile(t))
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != len(mixed) {
		t.Fatalf("%d output lines for %d inputs:\n%s", len(lines), len(mixed), r.stdout)
	}
	bad := 0
	for i, in := range mixed {
		w := expect(t, "default", in)
		if lines[i] != w.url {
			t.Errorf("line %d: %q → %q, want %q", i+1, in, lines[i], w.url)
		}
		if w.kind != "" {
			bad++
			// stderr names the line and the kind
			if !strings.Contains(r.stderr, fmt.Sprintf("mixed.txt:%d: %s", i+1, w.kind)) {
				t.Errorf("stderr does not report line %d (%s):\n%s", i+1, w.kind, r.stderr)
			}
		}
	}
	if !strings.Contains(r.stderr, fmt.Sprintf("%d of %d inputs invalid", bad, len(mixed))) {
		t.Errorf("stderr lacks the count of invalid inputs:\n%s", r.stderr)
	}
}

func TestNormalizeStrict(t *testing.T) {
	f := mixedFile(t)
	r := mustRun(t, exitData, "", "normalize", "--strict", f)
	if got := strings.Count(r.stdout, "\n"); got != len(mixed) {
		t.Errorf("--strict stopped the stream: %d of %d rows", got, len(mixed))
	}
	r = mustRun(t, exitData, "", "normalize", "--strict", "-q", f)
	if r.stderr != "" {
		t.Errorf("-q printed %q", r.stderr)
	}
	// all valid: --strict exits 0
	mustRun(t, 0, "https://example.com/\n", "normalize", "--strict")
}

// parseRows reads TSV/CSV output into records (header first).
func parseRows(t *testing.T, format, out string) [][]string {
	t.Helper()
	if format == "csv" {
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatalf("output is not CSV: %v\n%s", err, out)
		}
		return recs
	}
	var recs [][]string
	unescape := strings.NewReplacer(`\t`, "\t", `\n`, "\n", `\r`, "\r", `\\`, `\`)
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		fields := strings.Split(line, "\t")
		for i := range fields {
			fields[i] = unescape.Replace(fields[i])
		}
		recs = append(recs, fields)
	}
	return recs
}

func TestRowCommandsTable(t *testing.T) {
	f := mixedFile(t)
	for _, cmd := range []struct{ name, column string }{{"normalize", "url"}, {"hash", "hash"}, {"linktype", "link_type"}} {
		for _, format := range []string{"tsv", "csv"} {
			for _, profile := range []string{"default", "edge-gateway"} {
				r := mustRun(t, 0, "", cmd.name, "--format", format, "--profile", profile, f)
				recs := parseRows(t, format, r.stdout)
				if got, want := strings.Join(recs[0], ","), "input,"+cmd.column+",error"; got != want {
					t.Errorf("%s --format %s header %q, want %q", cmd.name, format, got, want)
				}
				if len(recs) != len(mixed)+1 {
					t.Fatalf("%s --format %s: %d rows for %d inputs", cmd.name, format, len(recs)-1, len(mixed))
				}
				for i, in := range mixed {
					w := expect(t, profile, in)
					val := map[string]string{"url": w.url, "hash": w.hash, "link_type": w.linkType}[cmd.column]
					kind := w.kind
					if cmd.name == "linktype" {
						_, err := normalize.ClassifyURL(in)
						kind = normalize.KindOf(err)
					}
					if rec := recs[i+1]; len(rec) != 3 || rec[0] != in || rec[1] != val || rec[2] != kind {
						t.Errorf("%s --format %s --profile %s row %d = %q, want [%q %q %q]", cmd.name, format, profile, i+1, rec, in, val, kind)
					}
				}
			}
		}
	}
}

// jsonRow is a --format jsonl row; pointers tell null from "".
type jsonRow struct {
	Input    *string `json:"input"`
	URL      *string `json:"url"`
	Hash     *string `json:"hash"`
	LinkType *string `json:"link_type"`
	Error    *string `json:"error"`
}

func deref(p *string) string {
	if p == nil {
		return "<null>"
	}
	return *p
}

func orNull(s string) string {
	if s == "" {
		return "<null>"
	}
	return s
}

func parseJSONL(t *testing.T, out string) []jsonRow {
	t.Helper()
	var rows []jsonRow
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	for dec.More() {
		var r jsonRow
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("output is not JSON lines: %v\n%s", err, out)
		}
		rows = append(rows, r)
	}
	return rows
}

func TestRowCommandsJSONL(t *testing.T) {
	f := mixedFile(t)
	for _, cmd := range []string{"normalize", "hash", "linktype"} {
		rows := parseJSONL(t, mustRun(t, 0, "", cmd, "--format", "jsonl", "--profile", "curiousnow-v0", f).stdout)
		if len(rows) != len(mixed) {
			t.Fatalf("%s: %d rows for %d inputs", cmd, len(rows), len(mixed))
		}
		for i, in := range mixed {
			w := expect(t, "curiousnow-v0", in)
			kind := w.kind
			if cmd == "linktype" {
				_, err := normalize.ClassifyURL(in)
				kind = normalize.KindOf(err)
			}
			r := rows[i]
			if deref(r.Input) != in || deref(r.URL) != orNull(w.url) || deref(r.Hash) != orNull(w.hash) ||
				deref(r.LinkType) != orNull(w.linkType) || deref(r.Error) != orNull(kind) {
				t.Errorf("%s row %d = {%s %s %s %s %s}, want {%s %s %s %s %s}", cmd, i+1,
					deref(r.Input), deref(r.URL), deref(r.Hash), deref(r.LinkType), deref(r.Error),
					in, orNull(w.url), orNull(w.hash), orNull(w.linkType), orNull(kind))
			}
		}
	}
}

func TestStdin(t *testing.T) {
	in := "HTTP://Example.COM/a/./b\nhttps://x.org/?b=2&a=1\n"
	w1, w2 := expect(t, "default", "HTTP://Example.COM/a/./b"), expect(t, "default", "https://x.org/?b=2&a=1")
	wantOut := w1.url + "\n" + w2.url + "\n"
	for _, args := range [][]string{{"normalize"}, {"normalize", "-"}, {"normalize", "--profile", "default", "-"}} {
		if r := mustRun(t, 0, in, args...); r.stdout != wantOut {
			t.Errorf("%q: %q, want %q", args, r.stdout, wantOut)
		}
	}
	// a last line without a newline is a row too
	if r := mustRun(t, 0, "https://x.org/?b=2&a=1", "normalize"); r.stdout != w2.url+"\n" {
		t.Errorf("unterminated last line: %q", r.stdout)
	}
	// CSV from stdin
	r := mustRun(t, 0, "id,link\n1,HTTP://Example.COM/a/./b\n", "hash", "--input-format", "csv", "--column", "link")
	if r.stdout != w1.hash+"\n" {
		t.Errorf("CSV on stdin: %q, want %q", r.stdout, w1.hash)
	}
}

func TestCSVInput(t *testing.T) {
	// a quoted field with a comma, one with a newline, a short record, a
	// record with a stray quote (RFC 4180 syntax error: reported, skipped)
	f := tempFile(t, "links.csv", "\xEF\xBB\xBFid,Link,note\n"+
		"1,\"http://A.com/x,y\",a\n"+
		"2,\"HTTP://b.com/p?\nq\",b\n"+
		"3\n"+
		"4,ht\"tp://c.org/,c\n"+
		"5,https://c.org/,d\n")
	check := func(args []string, links []string, kinds map[int]string) {
		t.Helper()
		rows := parseJSONL(t, urlnorm(t, "", append([]string{"normalize", "--format", "jsonl"}, args...)...).stdout)
		if len(rows) != len(links) {
			t.Fatalf("%q: %d rows, want %d", args, len(rows), len(links))
		}
		for i, in := range links {
			w := expect(t, "default", in)
			if k, ok := kinds[i]; ok {
				w = want{kind: k}
			}
			if deref(rows[i].URL) != orNull(w.url) || deref(rows[i].Error) != orNull(w.kind) {
				t.Errorf("%q row %d: url %s error %s, want %s %s", args, i+1, deref(rows[i].URL), deref(rows[i].Error), orNull(w.url), orNull(w.kind))
			}
		}
	}
	links := []string{"http://A.com/x,y", "HTTP://b.com/p?\nq", "", "", "https://c.org/"}
	kinds := map[int]string{2: "missing_field", 3: "csv_syntax"}
	check([]string{"--column", "Link", f}, links, kinds)
	check([]string{"--column", "link", f}, links, kinds) // case-insensitive when unambiguous
	check([]string{"--column", "2", f}, links, kinds)
	r := urlnorm(t, "", "normalize", "--column", "2", f)
	for _, msg := range []string{"links.csv:6: csv_syntax", "links.csv:5: missing_field"} { // line numbers count the quoted newline
		if !strings.Contains(r.stderr, msg) {
			t.Errorf("stderr lacks %q:\n%s", msg, r.stderr)
		}
	}
	// TSV: split on tabs, no quoting ('"' is data), here without a header
	tsv := tempFile(t, "links.tsv", "1\thttp://A.com/x,y\n2\t\"HTTP://b.com/p\"\n3\n4\thttps://c.org/\textra\n")
	check([]string{"--no-header", "--column", "2", tsv},
		[]string{"http://A.com/x,y", `"HTTP://b.com/p"`, "", "https://c.org/"}, map[int]string{2: "missing_field"})

	// column errors are usage errors, before any output
	for _, args := range [][]string{
		{"--column", "nope", f},             // no such column
		{"--column", "9", f},                // out of range
		{f},                                 // several columns, none named url
		{"--column", "1", mixedFile(t)},     // text input has no columns
		{"--no-header", "--column", "x", f}, // names need a header
	} {
		r := mustRun(t, exitUsage, "", append([]string{"normalize"}, args...)...)
		if r.stdout != "" || !strings.Contains(r.stderr, "column") {
			t.Errorf("%q: stdout %q, stderr %q", args, r.stdout, r.stderr)
		}
	}
	// a quote left open swallows the following lines: that is fatal (exit
	// 3, naming the line), never a silent merge of records
	bad := tempFile(t, "bad.csv", "url\nhttp://x.com/\n\"http://a.com/\nhttp://b.com/\nhttp://c.com/\n")
	if r := mustRun(t, exitIO, "", "normalize", bad); !strings.Contains(r.stderr, "bad.csv:3: a quoted field") || r.stdout != "http://x.com\n" {
		t.Errorf("open quote: stdout %q, stderr %q", r.stdout, r.stderr)
	}
}

func TestGzipInput(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("HTTP://Example.COM/a/./b\r\nnot a url\n"))
	zw.Close()
	f := tempFile(t, "urls.txt.gz", buf.String())
	r := mustRun(t, 0, "", "normalize", "--format", "tsv", f)
	w := expect(t, "default", "HTTP://Example.COM/a/./b")
	if want := "input\turl\terror\nHTTP://Example.COM/a/./b\t" + w.url + "\t\nnot a url\t\tmissing_scheme\n"; r.stdout != want {
		t.Errorf("gzip input: %q, want %q", r.stdout, want)
	}
}

// makeParquet writes rows (nil = NULL) to a Parquet file with DuckDB, in
// row groups of groupSize rows.
func makeParquet(t *testing.T, rows []*string, groupSize int) string {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec("CREATE TABLE t (id INTEGER, url VARCHAR)")
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	stmt, err := tx.Prepare("INSERT INTO t VALUES (?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		var v any
		if r != nil {
			v = *r
		}
		if _, err := stmt.Exec(i, v); err != nil {
			t.Fatal(err)
		}
	}
	stmt.Close()
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "urls.parquet")
	exec(fmt.Sprintf("COPY (SELECT * FROM t ORDER BY id) TO '%s' (FORMAT parquet, ROW_GROUP_SIZE %d)", p, groupSize))
	return p
}

func TestParquetInput(t *testing.T) {
	var rows []*string
	var inputs []string
	for i := range 5000 {
		var s string
		switch i % 10 {
		case 3:
			rows = append(rows, nil) // NULL
			inputs = append(inputs, "")
			continue
		case 7:
			s = fmt.Sprintf("not a url %d", i)
		default:
			s = fmt.Sprintf("HTTP://Host%d.Example.COM:80/a/../p%d/?z=%d&a=1#f", i%13, i, i)
		}
		rows = append(rows, &s)
		inputs = append(inputs, s)
	}
	p := makeParquet(t, rows, 1000) // several row groups: order must hold
	for _, args := range [][]string{{p}, {"--column", "url", p}, {"--column", "2", p}} {
		r := mustRun(t, 0, "", append([]string{"normalize", "--format", "jsonl"}, args...)...)
		got := parseJSONL(t, r.stdout)
		if len(got) != len(rows) {
			t.Fatalf("%q: %d rows, want %d", args, len(got), len(rows))
		}
		for i, in := range inputs {
			if rows[i] == nil {
				if got[i].Input != nil || got[i].URL != nil || got[i].Error != nil {
					t.Errorf("row %d: NULL gave %s %s %s", i+1, deref(got[i].Input), deref(got[i].URL), deref(got[i].Error))
				}
				continue
			}
			w := expect(t, "default", in)
			if deref(got[i].Input) != in || deref(got[i].URL) != orNull(w.url) || deref(got[i].Error) != orNull(w.kind) {
				t.Fatalf("%q row %d: %s → %s %s, want %s %s", args, i+1, deref(got[i].Input), deref(got[i].URL), deref(got[i].Error), orNull(w.url), orNull(w.kind))
			}
		}
		if !strings.Contains(r.stderr, "urls.parquet row 8: missing_scheme") {
			t.Errorf("stderr does not name the row of the first invalid input:\n%s", r.stderr)
		}
	}
	// a non-text column is refused before any output
	if r := mustRun(t, exitUsage, "", "normalize", "--column", "id", p); r.stdout != "" || !strings.Contains(r.stderr, "not text") {
		t.Errorf("--column id: %q %q", r.stdout, r.stderr)
	}
	// not a Parquet file
	fake := tempFile(t, "fake.parquet", "hello\n")
	if r := mustRun(t, exitIO, "", "normalize", fake); !strings.Contains(r.stderr, "fake.parquet") {
		t.Errorf("fake parquet: %q", r.stderr)
	}
}

func TestMultipleFilesKeepOrder(t *testing.T) {
	a := tempFile(t, "a.txt", "https://a.com/1\nhttps://a.com/2\n")
	b := tempFile(t, "b.csv", "url\nhttps://b.com/1\n")
	r := mustRun(t, 0, "https://s.com/1\n", "normalize", a, "-", b)
	if want := "https://a.com/1\nhttps://a.com/2\nhttps://s.com/1\nhttps://b.com/1\n"; r.stdout != want {
		t.Errorf("got %q, want %q", r.stdout, want)
	}
}

func TestExitCodes(t *testing.T) {
	f := mixedFile(t)
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		msg  string // in stderr
	}{
		{[]string{"nope"}, exitUsage, "unknown command"},
		{[]string{"normalize", "--bogus", f}, exitUsage, "--help"},
		{[]string{"normalize", "--profile", "nope", f}, exitUsage, "unknown profile \"nope\""},
		{[]string{"normalize", "--format", "xml", f}, exitUsage, "unknown --format"},
		{[]string{"normalize", "--input-format", "xml", f}, exitUsage, "unknown input format"},
		{[]string{"normalize", "--config", f, f}, exitUsage, "want a JSON or YAML object"},
		{[]string{"normalize", filepath.Join(dir, "missing.txt")}, exitIO, "no such file"},
		{[]string{"normalize", dir}, exitIO, "is a directory"},
		{[]string{"normalize", "--config", filepath.Join(dir, "p.json"), f}, exitUsage, "does not exist"},
		{[]string{"dedup", "--format", "xml", f}, exitUsage, "unknown --format"},
		{[]string{"diff", "--from", "default", f}, exitUsage, "--to"},
		{[]string{"profiles", "show", "nope"}, exitUsage, "unknown profile"},
		{[]string{"profiles", "bogus"}, exitUsage, "profiles --help"},
	} {
		r := urlnorm(t, "", c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", c.args, r.code, r.stderr, c.code, c.msg)
		}
	}
}

func TestHelp(t *testing.T) {
	r := mustRun(t, 0, "", "help")
	for _, name := range []string{"normalize", "hash", "linktype", "dedup", "diff", "profiles"} {
		if !strings.Contains(r.stdout, "  "+name+" ") {
			t.Errorf("'urlnorm help' does not list %s", name)
		}
		for _, args := range [][]string{{name, "--help"}, {name, "-h"}, {"help", name}} {
			h := mustRun(t, 0, "", args...)
			for _, part := range []string{"Usage: urlnorm " + name, "Flags:", "Examples:", "Exit status:"} {
				if !strings.Contains(h.stdout, part) {
					t.Errorf("%q lacks %q", args, part)
				}
			}
			if h.stderr != "" {
				t.Errorf("%q wrote to stderr: %q", args, h.stderr)
			}
		}
	}
}

func TestProfiles(t *testing.T) {
	r := mustRun(t, 0, "", "profiles")
	for _, name := range normalize.Names() {
		n := normalize.MustLookup(name)
		if !strings.Contains(r.stdout, name) || !strings.Contains(r.stdout, n.Version()) {
			t.Errorf("profiles list lacks %s %s:\n%s", name, n.Version(), r.stdout)
		}
	}
	var list []profileInfo
	if err := json.Unmarshal([]byte(mustRun(t, 0, "", "profiles", "--json").stdout), &list); err != nil || len(list) != len(normalize.Names()) {
		t.Errorf("profiles --json: %v, %d entries", err, len(list))
	}
	for _, name := range normalize.Names() {
		want := normalize.MustLookup(name).Profile()
		js := mustRun(t, 0, "", "profiles", "show", name).stdout
		if p, err := normalize.ParseProfile(name, []byte(js)); err != nil || string(p.JSON()) != string(want.JSON()) {
			t.Errorf("profiles show %s does not load back: %v", name, err)
		}
		ym := mustRun(t, 0, "", "profiles", "show", "--yaml", name).stdout
		if p, err := sourceconfig.ParseProfileYAML(name, []byte(ym)); err != nil || string(p.JSON()) != string(want.JSON()) {
			t.Errorf("profiles show --yaml %s does not load back: %v\n%s", name, err, ym)
		}
		// the saved file is usable as --profile and --config
		yf := tempFile(t, name+".yaml", ym)
		in := "HTTP://WWW.Example.COM:80/a//b/?utm_source=x&b=2&a=1#f"
		w := expect(t, name, in)
		for _, flag := range []string{"--profile", "--config"} {
			if got := mustRun(t, 0, in+"\n", "normalize", flag, yf).stdout; got != w.url+"\n" {
				t.Errorf("normalize %s %s.yaml: %q, want %q", flag, name, got, w.url)
			}
		}
	}
}

// TestConfigFiles: --config loads the users' own configuration formats
// (testdata/config) on top of the profile they belong to, or of
// --profile; the output is the library loader's.
func TestConfigFiles(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "config")
	inputs := []string{
		"https://example.com/amp/story?src=x&id=1",
		"https://m.example.com/story?id=1&utm_source=y",
		"https://example.com/api/v1?utm_source=z&custom_param=1",
		"https://news.example.com/a?gclid=1&src_x=2&utm_source=3",
		"https://sepe.es/x",
		"https://www.agenciatributaria.es/AEAT/x",
	}
	f := tempFile(t, "in.txt", strings.Join(inputs, "\n")+"\n")
	for _, c := range []struct {
		profile string // --profile, if given
		files   []string
		load    func(normalize.Profile, ...sourceconfig.ConfigFile) (normalize.Profile, error)
		base    string
	}{
		{"", []string{"url_normalization_overrides.v0.json"}, sourceconfig.LoadCuriousNowOverrides, "curiousnow-v0"},
		{"rfc3986", []string{"url_normalization_overrides.v0.json"}, sourceconfig.LoadCuriousNowOverrides, "rfc3986"},
		{"", []string{"edge-gateway.yaml", "hosts.yaml"}, sourceconfig.LoadEdgeGatewayYAML, "edge-gateway"},
		{"", []string{"clara-hosts.json", "clara-languages.json"}, sourceconfig.LoadClaraConfig, "clara"},
	} {
		var paths, args []string
		for _, name := range c.files {
			paths = append(paths, filepath.Join(dir, name))
			args = append(args, "--config", filepath.Join(dir, name))
		}
		if c.profile != "" {
			args = append(args, "--profile", c.profile)
		}
		files, err := sourceconfig.ReadConfigFiles(paths...)
		if err != nil {
			t.Fatal(err)
		}
		p, err := c.load(normalize.MustLookup(c.base).Profile(), files...)
		if err != nil {
			t.Fatal(err)
		}
		n, err := normalize.New(p)
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		for _, in := range inputs {
			u, _ := n.Normalize(in)
			want.WriteString(u + "\n")
		}
		if got := mustRun(t, 0, "", append(append([]string{"normalize"}, args...), f)...).stdout; got != want.String() {
			t.Errorf("normalize %q:\n%s\nwant\n%s", args, got, want.String())
		}
		// profiles show prints the complete profile the files define
		if c.profile == "" && len(c.files) == 1 {
			shown := mustRun(t, 0, "", "profiles", "show", paths[0]).stdout
			if shown != string(n.Profile().JSON()) {
				t.Errorf("profiles show %s differs from the loaded profile", c.files[0])
			}
		}
	}
	// diff: the built-in against the built-in with the overrides
	r := mustRun(t, 0, "", "diff", "--from", "curiousnow-v0", "--to", filepath.Join(dir, "url_normalization_overrides.v0.json"), "--format", "json", f)
	var rep diffReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.Counts["url_changed"] == 0 || !strings.Contains(rep.To, "+config.") {
		t.Errorf("diff against the overrides: %v %+v", err, rep)
	}
	// two formats in one run: a usage error
	if r := mustRun(t, exitUsage, "", "normalize", "--config", filepath.Join(dir, "hosts.yaml"), "--config", filepath.Join(dir, "clara-hosts.json"), f); !strings.Contains(r.stderr, "different formats") {
		t.Errorf("mixed formats: %q", r.stderr)
	}
}

// TestLongLine: a 3 MiB line (no URL is that long) is one invalid row,
// too_long, and the lines around it are unharmed.
func TestLongLine(t *testing.T) {
	f := tempFile(t, "long.txt", "https://a.com/\nhttps://b.com/"+strings.Repeat("x", 3<<20)+"\nhttps://c.com/\n")
	r := mustRun(t, 0, "", "normalize", "--format", "tsv", f)
	recs := parseRows(t, "tsv", r.stdout)
	if len(recs) != 4 || recs[1][1] != "https://a.com" || recs[2][1] != "" || recs[2][2] != "too_long" || recs[3][1] != "https://c.com" {
		t.Errorf("rows: %.200q", recs)
	}
	if !strings.Contains(r.stderr, "long.txt:2: too_long") {
		t.Errorf("stderr: %.300q", r.stderr)
	}
}
