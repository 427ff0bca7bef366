package main

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/urlnorm/urlnorm/duckdb"
	"github.com/urlnorm/urlnorm/sqlite"
	"github.com/urlnorm/urlnorm/udf"
)

func init() {
	register(&command{name: "sql", summary: "run SQL with the urlnorm functions (embedded DuckDB or SQLite)", run: runSQL})
}

var sqlHelp = help{
	synopsis: "sql [--engine duckdb|sqlite] [--db FILE] [--format table|csv|tsv|json] QUERY",
	about: `Runs QUERY on an embedded database with every urlnorm SQL function
registered: normalize_url, canonical_hash, url_link_type, canonicalize_url,
resolve_url, url_profile_version and their try_ twins. QUERY may hold
several statements separated by ';': the rows of the last one are printed.
With QUERY "-" (or none), the query is read from stdin.

DuckDB (the default) reads files directly: read_csv('urls.csv'),
read_parquet('urls.parquet'), read_json('urls.json'). Without --db the
database is in memory and gone when the command ends.

Output formats (--format):
  table  aligned columns, NULL shown as NULL; the first 1,000 rows set the
         column widths, then rows are streamed (a later, wider value
         widens its own line only); control characters are escaped
  csv    RFC 4180 with a header row; NULL is an empty field
  tsv    header row; TAB, LF, CR and \ in a value written \t \n \r \\; NULL empty
  json   an array of objects, one per row, keys in column order`,
	examples: `urlnorm sql "SELECT normalize_url('HTTP://Example.COM:80/a/../b/?z=1&a=2#x')"
urlnorm sql "SELECT normalize_url(url) AS url, count(*) AS n
             FROM read_csv('testdata/urls/sample.csv') GROUP BY 1 ORDER BY n DESC, url LIMIT 10"
urlnorm sql --format csv "SELECT url, try_canonical_hash(url) AS hash FROM read_csv('urls.csv')" > hashed.csv
urlnorm sql --db crawl.duckdb "CREATE TABLE pages AS SELECT * FROM read_parquet('pages.parquet')"
urlnorm sql --engine sqlite --db links.db "SELECT canonicalize_url(href, 'clara') FROM links LIMIT 5"
echo "SELECT url_profile_version('default')" | urlnorm sql -`,
	exit: `Exit status: 0 success; 1 the query failed (rows printed before the
failure stay printed, without the table's row count); 2 usage error; 3 the
database file could not be opened or the output not written.`,
}

// sqlFormats are the --format values.
var sqlFormats = []string{"table", "csv", "tsv", "json"}

func runSQL(args []string, e *env) int {
	fs := newFlags("sql", sqlHelp)
	engine := fs.String("engine", "duckdb", "database `engine`: duckdb or sqlite")
	dbFile := fs.String("db", "", "database `file` to open, created if missing (default: in memory)")
	format := fs.String("format", "table", "output `format`: table, csv, tsv or json")
	pos, code, ok := parseFlags(fs, args, e)
	switch {
	case !ok:
		return code
	case *engine != "duckdb" && *engine != "sqlite":
		return usageError(e, "sql", "--engine must be duckdb or sqlite, not %q", *engine)
	case !slices.Contains(sqlFormats, *format):
		return usageError(e, "sql", "--format must be one of %s, not %q", strings.Join(sqlFormats, ", "), *format)
	case len(pos) > 1:
		return usageError(e, "sql", "want one QUERY argument, got %d (quote the query)", len(pos))
	}
	query := ""
	if len(pos) == 1 && pos[0] != "-" {
		query = pos[0]
	} else {
		b, err := io.ReadAll(e.stdin)
		if err != nil {
			fmt.Fprintf(e.stderr, "urlnorm sql: reading the query from stdin: %v\n", err)
			return exitIO
		}
		query = string(b)
	}
	if strings.TrimSpace(query) == "" {
		return usageError(e, "sql", "no query: give one as an argument, or on stdin")
	}
	db, err := openSQL(*engine, *dbFile)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlnorm sql: opening %s database %q: %v\n", *engine, *dbFile, err)
		return exitIO
	}
	defer db.Close()
	rows, err := db.Query(query)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlnorm sql: %s\n", sqlError(err))
		return exitData
	}
	defer rows.Close()
	w := bufio.NewWriter(e.stdout)
	werr, qerr := writeRows(w, rows, *format)
	if werr == nil {
		werr = w.Flush()
	}
	switch {
	case qerr != nil: // a row raised (e.g. normalize_url on bad input)
		fmt.Fprintf(e.stderr, "urlnorm sql: %s\n", sqlError(qerr))
		return exitData
	case werr != nil:
		fmt.Fprintf(e.stderr, "urlnorm sql: writing the result: %v\n", werr)
		return exitIO
	}
	return exitOK
}

