package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sqlRun runs "urlnorm sql args…" in-process.
func sqlRun(stdin string, args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = run(append([]string{"sql"}, args...), &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return out.String(), errb.String(), code
}

func TestSQLFormats(t *testing.T) {
	const q = `SELECT normalize_url('HTTP://Example.COM:80/a/../b/?z=1&a=2#x') AS url, 7 AS n, NULL AS missing, 'tab	and "quote"' AS odd`
	for _, tc := range []struct {
		format, want string
	}{
		{"table", "url                           n  missing  odd\n" +
			"----------------------------  -  -------  ----------------\n" +
			"http://example.com/b?a=2&z=1  7  NULL     tab\\tand \"quote\"\n" +
			"(1 row)\n"},
		{"csv", "url,n,missing,odd\nhttp://example.com/b?a=2&z=1,7,,\"tab\tand \"\"quote\"\"\"\n"},
		{"tsv", "url\tn\tmissing\todd\nhttp://example.com/b?a=2&z=1\t7\t\ttab\\tand \"quote\"\n"},
		{"json", "[\n{\"url\":\"http://example.com/b?a=2&z=1\",\"n\":7,\"missing\":null,\"odd\":\"tab\\tand \\\"quote\\\"\"}\n]\n"},
	} {
		// the same text from both engines
		for _, engine := range []string{"duckdb", "sqlite"} {
			out, errs, code := sqlRun("", "--engine", engine, "--format", tc.format, q)
			if code != exitOK || out != tc.want {
				t.Errorf("%s --format %s: exit %d, stderr %q\ngot:\n%s\nwant:\n%s", engine, tc.format, code, errs, out, tc.want)
			}
		}
	}
}

// The default engine is DuckDB: read_csv works on a file, and the result
// is what the functions give in Go.
func TestSQLReadCSV(t *testing.T) {
	dir := t.TempDir()
	csvFile := filepath.Join(dir, "urls.csv")
	os.WriteFile(csvFile, []byte("url\nHTTP://A.example:80/x/\nhttp://a.example/x#f\nhttps://b.example/?b=2&a=1\n"), 0o644)
	out, errs, code := sqlRun("", "--format", "csv",
		"SELECT normalize_url(url) AS url, count(*) AS n FROM read_csv('"+csvFile+"') GROUP BY 1 ORDER BY n DESC, url")
	want := "url,n\nhttp://a.example/x,2\nhttps://b.example?a=1&b=2,1\n"
	if code != exitOK || out != want {
		t.Fatalf("exit %d, stderr %q, got:\n%s\nwant:\n%s", code, errs, out, want)
	}
}

// canonicalize_url prints the same JSON text from DuckDB (a STRUCT) and
// SQLite (JSON text), keys in udf.RecordType order.
func TestSQLCanonicalizeSameText(t *testing.T) {
	q := "SELECT canonicalize_url('http://sepe.es/HomeSepe/?utm_source=x&page=2#top', 'clara') AS c"
	var outs []string
	for _, engine := range []string{"duckdb", "sqlite"} {
		out, errs, code := sqlRun("", "--engine", engine, "--format", "tsv", q)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", engine, code, errs)
		}
		outs = append(outs, out)
	}
	want := "c\n" + `{"url":"https://www.sepe.es/HomeSepe","hash":"e3cb9bbf738178a43ca01ccdeeac8808e58388522e727ad353f488aecc1d8bd5",` +
		`"link_type":"homepage","profile":"clara","version":"1.0.2","fragment":"top","removed_params":[{"key":"utm_source","value":"x","reason":"tracking","in_path":false},` +
		`{"key":"page","value":"2","reason":"pagination","in_path":false}],"pagination":{"param":"page","value":"2"},"language":null,"alternates":[],"rewrites":[]}` + "\n"
	if outs[0] != want || outs[1] != want {
		t.Errorf("duckdb:\n%s\nsqlite:\n%s\nwant:\n%s", outs[0], outs[1], want)
	}
	// in JSON output, DuckDB's STRUCT is an object, SQLite's text a string
	out, _, _ := sqlRun("", "--format", "json", q)
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("json output %q: %v", out, err)
	}
	if c, ok := rows[0]["c"].(map[string]any); !ok || c["url"] != "https://www.sepe.es/HomeSepe" {
		t.Errorf("DuckDB canonicalize_url in JSON = %#v; want an object", rows[0]["c"])
	}
}

