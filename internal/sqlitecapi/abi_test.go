package sqlitecapi

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sqlite3decl.h, the embedded build's own declarations of SQLite's API,
// agrees with the system's sqlite3.h: the C compiler reads both (a
// prototype or typedef of ours that differs from SQLite's is a compile
// error), and each constant of ours is compared with SQLite's by value.
// scripts/deps.sh installs the header (libsqlite3-dev, which the loadable
// extension's build needs too).
func TestDeclarationsMatchSQLite(t *testing.T) {
	const header = "/usr/include/sqlite3.h"
	if _, err := os.Stat(header); err != nil {
		t.Fatalf("%v: apt-get install libsqlite3-dev (scripts/deps.sh does)", err)
	}
	decl, err := os.ReadFile("sqlite3decl.h")
	if err != nil {
		t.Fatal(err)
	}
	src := checkSource(t, string(decl))
	dir := t.TempDir()
	file := filepath.Join(dir, "check.c")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	here, _ := os.Getwd()
	cc := "cc"
	if out, err := exec.Command("go", "env", "CC").Output(); err == nil && strings.TrimSpace(string(out)) != "" {
		cc = strings.TrimSpace(string(out))
	}
	cmd := exec.Command(cc, "-fsyntax-only", "-Werror", "-I", here, file)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s\nsource:\n%s", cmd, err, out, src)
	}
}

var defineRE = regexp.MustCompile(`(?m)^#define (SQLITE_[A-Z0-9_]+) `)

// checkSource is a C file that captures every SQLITE_* constant of
// sqlite3decl.h in an enum, undefines it, includes sqlite3.h and asserts
// that SQLite's value is the same. SQLITE_TRANSIENT, a pointer, stays
// defined: sqlite3.h redefining it with other tokens is an error under
// -Werror.
func checkSource(t *testing.T, decl string) string {
	var b strings.Builder
	b.WriteString("#include \"sqlite3decl.h\"\n")
	var names []string
	for _, m := range defineRE.FindAllStringSubmatch(decl, -1) {
		if m[1] != "SQLITE_TRANSIENT" {
			names = append(names, m[1])
		}
	}
	if len(names) < 10 {
		t.Fatalf("only %d constants found in sqlite3decl.h: %v", len(names), names)
	}
	for _, n := range names {
		fmt.Fprintf(&b, "enum { ours_%s = %s };\n#undef %s\n", n, n, n)
	}
	b.WriteString("#include <sqlite3.h>\n")
	for _, n := range names {
		fmt.Fprintf(&b, "_Static_assert(ours_%s == %s, \"%s differs from sqlite3.h\");\n", n, n, n)
	}
	return b.String()
}
