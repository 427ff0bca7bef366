package ext_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/slt"
	"github.com/urlnorm/urlnorm/version"
)

// TestCommunitySQL runs test/sql/*.test, the files DuckDB's
// community-extension CI runs with its own sqllogictest runner, in DuckDB
// hosts with the extension loaded: duckdb-go and @duckdb/node-api, or, when
// URLNORM_EXT_DIR names a directory holding a built
// urlnorm.duckdb_extension ("make test_release"), that file in duckdb-go
// alone (the one host a DuckDB CI machine is sure to have: Go and g++).
//
// Each file must start with "require urlnorm", which in DuckDB's runner
// loads the extension; here the host has loaded it already.
func TestCommunitySQL(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root, "test", "sql", "*.test"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test/sql/*.test files: %v", err)
	}
	opens := []func(*testing.T, string) (host, error){openDuckDBGo, openNode}
	dir := os.Getenv("URLNORM_EXT_DIR")
	if dir != "" {
		opens = opens[:1]
	} else {
		dir = extensions(t, "")
	}
	for _, file := range files {
		recs := parseRequiring(t, file, "urlnorm")
		if len(recs) < 10 {
			t.Errorf("%s: only %d records", file, len(recs))
		}
		for _, open := range opens {
			h, err := open(t, dir)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(h.Label()+"/"+filepath.Base(file), func(t *testing.T) {
				for _, f := range slt.Run(recs, h) {
					t.Error(f)
				}
			})
			if err := h.Close(); err != nil {
				t.Errorf("%s: %v", h.Label(), err)
			}
		}
	}
}

// parseRequiring parses a test file whose first statement must be
// "require <ext>"; slt has no require record, so it reads a copy with that
// line commented out (line numbers unchanged).
func parseRequiring(t *testing.T, file, ext string) []*slt.Record {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	found := false
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if l != "require "+ext {
			t.Fatalf("%s:%d: the first statement is %q, want %q (DuckDB's runner loads the extension with it)", file, i+1, l, "require "+ext)
		}
		lines[i] = "# " + l
		found = true
		break
	}
	if !found {
		t.Fatalf("%s: no statements", file)
	}
	cp := filepath.Join(t.TempDir(), filepath.Base(file))
	if err := os.WriteFile(cp, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := slt.ParseFile(cp)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestReleaseVersion checks that everything that states the release
// version states version.Version: the script the build reads it with
// (the DuckDB footer, the tarball names), description.yml (DuckDB's
// community repository) and CHANGELOG.md.
func TestReleaseVersion(t *testing.T) {
	out, err := exec.Command(filepath.Join(root, "scripts", "version.sh")).Output()
	if err != nil {
		t.Fatalf("scripts/version.sh: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != version.Version {
		t.Errorf("scripts/version.sh prints %q, version.Version is %q", got, version.Version)
	}
	desc, err := os.ReadFile(filepath.Join(root, "description.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(desc), "\n  version: "+version.Version+"\n") {
		t.Errorf("description.yml: no line %q", "  version: "+version.Version)
	}
	changelog, err := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(changelog), "\n## "+version.Version+"\n") {
		t.Errorf("CHANGELOG.md: no section %q", "## "+version.Version)
	}
}
