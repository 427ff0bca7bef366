// Package sqlbench measures the SQL functions' throughput: the query
// SELECT count(DISTINCT f(url)) over tables of 1M and 10M generated rows,
// with f = normalize_url and canonical_hash, next to lower(url) and the
// bare column in the same engine instance and run, through every path a
// user can take (embedded adapters, loadable extensions). Paths that are
// not built in this checkout are reported as missing, not skipped
// silently.
package sqlbench

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"
	"github.com/duckdb/duckdb-go/v2"
	_ "github.com/mattn/go-sqlite3" // driver "sqlite3", only to write the SQLite data file
	"github.com/urlnorm/urlnorm/benchmarks/internal/corpus"
	"github.com/urlnorm/urlnorm/udf"
)

// Data is the row set of a run, written once into a DuckDB file and a
// SQLite file under Dir (git-ignored: the rows derive from userbait.txt,
// which must never be committed) and reused while the stamp matches.
type Data struct {
	Dir   string
	Base  []string // the base URLs, accepted by every function measured
	Sizes []int    // row counts, one table each
}

// Table names the table of n rows: urls_1m, urls_10m, urls_<n>.
func Table(n int) string {
	if n%1_000_000 == 0 {
		return "urls_" + strconv.Itoa(n/1_000_000) + "m"
	}
	return "urls_" + strconv.Itoa(n)
}

// DuckDBFile and SQLiteFile are the data files.
func (d *Data) DuckDBFile() string { return filepath.Join(d.Dir, "urls.duckdb") }

// SQLiteFile is the SQLite data file.
func (d *Data) SQLiteFile() string { return filepath.Join(d.Dir, "urls.sqlite") }

// stamp identifies the generator version, the base list and the sizes.
func (d *Data) stamp() string {
	h := xxhash.New()
	for _, u := range d.Base {
		h.WriteString(u)
		h.Write([]byte{'\n'})
	}
	return fmt.Sprintf("rows v1 base=%d:%016x sizes=%v\n", len(d.Base), h.Sum64(), d.Sizes)
}

// Ensure writes the data files unless a matching stamp says they exist.
func (d *Data) Ensure(ctx context.Context, log func(string, ...any)) error {
	stampFile := filepath.Join(d.Dir, "stamp")
	if b, err := os.ReadFile(stampFile); err == nil && string(b) == d.stamp() {
		return nil
	}
	if err := os.MkdirAll(d.Dir, 0o755); err != nil {
		return err
	}
	os.Remove(stampFile)
	for _, f := range []string{d.DuckDBFile(), d.DuckDBFile() + ".wal", d.SQLiteFile()} {
		os.Remove(f)
	}
	log("writing %v rows to %s and %s", d.Sizes, d.DuckDBFile(), d.SQLiteFile())
	if err := d.writeDuckDB(ctx); err != nil {
		return fmt.Errorf("sqlbench: writing %s: %w", d.DuckDBFile(), err)
	}
	if err := d.writeSQLite(ctx); err != nil {
		return fmt.Errorf("sqlbench: writing %s: %w", d.SQLiteFile(), err)
	}
	return os.WriteFile(stampFile, []byte(d.stamp()), 0o644)
}

func (d *Data) writeDuckDB(ctx context.Context) error {
	c, err := duckdb.NewConnector(d.DuckDBFile(), nil)
	if err != nil {
		return err
	}
	defer c.Close()
	conn, err := c.Connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	rows := corpus.Rows{Base: d.Base}
	for _, n := range d.Sizes {
		if _, err := conn.(driver.ExecerContext).ExecContext(ctx, "CREATE TABLE "+Table(n)+" (url VARCHAR)", nil); err != nil {
			return err
		}
		a, err := duckdb.NewAppenderFromConn(conn, "", Table(n))
		if err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if err := a.AppendRow(rows.Row(i)); err != nil {
				a.Close()
				return err
			}
		}
		if err := a.Close(); err != nil {
			return err
		}
	}
	return nil
}

func (d *Data) writeSQLite(ctx context.Context) error {
	db, err := sql.Open("sqlite3", d.SQLiteFile()+"?_journal_mode=OFF&_synchronous=OFF")
	if err != nil {
		return err
	}
	defer db.Close()
	rows := corpus.Rows{Base: d.Base}
	for _, n := range d.Sizes {
		if err := insertRows(ctx, db, Table(n), n, rows); err != nil {
			return err
		}
	}
	_, err = db.ExecContext(ctx, "ANALYZE")
	return err
}

