package ext_test

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
	"github.com/urlnorm/urlnorm/internal/slt"
)

// A host is a database program we did not write, with one of our
// extensions loaded. It is an slt.Engine: Name is the engine ("duckdb" or
// "sqlite", for skipif/onlyif) and values are rendered by slt.Render.
type host interface {
	slt.Engine
	Label() string // which host: "sqlite3-shell", "node-duckdb", …
	Close() error
}

// isDuckDB reports whether canonicalize_url is a STRUCT in h (JSON text
// in SQLite).
func isDuckDB(h host) bool { return h.Name() == "duckdb" }

var root = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}()

// built builds both extensions once per variant ("" or "urlnorm_testpanic")
// with ext/build.sh, as "make extensions" does.
var built sync.Map // variant → func() (string, error)

func extensions(t testing.TB, variant string) string {
	t.Helper()
	f, _ := built.LoadOrStore(variant, sync.OnceValues(func() (string, error) {
		dir, err := os.MkdirTemp("", "urlnorm-ext-"+variant)
		if err != nil {
			return "", err
		}
		cmd := exec.Command(filepath.Join(root, "ext", "build.sh"), dir, variant)
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("ext/build.sh %s: %v\n%s", variant, err, out)
		}
		return dir, nil
	}))
	dir, err := f.(func() (string, error))()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// hosts opens every host with the extensions of variant loaded.
func hosts(t *testing.T, variant string) []host {
	dir := extensions(t, variant)
	var hs []host
	for _, open := range []func(*testing.T, string) (host, error){openShell, openPython, openDuckDBGo, openNode} {
		h, err := open(t, dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := h.Close(); err != nil {
				t.Errorf("%s: closing: %v", h.Label(), err)
			}
		})
		hs = append(hs, h)
	}
	return hs
}

// --- the Debian sqlite3 shell -------------------------------------------

// shell runs each statement in a fresh "sqlite3" process on one database
// file, loading the extension with .load as a user would; a crash of the
// process is reported as such, not as an SQL error.
type shell struct {
	db, so string
}

func openShell(t *testing.T, dir string) (host, error) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		return nil, fmt.Errorf("the sqlite3 shell is missing (scripts/deps.sh installs it): %v", err)
	}
	return &shell{db: filepath.Join(t.TempDir(), "shell.db"), so: filepath.Join(dir, "urlnorm")}, nil
}

func (s *shell) Name() string  { return "sqlite" }
func (s *shell) Label() string { return "sqlite3-shell" }
func (s *shell) Close() error  { return nil }

func (s *shell) Exec(q string) error {
	_, err := s.Query(q)
	return err
}

func (s *shell) Query(q string) ([][]string, error) {
	out, err := s.run(q)
	if err != nil {
		return nil, err
	}
	return parseShellJSON(out)
}

// run runs a statement with the extension loaded and the output as JSON.
func (s *shell) run(q string) ([]byte, error) {
	cmd := exec.Command("sqlite3", "-batch", "-bail", "-json", "-cmd", ".load "+s.so, s.db)
	cmd.Stdin = strings.NewReader(q)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), processError(cmd, err, stderr.String())
	}
	return stdout.Bytes(), nil
}

// script runs statements in one shell process that goes on after errors,
// like a session at the prompt.
func (s *shell) script(sql string) (stdout, stderr string, err error) {
	cmd := exec.Command("sqlite3", "-batch", "-json", "-cmd", ".load "+s.so, s.db)
	cmd.Stdin = strings.NewReader(sql)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		return o.String(), e.String(), processError(cmd, err, e.String())
	}
	return o.String(), e.String(), nil
}

// errCrash marks a host process that died instead of reporting an error.
var errCrash = errors.New("host process crashed")

// processError tells an SQL error (exit status 1 and a message) from a
// crash (a signal, or Go's exit status 2 for an unrecovered panic).
func processError(cmd *exec.Cmd, err error, stderr string) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		ws := ee.Sys().(syscall.WaitStatus)
		if ws.Signaled() || ws.ExitStatus() == 2 {
			return fmt.Errorf("%w (%v): %s", errCrash, err, stderr)
		}
		return errors.New(shellPrefix.ReplaceAllString(strings.TrimSpace(stderr), ""))
	}
	return err
}

// shellPrefix is what the sqlite3 shell puts before SQLite's message.
var shellPrefix = regexp.MustCompile(`^(?:Runtime error|Parse error|Error)(?: near line \d+)?: (?:stepping, |in prepare, )?`)

// parseShellJSON reads the shell's -json output: one array of objects per
// statement. It walks the tokens so that duplicate column names survive.
func parseShellJSON(out []byte) ([][]string, error) {
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	var rows [][]string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("sqlite3 -json output: %v in %q", err, out)
		}
		switch tok {
		case json.Delim('{'):
			rows = append(rows, nil)
			for dec.More() {
				if _, err := dec.Token(); err != nil { // the column name
					return nil, err
				}
				var v any
				if err := dec.Decode(&v); err != nil {
					return nil, err
				}
				rows[len(rows)-1] = append(rows[len(rows)-1], slt.Render(v))
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
		}
	}
}

// --- line-protocol hosts: Python's sqlite3, Node's @duckdb/node-api -----

// piped is a host process that answers one JSON request per line.
type piped struct {
	engine string
	label  string
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
}

