package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSQLTableWide (issue 17 item 7): table columns align on the
// terminal: East Asian wide and fullwidth characters take two columns,
// halfwidth katakana one, combining marks none; control characters are
// escaped, so they neither break a line nor drive the terminal.
func TestSQLTableWide(t *testing.T) {
	q := `SELECT v AS value, n FROM (VALUES (1, 'abc', 1), (2, '日本語', 22), (3, 'ｱｲｳ', 3), (4, 'Ａ１', 4),
		(5, 'e` + "\u0301" + `', 5), (6, '😀x', 6), (7, 'esc' || chr(27) || '[31m', 7)) t(i, v, n) ORDER BY i`
	want := "" + // the widest value is 11 columns
		"value         n\n" +
		"-----------  --\n" +
		"abc           1\n" +
		"日本語       22\n" + // 6 columns + 5 spaces
		"ｱｲｳ           3\n" + // halfwidth: 3 columns
		"Ａ１          4\n" + // fullwidth: 4 columns
		"e\u0301             5\n" + // 1 column
		"😀x           6\n" + // 3 columns
		`esc\x1b[31m` + "   7\n" + // 11 columns, escaped
		"(7 rows)\n"
	for _, engine := range []string{"duckdb", "sqlite"} {
		q := q
		if engine == "sqlite" {
			q = strings.ReplaceAll(strings.ReplaceAll(q, "chr(27)", "char(27)"), "FROM (VALUES", "FROM (WITH t(i, v, n) AS (VALUES")
			q = strings.Replace(q, ") t(i, v, n) ORDER BY i", ") SELECT * FROM t) ORDER BY i", 1)
		}
		out, errs, code := sqlRun("", "--engine", engine, q)
		if code != exitOK || out != want {
			t.Errorf("%s: exit %d, stderr %q\ngot:\n%s\nwant:\n%s", engine, code, errs, out, want)
		}
	}
}

// TestSQLTableStreams (issue 17 item 7): the table is sized on its first
// 1,000 rows and then streamed: a later, wider value widens its own line
// only, and memory does not grow with the rows (the whole result used to
// be held: 3.3 GB for 5.94 M rows).
func TestSQLTableStreams(t *testing.T) {
	out, errs, code := sqlRun("", `SELECT CASE WHEN i = 2000 THEN repeat('w', 30) ELSE 'v' || lpad(i::VARCHAR, 4, '0') END AS v, i + 10000 AS n
		FROM range(2500) t(i) ORDER BY i`)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != exitOK || len(lines) != 2503 || lines[2502] != "(2500 rows)" {
		t.Fatalf("exit %d, stderr %q, %d lines", code, errs, len(lines))
	}
	for i, l := range lines[:2502] {
		if want := len("v2499  12499"); i-2 != 2000 && len(l) != want {
			t.Errorf("line %d: %q is %d wide, want %d", i+1, l, len(l), want)
		}
	}
	if want := strings.Repeat("w", 30) + "  12000"; lines[2002] != want {
		t.Errorf("row 2000: %q, want %q", lines[2002], want)
	}

	// memory: the table costs what CSV costs, not the rows it prints.
	// The output goes to a file: the test process must not grow (a child's
	// peak RSS starts at its parent's, on Linux).
	const q = "SELECT 'https://example.com/some/page/' || i AS url, i FROM range(2000000) t(i)"
	rss := map[string]int64{}
	for _, f := range []string{"csv", "table"} {
		out := filepath.Join(t.TempDir(), "out."+f)
		cmd := exec.Command(bin, "sql", "--format", f, q)
		fh, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout = fh
		err = cmd.Run()
		fh.Close()
		if err != nil {
			t.Fatalf("--format %s: %v", f, err)
		}
		rss[f] = cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
		data, _ := os.ReadFile(out)
		if n := bytes.Count(data, []byte("\n")); f == "table" && (n != 2000003 || !bytes.HasSuffix(data, []byte("\n(2000000 rows)\n"))) {
			t.Errorf("table: %d lines, ends %q", n, data[max(len(data)-40, 0):])
		}
	}
	if rss["table"] > rss["csv"]*3/2+50<<10 {
		t.Errorf("peak memory: table %d MiB, csv %d MiB; the table should stream", rss["table"]>>10, rss["csv"]>>10)
	}
	t.Logf("peak memory for 2,000,000 rows: table %d MiB, csv %d MiB", rss["table"]>>10, rss["csv"]>>10)
}

// A query that fails after rows were streamed says so: the rows stay,
// the row count is missing, stderr says the output is incomplete.
func TestSQLTableFailsAfterRows(t *testing.T) {
	q := `WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 3000)
		SELECT normalize_url(CASE WHEN i = 1500 THEN 'x' ELSE 'http://a.example/' || i END) AS u FROM r`
	out, errs, code := sqlRun("", "--engine", "sqlite", q)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != exitData || len(lines) != 2+1499 || strings.Contains(out, "rows)") {
		t.Errorf("exit %d, %d lines, last %q", code, len(lines), lines[len(lines)-1])
	}
	if want := "the query failed after 1,499 rows: the output above is incomplete"; !strings.Contains(errs, "normalize_url('x'): missing_scheme") || !strings.Contains(errs, want) {
		t.Errorf("stderr %q; want %q", errs, want)
	}
}
