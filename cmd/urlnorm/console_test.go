package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// consoleDoc is a Markdown file whose ```console blocks are checked:
// every "$ command" line runs with sh, with the built urlnorm first in
// PATH, and the lines after it must be what it prints (stdout and
// stderr, as on a terminal). README.md and docs/cli.md are checked so.
type consoleDoc struct {
	name   string // the file, for messages ("README.md")
	dir    string // where the commands run
	update bool   // rewrite the outputs instead of checking them
	hint   string // how to rewrite them, for the error message
	// skip, if set, handles a command that must not run here; it
	// returns true when it did (the doc's lines are then kept).
	skip func(t *testing.T, line int, cmdline string) bool
}

// check runs the console blocks of the doc's lines and returns the lines
// with the outputs the commands printed, and how many commands ran.
func (d consoleDoc) check(t *testing.T, lines []string) (out []string, commands int) {
	for i := 0; i < len(lines); {
		out = append(out, lines[i])
		if lines[i] != "```console" {
			i++
			continue
		}
		for i++; i < len(lines) && lines[i] != "```"; {
			cmdline, ok := strings.CutPrefix(lines[i], "$ ")
			if !ok {
				t.Fatalf("%s:%d: want a \"$ command\" line, got %q", d.name, i+1, lines[i])
			}
			j := i + 1
			for j < len(lines) && lines[j] != "```" && !strings.HasPrefix(lines[j], "$ ") {
				j++
			}
			out = append(out, lines[i])
			if d.skip != nil && d.skip(t, i+1, cmdline) {
				out = append(out, lines[i+1:j]...)
				i = j
				continue
			}
			want := strings.Join(lines[i+1:j], "\n")
			got := d.shell(t, cmdline)
			commands++
			if got != want && !d.update {
				t.Errorf("%s:%d: $ %s\n--- got\n%s\n--- %s says\n%s\n(if the change is right: %s)", d.name, i+1, cmdline, got, d.name, want, d.hint)
			}
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
	return out, commands
}

// shell runs a command line and returns what it printed, without the
// final newline. A failing command is an error: a doc shows an exit status
// with `; echo "exit $?"`.
func (d consoleDoc) shell(t *testing.T, cmdline string) string {
	t.Helper()
	cmdline = strings.ReplaceAll(cmdline, "go run ./cmd/urlnorm ", "urlnorm ")
	cmd := exec.Command("sh", "-c", cmdline)
	cmd.Dir = d.dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"), "LC_ALL=C")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Errorf("%s: $ %s: %v\n%s", d.name, cmdline, err, out.String())
	}
	return strings.TrimSuffix(out.String(), "\n")
}

// checkFile checks a doc file and rewrites it when d.update is set.
func (d consoleDoc) checkFile(t *testing.T, path string, minCommands int) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, commands := d.check(t, strings.Split(string(data), "\n"))
	if commands < minCommands {
		t.Errorf("%s: only %d commands checked", d.name, commands)
	}
	if d.update {
		if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
