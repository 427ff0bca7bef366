package main

// Regression tests for issue 16's input holes, run through the built
// binary (or run() in-process where the test must act during the run).

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
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
