package duckcapi

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The embedded mode compiles against the vendored duckdb.h
// (ext/duckdb/include) but links the DuckDB of duckdb-go-bindings (the
// version go.mod pins): every DuckDB function capi_impl.h calls must be
// declared the same in both headers, and the string layout it writes
// (duckdb_string_t) must be the same. A DuckDB upgrade that changes one
// fails here rather than at run time.
func TestHeaderMatchesLinkedDuckDB(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "github.com/duckdb/duckdb-go-bindings/include").Output()
	if err != nil {
		t.Fatalf("go list duckdb-go-bindings/include: %v", err)
	}
	linked := read(t, filepath.Join(strings.TrimSpace(string(out)), "duckdb.h"))
	vendored := read(t, filepath.Join("..", "..", "ext", "duckdb", "include", "duckdb.h"))
	src := read(t, "capi_impl.h")
	src = regexp.MustCompile(`(?m)//.*$`).ReplaceAllString(src, "") // comments name functions too
	called := map[string]bool{}
	for _, m := range regexp.MustCompile(`\b(duckdb_[a-z0-9_]+)\s*\(`).FindAllStringSubmatch(src, -1) {
		called[m[1]] = true
	}
	lp, vp := prototypes(linked), prototypes(vendored)
	for name := range called {
		switch {
		case lp[name] == "":
			t.Errorf("%s: not declared in the linked DuckDB's duckdb.h", name)
		case lp[name] != vp[name]:
			t.Errorf("%s differs:\nlinked:   %s\nvendored: %s", name, lp[name], vp[name])
		}
	}
	if len(called) < 40 {
		t.Fatalf("found %d DuckDB functions called in capi_impl.h; the pattern is wrong", len(called))
	}
	if a, b := stringType(linked), stringType(vendored); a == "" || a != b {
		t.Errorf("duckdb_string_t differs:\nlinked:   %s\nvendored: %s", a, b)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// prototypes maps each DUCKDB_C_API function of a duckdb.h to its
// declaration, whitespace collapsed.
func prototypes(h string) map[string]string {
	m := map[string]string{}
	re := regexp.MustCompile(`DUCKDB_C_API\s+([^;]*?)\b(duckdb_[a-z0-9_]+)\s*\(([^;]*?)\)\s*;`)
	for _, p := range re.FindAllStringSubmatch(h, -1) {
		m[p[2]] = strings.Join(strings.Fields(p[0]), " ")
	}
	return m
}

// stringType is the definition of duckdb_string_t, whitespace collapsed.
func stringType(h string) string {
	end := strings.Index(h, "} duckdb_string_t;")
	start := strings.LastIndex(h[:max(end, 0)], "typedef struct")
	if end < 0 || start < 0 {
		return ""
	}
	return strings.Join(strings.Fields(h[start:end]), " ")
}