// Values of other DuckDB types print as DuckDB writes them.
func TestSQLTypes(t *testing.T) {
	out, errs, code := sqlRun("", "--format", "json", `SELECT 1.50::DECIMAL(5,2) AS d, 0.25::DOUBLE AS f, true AS b,
		DATE '2024-01-02' AS day, TIMESTAMP '2024-01-02 03:04:05' AS ts, 12345678901234567890::HUGEINT AS h,
		'6ba7b810-9dad-11d1-80b4-00c04fd430c8'::UUID AS u, {'z': 1, 'a': [1, 2]} AS s, 'x'::BLOB AS bl`)
	want := `[
{"d":1.5,"f":0.25,"b":true,"day":"2024-01-02","ts":"2024-01-02 03:04:05","h":12345678901234567890,"u":"6ba7b810-9dad-11d1-80b4-00c04fd430c8","s":{"z":1,"a":[1,2]},"bl":"x"}
]
`
	if code != exitOK || out != want {
		t.Errorf("exit %d, stderr %q\ngot:\n%s\nwant:\n%s", code, errs, out, want)
	}
}

// Several statements: the last one's rows are printed; a --db file keeps
// tables between runs, in both engines.
func TestSQLDatabaseFile(t *testing.T) {
	for _, engine := range []string{"duckdb", "sqlite"} {
		db := filepath.Join(t.TempDir(), "urls."+engine)
		_, errs, code := sqlRun("", "--engine", engine, "--db", db,
			"CREATE TABLE t(u VARCHAR); INSERT INTO t VALUES ('HTTP://A.example/x/'), ('http://a.example/x'), ('x');")
		if code != exitOK {
			t.Fatalf("%s: create: exit %d: %s", engine, code, errs)
		}
		out, errs, code := sqlRun("", "--engine", engine, "--db", db, "--format", "csv",
			"SELECT try_normalize_url(u) AS n, count(*) AS c FROM t GROUP BY n ORDER BY n NULLS FIRST")
		if want := "n,c\n,1\nhttp://a.example/x,2\n"; code != exitOK || out != want {
			t.Errorf("%s: exit %d, stderr %q, got %q; want %q", engine, code, errs, out, want)
		}
	}
}

func TestSQLStdinAndFlagOrder(t *testing.T) {
	for _, args := range [][]string{
		{"-"},
		{},
		{"--format", "csv", "-"},
		{"-", "--format", "csv"},
	} {
		out, errs, code := sqlRun("SELECT url_profile_version('default') AS v", append([]string{"--format", "csv"}, args...)...)
		if code != exitOK || out != "v\n1.0.0\n" {
			t.Errorf("args %q: exit %d, %q, stderr %q", args, code, out, errs)
		}
	}
	out, _, code := sqlRun("", "SELECT 1 AS one", "--format", "csv")
	if code != exitOK || out != "one\n1\n" {
		t.Errorf("flags after the query: exit %d, %q", code, out)
	}
}

func TestSQLErrors(t *testing.T) {
	missingDir := filepath.Join(t.TempDir(), "missing", "x.db")
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string // in stderr
	}{
		{"no query", "", nil, exitUsage, "urlnorm sql: no query"},
		{"blank query", "  \n", []string{"-"}, exitUsage, "no query"},
		{"two queries", "", []string{"SELECT 1", "SELECT 2"}, exitUsage, "want one QUERY argument, got 2 (quote the query)"},
		{"engine", "", []string{"--engine", "postgres", "SELECT 1"}, exitUsage, `--engine must be duckdb or sqlite, not "postgres"`},
		{"format", "", []string{"--format", "xml", "SELECT 1"}, exitUsage, `--format must be one of table, csv, tsv, json, not "xml"`},
		{"flag", "", []string{"--nope", "SELECT 1"}, exitUsage, "unknown flag --nope\n"},
		{"syntax", "", []string{"SELEC 1"}, exitData, `urlnorm sql: Parser Error: syntax error at or near "SELEC"`},
		{"sqlite syntax", "", []string{"--engine", "sqlite", "SELEC 1"}, exitData, `urlnorm sql: near "SELEC": syntax error`},
		// a function error reads as the function's message, without the driver's noise
		{"bad url", "", []string{"SELECT normalize_url('')"}, exitData,
			"urlnorm sql: Invalid Input Error: normalize_url(''): empty_input (use try_normalize_url to get NULL instead)\n"},
		{"bad url sqlite", "", []string{"--engine", "sqlite", "SELECT normalize_url('')"}, exitData,
			"urlnorm sql: normalize_url(''): empty_input (use try_normalize_url to get NULL instead)\n"},
		{"bad row", "", []string{"SELECT normalize_url(u) FROM (VALUES ('http://a.example/'), ('x')) t(u)"}, exitData, "normalize_url('x'): missing_scheme"},
		{"unknown profile", "", []string{"SELECT normalize_url('http://a.example/', 'bogus')"}, exitData, "unknown_profile: known profiles:"},
		{"db dir", "", []string{"--db", missingDir, "SELECT 1"}, exitIO, "urlnorm sql: opening duckdb database"},
		{"sqlite db dir", "", []string{"--engine", "sqlite", "--db", missingDir, "SELECT 1"}, exitIO, "urlnorm sql: opening sqlite database"},
	} {
		out, errs, code := sqlRun(tc.stdin, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) || strings.Contains(errs, "database/sql/driver: API error") {
			t.Errorf("%s: exit %d (want %d), stderr %q (want %q), stdout %q", tc.name, code, tc.code, errs, tc.want, out)
		}
		if tc.code != exitOK && tc.code != exitData && out != "" {
			t.Errorf("%s: printed %q on a usage or I/O error", tc.name, out)
		}
	}
}

