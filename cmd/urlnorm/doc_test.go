package main

import (
	"database/sql"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the command outputs in docs/cli.md")

// TestDocExamples runs every "$ command" of the console blocks of
// docs/cli.md, in order, in one scratch directory, and checks that the
// lines after it are the command's stdout. With -update-docs it rewrites
// them instead.
func TestDocExamples(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "cli.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pagesParquet(t, filepath.Join(dir, "pages.parquet"))
	lines := strings.Split(string(data), "\n")
	var out []string
	commands := 0
	for i := 0; i < len(lines); {
		l := lines[i]
		if l != "```console" {
			out = append(out, l)
			i++
			continue
		}
		out = append(out, l)
		for i++; i < len(lines) && lines[i] != "```"; {
			cmdline, ok := strings.CutPrefix(lines[i], "$ ")
			if !ok {
				t.Fatalf("docs/cli.md:%d: want a \"$ command\" line, got %q", i+1, lines[i])
			}
			j := i + 1
			for j < len(lines) && lines[j] != "```" && !strings.HasPrefix(lines[j], "$ ") {
				j++
			}
			want := strings.Join(lines[i+1:j], "\n")
			got := shell(t, dir, cmdline)
			commands++
			if got != want && !*updateDocs {
				t.Errorf("docs/cli.md:%d: $ %s\n--- got\n%s\n--- doc says\n%s\n(if the change is right: go test ./cmd/urlnorm -run TestDocExamples -update-docs)", i+1, cmdline, got, want)
			}
			out = append(out, lines[i])
			if got != "" {
				out = append(out, strings.Split(got, "\n")...)
			}
			i = j
		}
		if i < len(lines) {
			out = append(out, lines[i]) // the closing fence
		}
		i++
	}
	if commands < 20 {
		t.Errorf("only %d commands found in docs/cli.md", commands)
	}
	if *updateDocs {
		if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// shell runs a command line with the built urlnorm first in PATH and
// returns its stdout without the final newline.
func shell(t *testing.T, dir, cmdline string) string {
	t.Helper()
	cmd := exec.Command("sh", "-c", cmdline)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"), "LC_ALL=C")
	b, err := cmd.Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("$ %s: %v", cmdline, err)
	}
	return strings.TrimSuffix(string(b), "\n")
}

// pagesParquet writes the Parquet file the documentation reads.
func pagesParquet(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.Exec(`COPY (SELECT * FROM (VALUES
		('HTTPS://Example.COM/Docs/../Guide/', 200),
		(NULL, 404),
		('https://example.com/blog/2024/01/post?utm_campaign=x', 200)) t(url, status))
		TO '` + path + `' (FORMAT parquet)`)
	if err != nil {
		t.Fatal(err)
	}
}
