package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
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
	bin, err := sqlBinary()
	if err != nil {
		t.Fatalf("go build: %v", err)
	}
	lines := strings.Split(string(data), "\n")
	var out []string
	commands := 0
	for i := 0; i < len(lines); {
		out = append(out, lines[i])
		switch lines[i] {
		case "```console":
			i = readmeConsole(t, root, bin, lines, i+1, &out, &commands)
		case "```go":
			i = readmeGo(t, root, lines, i+1, &out)
		default:
			i++
		}
	}
	if commands < 10 {
		t.Errorf("README.md: only %d commands checked", commands)
	}
	if *updateReadme {
		if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readmeConsole checks the console block starting at lines[i] and returns
// the index after it.
func readmeConsole(t *testing.T, root, bin string, lines []string, i int, out *[]string, commands *int) int {
	for i < len(lines) && lines[i] != "```" {
		cmdline, ok := strings.CutPrefix(lines[i], "$ ")
		if !ok {
			t.Fatalf("README.md:%d: want a \"$ command\" line, got %q", i+1, lines[i])
		}
		j := i + 1
		for j < len(lines) && lines[j] != "```" && !strings.HasPrefix(lines[j], "$ ") {
			j++
		}
		*out = append(*out, lines[i])
		if cmdline == "make test" {
			ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
			if err != nil || !bytes.Contains(ci, []byte("\nmake test\n")) {
				t.Errorf("README.md:%d: the README's test command %q is not what .ci/run runs (%v)", i+1, cmdline, err)
			}
			*out = append(*out, lines[i+1:j]...)
			i = j
			continue
		}
		want := strings.Join(lines[i+1:j], "\n")
		got := readmeShell(t, root, bin, cmdline)
		*commands++
		if got != want && !*updateReadme {
			t.Errorf("README.md:%d: $ %s\n--- got\n%s\n--- README says\n%s\n(if the change is right: go test ./cmd/urlnorm -run TestReadme -update-readme)", i+1, cmdline, got, want)
		}
		if got != "" {
			*out = append(*out, strings.Split(got, "\n")...)
		}
		i = j
	}
	if i < len(lines) {
		*out = append(*out, lines[i])
	}
	return i + 1
}

// readmeShell runs cmdline with sh in root, urlnorm on the PATH.
func readmeShell(t *testing.T, root, bin, cmdline string) string {
	t.Helper()
	cmdline = strings.ReplaceAll(cmdline, "go run ./cmd/urlnorm ", "urlnorm ")
	cmd := exec.Command("sh", "-c", cmdline)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stdout
	if err := cmd.Run(); err != nil {
		t.Errorf("$ %s: %v\n%s", cmdline, err, stdout.String())
	}
	return strings.TrimSuffix(stdout.String(), "\n")
}

// readmeGo checks that the go block starting at lines[i] is in an Example
// test of the repository, and returns the index after it.
func readmeGo(t *testing.T, root string, lines []string, i int, out *[]string) int {
	start := i
	for i < len(lines) && lines[i] != "```" {
		i++
	}
	*out = append(*out, lines[start:min(i+1, len(lines))]...)
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
