package cliio

import (
	"database/sql"
	"io"
	"strconv"
	"strings"
)

// Result formats of a SQL query (urlnorm sql --format).
const (
	ResultTable = "table" // aligned columns, for reading
	ResultCSV   = "csv"   // RFC 4180 with a header row
	ResultTSV   = "tsv"   // a header row, fields escaped as AppendTSV does
	ResultJSON  = "json"  // an array of objects, keys in column order
)

// ResultFormats lists the result formats.
var ResultFormats = []string{ResultTable, ResultCSV, ResultTSV, ResultJSON}

// Table layout: the first TableSample rows (or TableSampleBytes of
// text, if less) are held to size the columns, then every row is written
// as it comes, so memory stays bounded whatever the number of rows. A
// value wider than MaxColumnWidth does not widen its column, so padding
// is bounded too (the last column is never padded: it takes the width of
// its widest value).
const (
	TableSample      = 1000
	TableSampleBytes = 16 << 20
	MaxColumnWidth   = 200
)

// WriteResult writes every row of rows to w in format (one of
// ResultFormats) and returns the number of rows written. werr is an error
// of w; qerr an error of the query, raised while its rows were read (the
// rows before it are written, and a table has no row count).
func WriteResult(w io.Writer, rows *sql.Rows, format string) (n int64, werr, qerr error) {
	cols, err := rows.Columns()
	if err != nil {
		return 0, nil, err
	}
	types := columnTypes(rows, len(cols))
	out := newResultWriter(w, format, cols)
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	cells := make([]cell, len(cols))
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, nil, err
		}
		for i, v := range vals {
			cells[i] = newCell(v, types[i])
		}
		if err := out.row(cells); err != nil {
			return n, err, nil
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, nil, err // no table footer for a failed query
	}
	return n, out.end(), nil
}

// resultWriter writes rows in one result format. row must not keep cells.
type resultWriter interface {
	row(cells []cell) error
	end() error
}

func newResultWriter(w io.Writer, format string, cols []string) resultWriter {
	switch format {
	case ResultCSV:
		return &sepWriter{w: w, cols: cols, sep: ',', field: AppendCSV}
	case ResultTSV:
		return &sepWriter{w: w, cols: cols, sep: '\t', field: AppendTSV}
	case ResultJSON:
		return &jsonWriter{w: w, cols: cols}
	}
	return &tableWriter{w: w, cols: cols}
}

// sepWriter writes CSV or TSV: a header row, then one line per row; NULL
// is an empty field.
type sepWriter struct {
	w      io.Writer
	cols   []string
	sep    byte
	field  func([]byte, string) []byte
	buf    []byte
	headed bool
}

func (s *sepWriter) line(fields func(i int) string) error {
	s.buf = s.buf[:0]
	for i := range s.cols {
		if i > 0 {
			s.buf = append(s.buf, s.sep)
		}
		s.buf = s.field(s.buf, fields(i))
	}
	_, err := s.w.Write(append(s.buf, '\n'))
	return err
}

func (s *sepWriter) header() error {
	if s.headed || len(s.cols) == 0 {
		return nil
	}
	s.headed = true
	return s.line(func(i int) string { return s.cols[i] })
}

func (s *sepWriter) row(cells []cell) error {
	if err := s.header(); err != nil {
		return err
	}
	return s.line(func(i int) string { return cells[i].text })
}

func (s *sepWriter) end() error { return s.header() }

// jsonWriter writes a JSON array of objects.
type jsonWriter struct {
	w    io.Writer
	cols []string
	n    int
	buf  []byte
}

func (j *jsonWriter) row(cells []cell) error {
	b := j.buf[:0]
	if j.n == 0 {
		b = append(b, "[\n"...)
	} else {
		b = append(b, ",\n"...)
	}
	j.n++
	b = append(b, '{')
	for i, v := range cells {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSON(b, j.cols[i])
		b = append(b, ':')
		switch {
		case v.null:
			b = append(b, "null"...)
		case v.json != "":
			b = append(b, v.json...)
		default:
			b = AppendJSON(b, v.text)
		}
	}
	j.buf = append(b, '}')
	_, err := j.w.Write(j.buf)
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

// tableWriter aligns columns by display width (East Asian wide characters
// count two, combining marks none); numbers are aligned to the right. It
// holds the first rows to size the columns, then streams.
type tableWriter struct {
	w       io.Writer
	cols    []string
	held    [][]string // the sample, until the widths are fixed
	bytes   int        // text held
	width   []int      // nil until fixed
	textCol []bool     // the column holds a value that is not a number
	numCol  []bool     // the column holds a number
	n       int64
	buf     []byte
}

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
		r[i] = tableText(v.text)
		t.bytes += len(r[i])
		if t.width != nil {
			continue // the alignment is fixed
		}
		if v.json == "" || v.json[0] == '{' || v.json[0] == '[' || v.json == "true" || v.json == "false" {
			t.textCol[i] = true
		} else {
			t.numCol[i] = true
		}
	}
	t.n++
	if t.width != nil {
		return t.line(r)
	}
	t.held = append(t.held, r)
	if len(t.held) >= TableSample || t.bytes >= TableSampleBytes {
		return t.fix()
	}
	return nil
}

// fix sizes the columns from the header and the rows held, and writes
// them.
func (t *tableWriter) fix() error {
	t.width = make([]int, len(t.cols))
	for _, r := range append([][]string{t.cols}, t.held...) {
		for i, v := range r {
			w := DisplayWidth(v)
			if i < len(r)-1 {
				w = min(w, MaxColumnWidth)
			}
			t.width[i] = max(t.width[i], w)
		}
	}
	if err := t.line(t.cols); err != nil {
		return err
	}
	sep := make([]string, len(t.cols))
	for i := range sep {
		sep[i] = strings.Repeat("-", t.width[i])
	}
	if err := t.line(sep); err != nil {
		return err
	}
	for _, r := range t.held {
		if err := t.line(r); err != nil {
			return err
		}
	}
	t.held = nil
	return nil
}

func (t *tableWriter) line(r []string) error {
	b := t.buf[:0]
	for i, v := range r {
		if i > 0 {
			b = append(b, "  "...)
		}
		pad := max(t.width[i]-DisplayWidth(v), 0)
		switch {
		case t.numCol != nil && t.numCol[i] && !t.textCol[i]:
			b = appendSpaces(b, pad)
			b = append(b, v...)
		case i < len(r)-1:
			b = append(b, v...)
			b = appendSpaces(b, pad)
		default:
			b = append(b, v...)
		}
	}
	t.buf = append(b, '\n')
	_, err := t.w.Write(t.buf)
	return err
}

func appendSpaces(b []byte, n int) []byte {
	for range n {
		b = append(b, ' ')
	}
	return b
}

func (t *tableWriter) end() error {
	if len(t.cols) == 0 {
		return nil // a statement without a result (CREATE, INSERT … in SQLite)
	}
	if t.width == nil {
		if err := t.fix(); err != nil {
			return err
		}
	}
	s := "s"
	if t.n == 1 {
		s = ""
	}
	_, err := io.WriteString(t.w, "("+strconv.FormatInt(t.n, 10)+" row"+s+")\n")
	return err
}

// tableText escapes the control characters of a value, so that a row is
// one line and nothing in it drives the terminal: TAB, LF and CR as \t,
// \n and \r, the others (ESC …) as \x1b.
func tableText(s string) string {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] != 0x7f {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s[:i])
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\t':
			b = append(b, `\t`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c < 0x20 || c == 0x7f:
			b = append(b, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
		default:
			b = append(b, c)
		}
	}
	return string(b)
}