// A failed query prints no table: no half result that looks complete.
func TestSQLNoPartialTable(t *testing.T) {
	out, _, code := sqlRun("", "SELECT normalize_url(u) AS n FROM (SELECT 'http://a.example/' AS u UNION ALL SELECT 'x') t")
	if code != exitData || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
}

func TestSQLHelp(t *testing.T) {
	for _, args := range [][]string{{"sql", "--help"}, {"sql", "-h"}, {"help", "sql"}} {
		var out, errb bytes.Buffer
		code := run(args, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
		if code != exitOK || !strings.Contains(out.String(), "Usage: urlnorm sql [--engine duckdb|sqlite]") ||
			!strings.Contains(out.String(), "Examples:") || !strings.Contains(out.String(), "Exit status:") {
			t.Errorf("%q: exit %d, stdout %q", args, code, out.String())
		}
	}
	var out bytes.Buffer
	run([]string{"help"}, &env{stdout: &out, stderr: &out})
	if !strings.Contains(out.String(), "sql ") {
		t.Errorf("urlnorm help does not list sql:\n%s", out.String())
	}
}

// sqlBinary is the urlnorm binary, built once for the package's tests by
// TestMain (cli_test.go).
func sqlBinary() (string, error) { return bin, nil }

// The built binary: exit codes reach the shell, output goes to stdout,
// errors to stderr.
func TestSQLBinary(t *testing.T) {
	bin, err := sqlBinary()
	if err != nil {
		t.Fatalf("go build: %v", err)
	}
	cmd := exec.Command(bin, "sql", "--format", "csv",
		"SELECT normalize_url(url) AS url, count(*) AS n FROM read_csv('../../testdata/urls/sample.csv') GROUP BY 1 ORDER BY n DESC, url LIMIT 3")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	rows, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 4 || rows[0][0] != "url" || rows[0][1] != "n" {
		t.Fatalf("output %q (%v)", out, err)
	}
	cmd = exec.Command(bin, "sql", "SELECT normalize_url('x')")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitData || len(out) != 0 ||
		!strings.Contains(stderr.String(), "normalize_url('x'): missing_scheme") {
		t.Errorf("bad input: %v, stdout %q, stderr %q", err, out, stderr.String())
	}
}

// --profile and --config in urlnorm sql (issue 13 item 2): the profile the
// other commands would use, by its name in the query; a configuration on a
// built-in as NAME-config. The binary, in its own process: loaded
// profiles are process-wide.
func TestSQLProfileFlags(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "keep.yaml")
	if err := os.WriteFile(prof, []byte("name: keep-slash\nversion: 1.1.0\nhash: sha256\npath: {trailing_slash: keep}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, engine := range []string{"duckdb", "sqlite"} {
		r := mustRun(t, exitOK, "", "sql", "--engine", engine, "--format", "csv", "--profile", prof,
			"SELECT normalize_url('HTTP://E.com/a/', 'keep-slash') AS u, url_profile_version('keep-slash') AS v")
		if r.stdout != "u,v\nhttp://e.com/a/,1.1.0\n" {
			t.Errorf("%s --profile: %q", engine, r.stdout)
		}
		r = mustRun(t, exitOK, "", "sql", "--engine", engine, "--format", "csv", "--config", "../../testdata/config/edge-gateway.yaml",
			"SELECT normalize_url('example.com/p?b=2', 'edge-gateway-config') = normalize_url('example.com/p?b=2', 'edge-gateway') AS same, "+
				"url_profile_version('edge-gateway-config') LIKE '1.0.2+config.%' AS v")
		if r.stdout != "same,v\ntrue,true\n" && r.stdout != "same,v\n1,1\n" {
			t.Errorf("%s --config: %q", engine, r.stdout)
		}
	}
	// the same --config gives the same outputs as urlnorm normalize --config
	in := "example.com/p?affiliate_id=7&b=2\n"
	want := mustRun(t, exitOK, in, "normalize", "--config", "../../testdata/config/edge-gateway.yaml").stdout
	r := mustRun(t, exitOK, "", "sql", "--format", "csv", "--config", "../../testdata/config/edge-gateway.yaml",
		"SELECT normalize_url('example.com/p?affiliate_id=7&b=2', 'edge-gateway-config') AS u")
	if r.stdout != "u\n"+want {
		t.Errorf("sql --config %q, normalize --config %q", r.stdout, want)
	}
	r = mustRun(t, exitUsage, "", "sql", "--profile", filepath.Join(dir, "nope.yaml"), "SELECT 1")
	if !strings.Contains(r.stderr, "nope.yaml") {
		t.Errorf("a missing profile file: %q", r.stderr)
	}
}
