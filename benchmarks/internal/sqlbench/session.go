package sqlbench

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/urlnorm/urlnorm/benchmarks/internal/machine"
)

// Timing is one query's result and cost.
type Timing struct {
	Count     int64
	Wall, CPU time.Duration
	// Mallocs is the Go heap objects allocated in this process during the
	// query; meaningful only when the functions run in this Go runtime.
	Mallocs uint64
}

// Session is one engine instance holding the benchmark tables.
type Session interface {
	SetThreads(ctx context.Context, n int) error
	Count(ctx context.Context, query string) (Timing, error)
	Version(ctx context.Context) (string, error) // the engine's version
	Close() error
}

// dbSession runs queries through database/sql on one connection, in this
// process: CPU time is the process's (all engine threads), and Go
// allocations are counted.
type dbSession struct {
	db      *sql.DB
	conn    *sql.Conn
	threads string // SET statement with %d, "" when the engine has one thread
	version string // query returning the engine version
}

func (s *dbSession) Version(ctx context.Context) (string, error) {
	var v string
	err := s.conn.QueryRowContext(ctx, s.version).Scan(&v)
	return v, err
}

func (s *dbSession) SetThreads(ctx context.Context, n int) error {
	if s.threads == "" {
		if n != 1 {
			return fmt.Errorf("sqlbench: this engine runs a query on one thread")
		}
		return nil
	}
	_, err := s.conn.ExecContext(ctx, fmt.Sprintf(s.threads, n))
	return err
}

func (s *dbSession) Count(ctx context.Context, query string) (Timing, error) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	c0 := machine.CPUTime()
	t0 := time.Now()
	var t Timing
	err := s.conn.QueryRowContext(ctx, query).Scan(&t.Count)
	t.Wall = time.Since(t0)
	t.CPU = machine.CPUTime() - c0
	runtime.ReadMemStats(&m1)
	t.Mallocs = m1.Mallocs - m0.Mallocs
	if err != nil {
		return t, fmt.Errorf("%s: %w", query, err)
	}
	return t, nil
}

func (s *dbSession) Close() error {
	s.conn.Close()
	return s.db.Close()
}

// connect gives s db and one connection of it (all statements of a
// session must run on one connection: SET threads, LOAD, temp tables).
func connect(ctx context.Context, db *sql.DB, s *dbSession) (*dbSession, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	s.db, s.conn = db, conn
	return s, nil
}

// openDuckDB opens an in-memory DuckDB with dsn (e.g. config parameters),
// runs prepare on its connection (load or register the functions), and
// copies the tables from the data file into memory so that every path
// scans the same in-memory data.
func openDuckDB(ctx context.Context, dsn string, d *Data, prepare func(context.Context, *sql.Conn) error) (Session, error) {
	db, err := sql.Open("duckdb", dsn)
	if err != nil {
		return nil, err
	}
	s, err := connect(ctx, db, &dbSession{threads: "SET threads = %d", version: "SELECT 'DuckDB ' || version()"})
	if err != nil {
		return nil, err
	}
	stmts := []string{"ATTACH " + sqlString(d.DuckDBFile()) + " AS data (READ_ONLY)"}
	for _, n := range d.Sizes {
		stmts = append(stmts, "CREATE TABLE "+Table(n)+" AS FROM data."+Table(n))
	}
	stmts = append(stmts, "DETACH data")
	err = execAll(ctx, s.conn, stmts)
	if err == nil && prepare != nil {
		err = prepare(ctx, s.conn)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func execAll(ctx context.Context, conn *sql.Conn, stmts []string) error {
	for _, q := range stmts {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}

// shellSession drives an interactive sqlite3 shell over pipes, as a user
// at a terminal would: .load the extension once, .timer on, then one
// query at a time; the shell's own "Run Time: real … user … sys …" line
// is the timing.
type shellSession struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer
}

// openShell starts shell on dbFile (read-only) and loads ext unless it
// is "".
func openShell(ctx context.Context, shell, dbFile, ext string) (Session, error) {
	cmd := exec.CommandContext(ctx, shell, "-batch", "-bail", "-readonly", dbFile)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s := &shellSession{cmd: cmd, in: in, out: bufio.NewReader(out), stderr: &bytes.Buffer{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	load := ""
	if ext != "" {
		load = ".load " + ext + "\n"
	}
	if _, err := io.WriteString(in, load+".timer on\n"); err != nil {
		s.Close()
		return nil, err
	}
	if _, err := s.Version(ctx); err != nil { // the .load went through
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *shellSession) SetThreads(_ context.Context, n int) error {
	if n != 1 {
		return fmt.Errorf("sqlbench: sqlite3 runs a query on one thread")
	}
	return nil
}

func (s *shellSession) Count(_ context.Context, query string) (Timing, error) {
	v, t, err := s.query(query)
	if err != nil {
		return t, err
	}
	if t.Count, err = strconv.ParseInt(v, 10, 64); err != nil {
		return t, fmt.Errorf("%s: result %q is not a count", query, v)
	}
	return t, nil
}

func (s *shellSession) Version(context.Context) (string, error) {
	v, _, err := s.query("SELECT 'SQLite ' || sqlite_version()")
	return v, err
}

// query sends one statement and returns its last output line before the
// shell's timer line.
func (s *shellSession) query(q string) (string, Timing, error) {
	var t Timing
	if _, err := io.WriteString(s.in, strings.TrimSuffix(q, ";")+";\n"); err != nil {
		return "", t, s.failure(q, err)
	}
	var last string
	for {
		line, err := s.out.ReadString('\n')
		if err != nil {
			return "", t, s.failure(q, err)
		}
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "Run Time: "); ok {
			return last, t, parseRunTime(rest, &t)
		}
		last = line
	}
}

// parseRunTime reads "real 0.123 user 0.110000 sys 0.010000".
func parseRunTime(s string, t *Timing) error {
	f := strings.Fields(s)
	if len(f) != 6 || f[0] != "real" || f[2] != "user" || f[4] != "sys" {
		return fmt.Errorf("sqlbench: unexpected timer line %q", s)
	}
	var v [3]float64
	for i := range v {
		var err error
		if v[i], err = strconv.ParseFloat(f[2*i+1], 64); err != nil {
			return fmt.Errorf("sqlbench: timer line %q: %w", s, err)
		}
	}
	t.Wall = time.Duration(v[0] * 1e9)
	t.CPU = time.Duration((v[1] + v[2]) * 1e9)
	return nil
}

func (s *shellSession) failure(query string, err error) error {
	s.in.Close()
	s.cmd.Wait()
	return fmt.Errorf("sqlite3 shell: %s: %v: %s", query, err, strings.TrimSpace(s.stderr.String()))
}

func (s *shellSession) Close() error {
	s.in.Close()
	return s.cmd.Wait()
}
