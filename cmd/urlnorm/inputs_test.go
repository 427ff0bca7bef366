package main

// Regression tests for issue 16's input holes, run through the built
// binary (or run() in-process where the test must act during the run).

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// dupColumnParquet writes a Parquet file whose columns 1 and 3 are both
// named "link". DuckDB renames a repeated name when it writes, so the
// file is written with three distinct names of one length and the third
// is renamed in place (Parquet has no footer checksum).
func dupColumnParquet(t *testing.T) string {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p := filepath.Join(t.TempDir(), "dup.parquet")
	_, err = db.Exec(`COPY (SELECT 'https://first.example/' AS link, 7 AS id, 'https://third.example/' AS lin2) TO '` + p + `' (FORMAT parquet)`)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(data, []byte("lin2")) == 0 {
		t.Fatal("column name not found in the Parquet footer")
	}
	if err := os.WriteFile(p, bytes.ReplaceAll(data, []byte("lin2"), []byte("link")), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDuplicateColumn (issue 16 item 8): --column NAME with two columns
// of exactly that name is a usage error listing both, in every table
// format, before any output; the number still picks one.
func TestDuplicateColumn(t *testing.T) {
	csvFile := tempFile(t, "dup.csv", "link,id,link\nhttps://first.example/,7,https://third.example/\n")
	tsvFile := tempFile(t, "dup.tsv", "link\tid\tlink\nhttps://first.example/\t7\thttps://third.example/\n")
	pq := dupColumnParquet(t)
	for _, f := range []string{csvFile, tsvFile, pq} {
		r := mustRun(t, exitUsage, "", "normalize", "--column", "link", f)
		if want := `--column "link" names columns 1 ("link") and 3 ("link")`; r.stdout != "" || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: stdout %q, stderr %q; want %q", filepath.Base(f), r.stdout, r.stderr, want)
		}
		if r := mustRun(t, 0, "", "normalize", "--column", "3", f); r.stdout != "https://third.example\n" {
			t.Errorf("%s --column 3: %q", filepath.Base(f), r.stdout)
		}
	}
}

// truncatingWriter cuts a file to nothing at the first write of the
// output: the run has started reading it and is far from its end.
type truncatingWriter struct {
	bytes.Buffer
	path string
	done bool
}

func (w *truncatingWriter) Write(p []byte) (int, error) {
	if !w.done {
		w.done = true
		if err := os.Truncate(w.path, 0); err != nil {
			return 0, err
		}
	}
	return w.Buffer.Write(p)
}

// TestTruncatedWhileRead (issue 16 item 7): a file that shrinks while it
// is read is an I/O error (exit 3, with or without --strict) that names
// the file and the bytes read of the size it had; the rows read before
// are written.
func TestTruncatedWhileRead(t *testing.T) {
	const line = "https://example.com/some/path/page.html?b=2&a=1\n"
	const lines = 400000 // 19 MB: the run is never near the end at its first write
	p := tempFile(t, "big.txt", strings.Repeat(line, lines))
	for _, strict := range []bool{false, true} {
		if err := os.WriteFile(p, []byte(strings.Repeat(line, lines)), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"normalize", "--no-progress", p}
		if strict {
			args = append(args, "--strict")
		}
		out := &truncatingWriter{path: p}
		var errb bytes.Buffer
		code := run(args, &env{stdin: strings.NewReader(""), stdout: out, stderr: &errb})
		rows := strings.Count(out.String(), "\n")
		if code != exitIO || rows == 0 || rows >= lines {
			t.Errorf("strict %v: exit %d after %d of %d rows, want exit %d and some rows", strict, code, rows, lines, exitIO)
		}
		// stderr names the file, the line cut and the bytes read; the
		// rows written are the whole lines before it
		m := regexp.MustCompile(`big\.txt: line (\d+): the input ended early: (\d+) of its (\d+) bytes were read`).FindStringSubmatch(errb.String())
		if m == nil || m[1] != strconv.Itoa(rows+1) || m[3] != strconv.Itoa(lines*len(line)) {
			t.Errorf("strict %v: stderr %q after %d rows", strict, errb.String(), rows)
		} else if read, _ := strconv.Atoi(m[2]); read/len(line) != rows {
			t.Errorf("strict %v: %d rows written, %d whole lines read", strict, rows, read/len(line))
		}
	}
}

// TestResolveLongLine (issue 16 item 5): a line over 1 MiB used to stop
// resolve ("bufio.Scanner: token too long", exit 3, every later URL
// dropped). Now it is one failed input, too_long, named by file and line
// on stderr, and the URLs after it are resolved; from a file and stdin.
func TestResolveLongLine(t *testing.T) {
	s := govServer(t)
	dir := t.TempDir()
	long := "https://boe.es/" + strings.Repeat("x", 2<<20)
	content := "https://www.boe.es/\n" + long + "\n# a comment\n\nhttps://sepe.es/x\n"
	links := filepath.Join(dir, "links.txt")
	writeFile(t, links, content)
	args := append([]string{"resolve"}, netArgs(t, s, dir)...)
	for _, c := range []struct {
		args  []string
		stdin string
		pos   string
	}{
		{[]string{links}, "", "links.txt:2"},
		{[]string{"-"}, content, "stdin:2"},
	} {
		code, out, errOut := runNet(append(append([]string{}, args...), c.args...), c.stdin)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code != exitOK || len(lines) != 3 {
			t.Fatalf("%s: exit %d, %d lines; stderr %.500q", c.pos, code, len(lines), errOut)
		}
		var recs [3]resolveRecord
		for i, l := range lines {
			if err := json.Unmarshal([]byte(l), &recs[i]); err != nil {
				t.Fatalf("%s: line %d: %v", c.pos, i+1, err)
			}
		}
		if recs[0].URL != "https://www.boe.es" || recs[2].URL != "https://sepe.es/x" && recs[2].URL != "https://www.sepe.es/x" {
			t.Errorf("%s: the URLs around the long line: %q, %q", c.pos, recs[0].URL, recs[2].URL)
		}
		if r := recs[1]; r.Kind != "too_long" || r.Class != "input" || r.URL != "" || len(r.Original) != 1<<20 || !strings.Contains(r.Error, c.pos+": too_long (longer than 1048576 bytes): \"https://boe.es/xxx") {
			t.Errorf("%s: the long line: kind %q class %q url %q, %d bytes of original, error %.100q", c.pos, r.Kind, r.Class, r.URL, len(r.Original), r.Error)
		}
		if !strings.Contains(errOut, c.pos+": too_long (longer than 1048576 bytes): \"https://boe.es/xxx") || !strings.Contains(errOut, "3 URLs: 2 resolved, 0 flagged, 1 failed") || len(errOut) > 4000 {
			t.Errorf("%s: stderr %.1000q", c.pos, errOut)
		}
		if n := len(s.Requests("boe.es")); n != 0 {
			t.Errorf("%s: the long line was requested (%d requests to boe.es)", c.pos, n)
		}
	}
	if code, _, _ := runNet(append(append([]string{}, args...), "--strict", links), ""); code != exitData {
		t.Errorf("--strict: exit %d, want %d", code, exitData)
	}
}

// TestLearnHostsQuotes (issue 16 item 6): learn-hosts never writes raw
// input to stderr: a 70 KB line, terminal escapes and invalid UTF-8 are
// quoted and cut, as the file commands do.
func TestLearnHostsQuotes(t *testing.T) {
	s := govServer(t)
	dir := t.TempDir()
	domains := filepath.Join(dir, "domains.txt")
	writeFile(t, domains, "boe.es\n"+
		strings.Repeat("b", 70<<10)+".es\n"+ // a 70 KB name
		"evil\x1b[2J\x1b]0;pwned\x07.es\n"+ // clears the screen, sets the title
		"bad\xff\xfe.es\n"+ // invalid UTF-8
		"sepe.es\n")
	args := append([]string{"learn-hosts"}, netArgs(t, s, dir)...)
	code, out, errOut := runNet(append(args, domains), "")
	if code != exitOK || !strings.Contains(out, `"boe.es": "www.boe.es"`) || !strings.Contains(out, `"sepe.es": "sepe.es"`) {
		t.Fatalf("exit %d, host map %q, stderr %.2000q", code, out, errOut)
	}
	if strings.ContainsAny(errOut, "\x1b\x07") || !utf8.ValidString(errOut) {
		t.Errorf("stderr carries raw input: %.3000q", errOut)
	}
	for _, l := range strings.Split(errOut, "\n") {
		if len(l) > 1200 {
			t.Errorf("stderr line of %d bytes: %.200q…", len(l), l)
		}
	}
	for _, want := range []string{"domains.txt:2: ", `"…(71683 bytes)`, "domains.txt:3: ", `evil\x1b[2J\x1b]0;pwned\a.es`,
		"domains.txt:4: ", `bad\xff\xfe.es`, "5 domains: 2 in the host map, 3 failed"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%.3000s", want, errOut)
		}
	}
}

