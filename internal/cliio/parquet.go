package cliio

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// Parquet files are read by an embedded DuckDB. database/sql results from
// duckdb-go are materialized in memory, so instead of fetching rows the
// reader runs
//
//	SELECT count(urlnorm_cli_sink(col)) FROM read_parquet('file')
//
// on one DuckDB thread: DuckDB streams the file through the sink function
// in row order, and the sink hands the values to the pipeline in batches,
// blocking while the pipeline is busy. Memory stays at DuckDB's scan
// buffers plus one batch, whatever the file size.
type parquetDB struct {
	db   *sql.DB
	conn *sql.Conn
	sink *parquetSink // the scan in progress
}

const sinkName = "urlnorm_cli_sink"

var errStopped = errors.New("reading stopped")

func openParquetDB() (*parquetDB, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, fmt.Errorf("starting DuckDB for Parquet: %w", err)
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err == nil {
		// One thread keeps the rows in file order.
		_, err = conn.ExecContext(ctx, "SET threads = 1")
	}
	p := &parquetDB{db: db, conn: conn}
	if err == nil {
		err = duckdb.RegisterScalarUDF(conn, sinkName, sinkFunc{p})
	}
	if err != nil {
		p.close()
		return nil, fmt.Errorf("starting DuckDB for Parquet: %w", err)
	}
	return p, nil
}

func (p *parquetDB) close() error {
	if p.conn != nil {
		p.conn.Close()
	}
	return p.db.Close()
}

// columns returns the top-level columns of a Parquet file, and checks it
// is one: names as the file spells them, the names DuckDB gives them in
// SQL (it renames a repeated name "a" to "a_1"), and their types.
func (p *parquetDB) columns(path string) (names, sqlNames, types []string, err error) {
	rows, err := p.conn.QueryContext(context.Background(),
		"SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet("+sqlString(path)+"))")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: cannot read it as Parquet: %v", path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var n, t string
		if err := rows.Scan(&n, &t); err != nil {
			return nil, nil, nil, err
		}
		sqlNames, types = append(sqlNames, n), append(types, t)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, nil, err
	}
	names, err = p.fileNames(path)
	if err != nil || len(names) != len(sqlNames) {
		names = sqlNames // not a layout we know: DuckDB's names
	}
	return names, sqlNames, types, nil
}

// fileNames reads the top-level column names from the file's schema: its
// elements in depth-first order, the root first, each group followed by
// its num_children children.
func (p *parquetDB) fileNames(path string) ([]string, error) {
	rows, err := p.conn.QueryContext(context.Background(),
		"SELECT name, coalesce(num_children, 0) FROM parquet_schema("+sqlString(path)+")")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type element struct {
		name     string
		children int64
	}
	var elems []element
	for rows.Next() {
		var e element
		if err := rows.Scan(&e.name, &e.children); err != nil {
			return nil, err
		}
		elems = append(elems, e)
	}
	if err := rows.Err(); err != nil || len(elems) == 0 {
		return nil, err
	}
	// skip returns the index after the subtree starting at i.
	var skip func(i int) int
	skip = func(i int) int {
		n := elems[i].children
		i++
		for ; n > 0 && i < len(elems); n-- {
			i = skip(i)
		}
		return i
	}
	var names []string
	for i, n := 1, elems[0].children; n > 0 && i < len(elems); n-- {
		names = append(names, elems[i].name)
		i = skip(i)
	}
	return names, nil
}

// each streams one column of a Parquet file.
func (p *parquetDB) each(in *input, opt Options, done *atomic.Int64, emit func(*Batch) bool) (bool, error) {
	ctx := context.Background()
	var total int64
	err := p.conn.QueryRowContext(ctx, "SELECT coalesce(sum(num_rows), 0) FROM parquet_file_metadata("+sqlString(in.path)+")").Scan(&total)
	if err != nil {
		return false, fmt.Errorf("%s: %v", in.name, err)
	}
	s := &parquetSink{bt: newBatcher(in.name, "row", emit), maxValue: opt.MaxValue, done: done, base: done.Load(), size: in.size, total: total}
	p.sink = s
	defer func() { p.sink = nil }()
	var n int64
	err = p.conn.QueryRowContext(ctx, "SELECT count("+sinkName+"("+sqlIdent(in.colName)+")) FROM read_parquet("+sqlString(in.path)+")").Scan(&n)
	if s.stopped {
		return false, nil
	}
	if err != nil {
		err = fmt.Errorf("%s: %v", in.name, err)
	}
	return s.bt.finish(err)
}

// parquetSink collects the values DuckDB passes to the sink function.
type parquetSink struct {
	bt       *batcher
	maxValue int
	row      int64
	stopped  bool
	// progress: the file's share of the total bytes, by rows read
	done              *atomic.Int64
	base, size, total int64
}

func (s *parquetSink) add(v driver.Value) error {
	if s.stopped {
		return errStopped
	}
	s.row++
	switch v := v.(type) {
	case nil:
		s.bt.b.add(nil, s.row, flagNull)
	case string:
		s.bt.b.addString(v, s.row, s.maxValue)
	default:
		return fmt.Errorf("unexpected %T from DuckDB", v)
	}
	if s.bt.b.full() && s.total > 0 {
		s.done.Store(s.base + s.size*s.row/s.total)
	}
	if !s.bt.ship(false) {
		s.stopped = true
		return errStopped
	}
	return nil
}

// sinkFunc is the DuckDB scalar function urlnorm_cli_sink(VARCHAR).
type sinkFunc struct{ p *parquetDB }

func (f sinkFunc) Config() duckdb.ScalarFuncConfig {
	v, _ := duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
	b, _ := duckdb.NewTypeInfo(duckdb.TYPE_BOOLEAN)
	return duckdb.ScalarFuncConfig{
		InputTypeInfos:      []duckdb.TypeInfo{v},
		ResultTypeInfo:      b,
		Volatile:            true, // never folded or skipped
		SpecialNullHandling: true, // NULL rows are rows too
	}
}

func (f sinkFunc) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(args []driver.Value) (any, error) {
		if f.p.sink == nil {
			return nil, errors.New(sinkName + " is internal to urlnorm")
		}
		return true, f.p.sink.add(args[0])
	}}
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func sqlIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