func openSQL(engine, file string) (*sql.DB, error) {
	if engine == "sqlite" {
		if file == "" {
			file = ":memory:"
		}
		db, err := sqlite.Open(file)
		if err == nil {
			db.SetMaxOpenConns(1) // one database even in memory; one statement at a time
		}
		return db, err
	}
	return duckdb.Open(file)
}

// sqlError drops duckdb-go's "database/sql/driver: API error: " from an
// error a urlnorm function raised, which says nothing to a SQL user.
func sqlError(err error) string {
	return strings.Replace(err.Error(), "database/sql/driver: API error: ", "", 1)
}

// writeRows writes every row in format. werr is an output error, qerr an
// error of the query (raised while reading its rows).
func writeRows(w io.Writer, rows *sql.Rows, format string) (werr, qerr error) {
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	types := columnTypes(rows, len(cols))
	out := newRowWriter(w, format, cols)
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		cells := make([]cell, len(vals))
		for i, v := range vals {
			cells[i] = newCell(v, types[i])
		}
		if err := out.row(cells); err != nil {
			return err, nil
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err // no table footer for a failed query
	}
	return out.end(), nil
}

// colType is what a column's database type tells the output: its name
// (DuckDB's "DATE", "UUID", "STRUCT(…)"…; SQLite's declared type) and, for
// a STRUCT or LIST, its parsed shape, which orders STRUCT members in JSON.
type colType struct {
	name  string
	shape *udf.SQLType
}

func columnTypes(rows *sql.Rows, n int) []colType {
	types := make([]colType, n)
	cts, err := rows.ColumnTypes()
	if err != nil || len(cts) != n {
		return types
	}
	for i, ct := range cts {
		name := ct.DatabaseTypeName()
		types[i].name = strings.ToUpper(name) // SQLite: the declared type, any case
		if shape, err := udf.ParseSQLType(name); err == nil {
			types[i].shape = shape
		}
	}
	return types
}

// cell is one output value: null, text, or JSON for a number, boolean,
// STRUCT, LIST or MAP (raw JSON is also its text form).
type cell struct {
	null bool
	text string
	json string // JSON of the value; "" means: a JSON string of text
}

func newCell(v any, t colType) cell {
	switch v := v.(type) {
	case nil:
		return cell{null: true}
	case string:
		return cell{text: v}
	case []byte:
		if t.name == "UUID" && len(v) == 16 {
			return cell{text: formatUUID(v)}
		}
		return cell{text: string(v)}
	case bool:
		s := strconv.FormatBool(v)
		return cell{text: s, json: s}
	case int64, int32, int16, int8, int, uint64, uint32, uint16, uint8, uint, *big.Int:
		s := fmt.Sprint(v)
		return cell{text: s, json: s}
	case float64:
		return floatCell(v)
	case float32:
		return floatCell(float64(v))
	case time.Time:
		return cell{text: formatTime(v, t.name)}
	case map[string]any, []any:
		var b bytes.Buffer
		if err := t.shape.EncodeJSON(&b, jsonable(v)); err != nil {
			b.Reset()
			(*udf.SQLType)(nil).EncodeJSON(&b, jsonable(v))
		}
		return cell{text: b.String(), json: b.String()}
	case decimal:
		return cell{text: v.String(), json: v.String()}
	case fmt.Stringer:
		return cell{text: v.String()}
	}
	return cell{text: fmt.Sprint(v)}
}

// decimal is DuckDB's DECIMAL: exact digits from String.
type decimal interface {
	Float64() float64
	String() string
}

func floatCell(f float64) cell {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return cell{text: s} // not a JSON number: a string
	}
	return cell{text: s, json: s}
}

// jsonable converts the leaves of a STRUCT or LIST that encoding/json
// would not write as the value (DECIMAL, time, blobs).
func jsonable(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = jsonable(e)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, e := range v {
			l[i] = jsonable(e)
		}
		return l
	case nil, string, bool, float64, float32, int64, int32, int16, int8, int, uint64, uint32, uint16, uint8, uint:
		return v
	case *big.Int:
		return json.Number(v.String())
	case []byte:
		return string(v)
	case time.Time:
		return v.Format(time.RFC3339Nano)
	case decimal:
		return json.Number(v.String())
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(v)
}