// TestLearnHostsLongLine (issue 16 item 5): a line over 1 MiB used to
// stop learn-hosts with "bufio.Scanner: token too long" and no host map.
// It is one failed domain, named by file and line; the others are learned.
func TestLearnHostsLongLine(t *testing.T) {
	s := govServer(t)
	dir := t.TempDir()
	domains := filepath.Join(dir, "domains.txt")
	writeFile(t, domains, "boe.es\n"+strings.Repeat("a", 2<<20)+"\nsepe.es\n")
	args := append([]string{"learn-hosts"}, netArgs(t, s, dir)...)
	code, out, errOut := runNet(append(args, domains), "")
	if code != exitOK || !strings.Contains(out, `"boe.es": "www.boe.es"`) || !strings.Contains(out, `"sepe.es": "sepe.es"`) ||
		!strings.Contains(errOut, "domains.txt:2: too_long (longer than 1048576 bytes)") || !strings.Contains(errOut, "3 domains: 2 in the host map, 1 failed") || len(errOut) > 2000 {
		t.Errorf("exit %d, host map %q, stderr %.2000q", code, out, errOut)
	}
	if code, _, _ := runNet(append(args, "--strict", domains), ""); code != exitData {
		t.Errorf("--strict: exit %d, want %d", code, exitData)
	}
}