func insertRows(ctx context.Context, db *sql.DB, table string, n int, rows corpus.Rows) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "CREATE TABLE "+table+" (url TEXT)"); err != nil {
		return err
	}
	st, err := tx.PrepareContext(ctx, "INSERT INTO "+table+" VALUES (?)")
	if err != nil {
		return err
	}
	defer st.Close()
	for i := 0; i < n; i++ {
		if _, err := st.ExecContext(ctx, rows.Row(i)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Counts are what a correct engine returns for one expression on one
// table: distinct non-NULL values (Distinct) and the scan form's result
// (Length: total characters of a text, non-NULL results of a composite).
type Counts struct {
	Distinct, Length int64
}

// Expected holds the Counts of each expression predicted in Go, by Expr.
// lower() is not predicted (DuckDB lowercases Unicode, SQLite only
// ASCII).
type Expected map[string]Counts

// For returns the expected result of form over expr, or -1.
func (e Expected) For(form Form, expr string) int64 {
	c, ok := e[expr]
	switch {
	case !ok:
		return -1
	case form == Scan:
		return c.Length
	}
	return c.Distinct
}

// Expect computes the expected results of funcs for the first n rows:
// the bare column, and every function of udf's table (one argument) with
// udf's own row function, the code the engines run. Distinct sets hold
// 64-bit xxHashes of the values in SQLite's text form (JSON for a
// composite, which is one-to-one with DuckDB's values); a collision among
// 10M values has a probability of about 3·10⁻⁶.
func Expect(base []string, n int, funcs []Func) (Expected, error) {
	e := Expected{}
	for _, f := range funcs {
		eval, composite, ok := evaluator(f)
		if !ok {
			continue
		}
		c, err := expect(base, n, eval, composite)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Expr, err)
		}
		e[f.Expr] = c
	}
	return e, nil
}

// evaluator returns f's row function as udf runs it, and whether its
// result is composite; ok false when Go does not predict f.
func evaluator(f Func) (eval func(dst []byte, url string) ([]byte, bool, error), composite, ok bool) {
	name := f.SQLName()
	if name == "" {
		return func(dst []byte, url string) ([]byte, bool, error) { return append(dst, url...), false, nil }, false, true
	}
	for _, uf := range udf.Lookup(name) {
		if len(uf.Args) == 1 && f.Expr == name+"("+uf.Args[0].Name+")" {
			return func(dst []byte, url string) ([]byte, bool, error) {
				return uf.Text(dst, []string{url}, nil)
			}, uf.Returns.IsComposite(), true
		}
	}
	return nil, false, false
}

func expect(base []string, n int, eval func([]byte, string) ([]byte, bool, error), composite bool) (Counts, error) {
	rows := corpus.Rows{Base: base}
	seen := make(map[uint64]struct{}, n)
	var c Counts
	var buf []byte
	for i := 0; i < n; i++ {
		r := rows.Row(i)
		var null bool
		var err error
		if buf, null, err = eval(buf[:0], r); err != nil {
			return Counts{}, fmt.Errorf("row %d %q: %w", i, r, err)
		}
		if null {
			continue
		}
		seen[xxhash.Sum64(buf)] = struct{}{}
		if composite {
			c.Length++
		} else {
			c.Length += int64(utf8.RuneCount(buf)) // length() counts characters in both engines
		}
	}
	c.Distinct = int64(len(seen))
	return c, nil
}

// sqlString quotes s as a SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// GoCost measures each predicted expression's row function alone, in Go
// (udf's Text: the form SQLite gets, JSON for a composite), over the
// first n rows held in memory: CPU nanoseconds per row of this thread,
// the cost no SQL path can go below. Keyed by Expr.
func GoCost(base []string, n int, funcs []Func) map[string]float64 {
	rows := corpus.Rows{Base: base}
	urls := make([]string, n)
	for i := range urls {
		urls[i] = rows.Row(i)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cost := map[string]float64{}
	for _, f := range funcs {
		eval, _, ok := evaluator(f)
		if !ok {
			continue
		}
		var buf []byte
		best := math.Inf(1)
		for range 3 { // the best of three: the machine may be shared
			t0 := threadCPU()
			for _, u := range urls {
				buf, _, _ = eval(buf[:0], u)
			}
			best = min(best, float64(threadCPU()-t0)/float64(n))
		}
		cost[f.Expr] = best
	}
	return cost
}

// threadCPU is the calling thread's CPU time in nanoseconds.
func threadCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil { // RUSAGE_THREAD
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