func formatUUID(b []byte) string {
	h := fmt.Sprintf("%x", b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func formatTime(t time.Time, typ string) string {
	switch {
	case typ == "DATE":
		return t.Format("2006-01-02")
	case strings.HasPrefix(typ, "TIME") && !strings.HasPrefix(typ, "TIMESTAMP"):
		return t.Format("15:04:05.999999")
	case strings.HasSuffix(typ, "TIME ZONE") || typ == "TIMESTAMPTZ":
		return t.Format("2006-01-02 15:04:05.999999-07:00")
	}
	return t.Format("2006-01-02 15:04:05.999999")
}

// rowWriter writes rows in one output format.
type rowWriter interface {
	row(cells []cell) error
	end() error
}

func newRowWriter(w io.Writer, format string, cols []string) rowWriter {
	switch format {
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write(cols)
		return &csvWriter{w: cw}
	case "tsv":
		t := &tsvWriter{w: w}
		t.line(cols)
		return t
	case "json":
		return &jsonWriter{w: w, cols: cols}
	}
	return &tableWriter{w: w, cols: cols}
}

type csvWriter struct{ w *csv.Writer }

func (c *csvWriter) row(cells []cell) error {
	rec := make([]string, len(cells))
	for i, v := range cells {
		rec[i] = v.text // NULL: empty field
	}
	return c.w.Write(rec)
}

func (c *csvWriter) end() error {
	c.w.Flush()
	return c.w.Error()
}

type tsvWriter struct{ w io.Writer }

var tsvEscaper = strings.NewReplacer("\\", `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)

func (t *tsvWriter) line(fields []string) error {
	for i, f := range fields {
		if i > 0 {
			io.WriteString(t.w, "\t")
		}
		tsvEscaper.WriteString(t.w, f)
	}
	_, err := io.WriteString(t.w, "\n")
	return err
}

func (t *tsvWriter) row(cells []cell) error {
	fields := make([]string, len(cells))
	for i, v := range cells {
		fields[i] = v.text
	}
	return t.line(fields)
}

func (t *tsvWriter) end() error { return nil }

type jsonWriter struct {
	w    io.Writer
	cols []string
	n    int
}

func (j *jsonWriter) row(cells []cell) error {
	var b bytes.Buffer
	if j.n == 0 {
		b.WriteString("[\n")
	} else {
		b.WriteString(",\n")
	}
	j.n++
	b.WriteByte('{')
	for i, v := range cells {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, j.cols[i])
		b.WriteByte(':')
		switch {
		case v.null:
			b.WriteString("null")
		case v.json != "":
			b.WriteString(v.json)
		default:
			writeJSONString(&b, v.text)
		}
	}
	b.WriteByte('}')
	_, err := j.w.Write(b.Bytes())
	return err
}

func (j *jsonWriter) end() error {
	end := "\n]\n"
	if j.n == 0 {
		end = "[]\n"
	}
	_, err := io.WriteString(j.w, end)
	return err
}

func writeJSONString(b *bytes.Buffer, s string) {
	(*udf.SQLType)(nil).EncodeJSON(b, s)
}

// tableWriter holds every row to align the columns; numbers are aligned
// to the right.
type tableWriter struct {
	w       io.Writer
	cols    []string
	rows    [][]string
	textCol []bool // the column holds a value that is not a number
	numCol  []bool // the column holds a number
}

var tableEscaper = strings.NewReplacer("\t", `\t`, "\n", `\n`, "\r", `\r`)

func (t *tableWriter) row(cells []cell) error {
	if t.textCol == nil {
		t.textCol, t.numCol = make([]bool, len(cells)), make([]bool, len(cells))
	}
	r := make([]string, len(cells))
	for i, v := range cells {
		if v.null {
			r[i] = "NULL"
			continue
		}
		r[i] = tableEscaper.Replace(v.text)
		if v.json == "" || v.json[0] == '{' || v.json[0] == '[' || v.json == "true" || v.json == "false" {
			t.textCol[i] = true
		} else {
			t.numCol[i] = true
		}
	}
	t.rows = append(t.rows, r)
	return nil
}

func (t *tableWriter) end() error {
	if len(t.cols) == 0 {
		return nil // a statement without a result (CREATE, INSERT … in SQLite)
	}
	width := make([]int, len(t.cols))
	for _, r := range append([][]string{t.cols}, t.rows...) {
		for i, v := range r {
			width[i] = max(width[i], utf8.RuneCountInString(v))
		}
	}
	var b bytes.Buffer
	line := func(r []string) {
		for i, v := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(v))
			switch {
			case t.numCol != nil && t.numCol[i] && !t.textCol[i]:
				b.WriteString(pad + v)
			case i < len(r)-1:
				b.WriteString(v + pad)
			default:
				b.WriteString(v)
			}
		}
		b.WriteByte('\n')
	}
	line(t.cols)
	sep := make([]string, len(t.cols))
	for i := range sep {
		sep[i] = strings.Repeat("-", width[i])
	}
	line(sep)
	for _, r := range t.rows {
		line(r)
	}
	fmt.Fprintf(&b, "(%d row%s)\n", len(t.rows), plural(len(t.rows)))
	_, err := t.w.Write(b.Bytes())
	return err
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
