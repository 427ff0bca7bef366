package sqlbench

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Engines.
const (
	DuckDB = "duckdb"
	SQLite = "sqlite"
)

// Path is one way a user runs the functions.
type Path struct {
	Name   string `json:"name"`
	Engine string `json:"engine"`
	// Threads lists the thread counts measured (DuckDB: all cores, then 1).
	Threads []int `json:"threads"`
	// GoAllocs: the functions run in this process's Go runtime, so Go heap
	// allocations per row are measured.
	GoAllocs bool `json:"go_allocs"`
	// Detail names what was loaded (extension file, size, build time).
	Detail string `json:"detail,omitempty"`
	// Missing says why the path cannot run in this checkout ("" = it can).
	Missing string `json:"missing,omitempty"`
	// Child: the engine runs in a child process (the sqlite3 shell), whose
	// CPU time the load figures count as "other processes".
	Child bool `json:"child,omitempty"`
	open  func(context.Context, *Data) (Session, error)
}

// Paths lists every path, available or not. extDir holds the loadable
// extensions ("make extensions" writes dist/); the embedded adapters are
// compiled in.
func Paths(extDir string) []Path {
	all := []int{runtime.NumCPU(), 1}
	if all[0] == 1 {
		all = all[:1]
	}
	duckExt := filepath.Join(extDir, "urlnorm.duckdb_extension")
	sqliteExt := filepath.Join(extDir, "urlnorm.so")
	ps := []Path{
		{Name: "DuckDB embedded adapter (duckdb/)", Engine: DuckDB, Threads: all, GoAllocs: true, open: embeddedDuckDB},
		{Name: "DuckDB loadable extension in duckdb-go", Engine: DuckDB, Threads: all,
			open: func(ctx context.Context, d *Data) (Session, error) {
				return openDuckDB(ctx, "?allow_unsigned_extensions=true", d, func(ctx context.Context, c *sql.Conn) error {
					return execAll(ctx, c, []string{"LOAD " + sqlString(duckExt)})
				})
			}},
		{Name: "SQLite embedded adapter (sqlite/, mattn)", Engine: SQLite, Threads: []int{1}, GoAllocs: true, open: embeddedSQLite},
		{Name: "SQLite loadable extension in the sqlite3 shell", Engine: SQLite, Threads: []int{1}, Child: true,
			open: func(ctx context.Context, d *Data) (Session, error) {
				return openShell(ctx, "sqlite3", d.SQLiteFile(), sqliteExt)
			}},
	}
	ps[1].Detail, ps[1].Missing = extFile(duckExt)
	ps[3].Detail, ps[3].Missing = extFile(sqliteExt)
	if _, err := exec.LookPath("sqlite3"); err != nil && ps[3].Missing == "" {
		ps[3].Missing = "no sqlite3 shell on PATH (apt-get install sqlite3)"
	}
	return ps
}

// extFile describes an extension file, or says it is missing.
func extFile(path string) (detail, missing string) {
	st, err := os.Stat(path)
	if err != nil {
		return "", path + " not built (make extensions)"
	}
	return fmt.Sprintf("%s (%.1f MB, built %s)", filepath.Base(path), float64(st.Size())/1e6, st.ModTime().UTC().Format("2006-01-02 15:04 MST")), ""
}