type response struct {
	Ready any      `json:"ready"`
	Rows  [][]cell `json:"rows"`
	Error *string  `json:"error"`
}

// cell is a value from a piped host: null, a string (scalars, already
// text) or {"json": value} for a STRUCT or LIST, which slt.Render renders
// like any other engine's.
type cell struct{ v any }

func (c *cell) UnmarshalJSON(b []byte) error {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if m, ok := v.(map[string]any); ok {
		v = m["json"]
	}
	c.v = v
	return nil
}

func startPiped(engine, label string, cmd *exec.Cmd) (*piped, error) {
	p := &piped{engine: engine, label: label, cmd: cmd}
	var err error
	if p.in, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p.out = bufio.NewReaderSize(stdout, 1<<20)
	cmd.Stderr = &p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %v", label, err)
	}
	r, err := p.read()
	if err != nil {
		return nil, err
	}
	if r.Error != nil {
		return nil, fmt.Errorf("%s: %s", label, *r.Error)
	}
	return p, nil
}

func (p *piped) read() (response, error) {
	var r response
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		werr := p.cmd.Wait()
		return r, fmt.Errorf("%s: %w (%v, %v): %s", p.label, errCrash, err, werr, p.stderr.String())
	}
	if err := json.Unmarshal(line, &r); err != nil {
		return r, fmt.Errorf("%s: bad response %q: %v", p.label, line, err)
	}
	return r, nil
}

func (p *piped) Name() string  { return p.engine }
func (p *piped) Label() string { return p.label }

func (p *piped) Exec(q string) error {
	_, err := p.Query(q)
	return err
}

func (p *piped) Query(q string) ([][]string, error) {
	req, _ := json.Marshal(map[string]string{"sql": q})
	if _, err := p.in.Write(append(req, '\n')); err != nil {
		return nil, fmt.Errorf("%s: %w: %v: %s", p.label, errCrash, err, p.stderr.String())
	}
	r, err := p.read()
	if err != nil {
		return nil, err
	}
	if r.Error != nil {
		return nil, errors.New(*r.Error)
	}
	rows := make([][]string, len(r.Rows))
	for i, row := range r.Rows {
		rows[i] = make([]string, len(row))
		for j, c := range row {
			rows[i][j] = slt.Render(c.v)
		}
	}
	return rows, nil
}

// Close ends the process and reports whether it exited cleanly.
func (p *piped) Close() error {
	p.in.Close()
	if err := p.cmd.Wait(); err != nil {
		return fmt.Errorf("%v: %s", err, p.stderr.String())
	}
	return nil
}

// maxRSS is the process's peak resident set in KiB, once it has exited.
func (p *piped) maxRSS() int64 {
	if ru, ok := p.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return -1
}

// debianPython is the interpreter with SQLite extension loading; pyenv's
// python (first on PATH here) was built without it.
const debianPython = "/usr/bin/python3"

func openPython(t *testing.T, dir string) (host, error) {
	db := filepath.Join(t.TempDir(), "python.db")
	return startPython(dir, db)
}

func startPython(dir, db string) (*piped, error) {
	cmd := exec.Command(debianPython, filepath.Join(root, "ext", "testdata", "sqlite_host.py"), db, filepath.Join(dir, "urlnorm"))
	return startPiped("sqlite", "python-sqlite3", cmd)
}

func nodeModules() string { return filepath.Join(root, "build", "ext", "node", "node_modules") }

func openNode(t *testing.T, dir string) (host, error) {
	p, err := startNode()
	if err != nil {
		return nil, err
	}
	return p, loadDuckDB(p, dir)
}

func startNode() (*piped, error) {
	if _, err := os.Stat(filepath.Join(nodeModules(), "@duckdb", "node-api")); err != nil {
		return nil, fmt.Errorf("@duckdb/node-api is missing (run ext/fetch.sh node; scripts/deps.sh does): %v", err)
	}
	script := filepath.Join(root, "ext", "testdata", "duckdb_host.mjs")
	return startPiped("duckdb", "node-duckdb", exec.Command("node", script, nodeModules()))
}

func loadDuckDB(h host, dir string) error {
	ext := filepath.Join(dir, "urlnorm.duckdb_extension")
	if err := h.Exec("LOAD '" + ext + "'"); err != nil {
		return fmt.Errorf("%s: LOAD: %v", h.Label(), err)
	}
	return nil
}

// --- duckdb-go, in this process ------------------------------------------

// duckGo is DuckDB embedded through duckdb-go (a second Go runtime joins
// this one when the extension loads), run as slt.DB does for the embedded
// adapter. One connection, so session state such as temporary tables
// behaves as in a shell.
type duckGo struct{ slt.DB }

func openDuckDBGo(t *testing.T, dir string) (host, error) {
	h, err := startDuckDBGo()
	if err != nil {
		return nil, err
	}
	return h, loadDuckDB(h, dir)
}

func startDuckDBGo() (*duckGo, error) {
	db, err := sql.Open("duckdb", "?allow_unsigned_extensions=true")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return &duckGo{slt.DB{Engine: "duckdb", DB: db}}, nil
}

func (d *duckGo) Label() string { return "duckdb-go" }
func (d *duckGo) Close() error  { return d.DB.DB.Close() }
