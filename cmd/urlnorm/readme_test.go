package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the command outputs in README.md")

// TestReadme runs every "$ command" of README.md's console blocks from the
// repository root and checks that the lines after it are what it prints
// ("urlnorm" and "go run ./cmd/urlnorm" run the binary built from this
// checkout). "make test" is not run here (it runs this test); it must be
// what .ci/run runs. Every go block must be the body of an Example test,
// so it compiles and its output is checked. With -update-readme the
// outputs are rewritten instead.
func TestReadme(t *testing.T) {
	root := filepath.Join("..", "..")
	path := filepath.Join(root, "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := consoleDoc{name: "README.md", dir: root, update: *updateReadme,
		hint: "go test ./cmd/urlnorm -run TestReadme -update-readme",
		skip: func(t *testing.T, line int, cmdline string) bool {
			if cmdline != "make test" {
				return false
			}
			ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
			if err != nil || !bytes.Contains(ci, []byte("\nmake test\n")) {
				t.Errorf("README.md:%d: the README's test command %q is not what .ci/run runs (%v)", line, cmdline, err)
			}
			return true
		}}
	lines, commands := d.check(t, strings.Split(string(data), "\n"))
	if commands < 10 {
		t.Errorf("README.md: only %d commands checked", commands)
	}
	// every go block must be in an Example test
	for i := 0; i < len(lines); i++ {
		if lines[i] == "```go" {
			i = readmeGo(t, root, lines, i+1) - 1
		}
	}
	if *updateReadme {
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readmeGo checks that the go block starting at lines[i] is in an Example
// test of the repository, and returns the index after it.
func readmeGo(t *testing.T, root string, lines []string, i int) int {
	start := i
	for i < len(lines) && lines[i] != "```" {
		i++
	}
	block := squeeze(strings.Join(lines[start:i], "\n"))
	files, _ := filepath.Glob(filepath.Join(root, "*", "example_test.go"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err == nil && strings.Contains(squeeze(string(src)), block) {
			return i + 1
		}
	}
	t.Errorf("README.md:%d: this go block is not in any */example_test.go (so nothing checks it compiles and prints what it says)", start)
	return i + 1
}

// squeeze removes the indentation of every line, so a README block matches
// an Example's indented body.
func squeeze(s string) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSpace(l)
	}
	return strings.Join(ls, "\n")
}
