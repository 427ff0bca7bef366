package cliio

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxRecord bounds the bytes of one CSV/TSV record, so that a quote left
// open cannot make the reader swallow a whole file.
const maxRecord = 64 << 20

var errRecordTooLong = fmt.Errorf("a record is longer than %d MiB (is a closing quote missing?)", maxRecord>>20)

// table is a CSV or TSV reader positioned after the header.
type table interface {
	each(emit func(*Batch) bool) (bool, error)
}

// openTable reads the header and resolves the column.
func openTable(in *input, src io.Reader, opt Options) (table, error) {
	if in.format == TSV {
		return openTSV(in, src, opt)
	}
	return openCSV(in, src, opt)
}

// headerColumn resolves the column: from the header names when there is
// a header, else from a 1-based number.
func headerColumn(in *input, opt Options, header func() ([]string, error)) (int, error) {
	if opt.NoHeader {
		if in.colRaw == "" {
			return 0, nil
		}
		n, err := strconv.Atoi(in.colRaw)
		if err != nil || n < 1 {
			return 0, usageErrorf("%s: with --no-header, --column must be a 1-based number, not %q", in.name, in.colRaw)
		}
		return n - 1, nil
	}
	names, err := header()
	if err == io.EOF {
		return 0, fmt.Errorf("%s is empty: it has no header row (use --no-header for a file without one)", in.name)
	}
	if err != nil {
		return 0, err
	}
	return pickColumn(in.name, names, in.colRaw)
}

// csvReader reads one column of a CSV input with RFC 4180 quoting
// (encoding/csv, strict: a quote inside an unquoted field is an error,
// never a reason to read on until the next quote).
type csvReader struct {
	in       *input
	cr       *csv.Reader
	guard    *guardReader
	col      int
	maxValue int
}

func openCSV(in *input, src io.Reader, opt Options) (*csvReader, error) {
	g := &guardReader{r: src, budget: maxRecord + readBuffer}
	br := bufio.NewReaderSize(g, readBuffer)
	if head, _ := br.Peek(len(bom)); bytes.Equal(head, bom) {
		br.Discard(len(bom))
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	t := &csvReader{in: in, cr: cr, guard: g, maxValue: opt.MaxValue}
	var err error
	t.col, err = headerColumn(in, opt, func() ([]string, error) {
		rec, bad, err := t.read()
		if bad != nil {
			return nil, fmt.Errorf("%s: the header row is not valid CSV: %v", in.name, bad)
		}
		return rec, err
	})
	return t, err
}

// read returns the next record. bad is a syntax error confined to one
// line: the record is reported invalid and reading goes on. err is fatal.
func (t *csvReader) read() (rec []string, bad, err error) {
	t.guard.budget = maxRecord + readBuffer
	rec, err = t.cr.Read()
	if err == nil || err == io.EOF {
		return rec, nil, err
	}
	if errors.Is(err, errRecordTooLong) {
		line, _ := t.cr.FieldPos(0)
		return nil, nil, fmt.Errorf("%s: after line %d: %w", t.in.name, line, errRecordTooLong)
	}
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return nil, nil, fmt.Errorf("%s: %w", t.in.name, err)
	}
	if pe.StartLine == pe.Line {
		return nil, pe, nil
	}
	return nil, nil, fmt.Errorf("%s:%d: a quoted field opened on this line is not closed properly (detected on line %d): "+
		"fix the quoting, or read the file with --input-format text or tsv", t.in.name, pe.StartLine, pe.Line)
}

func (t *csvReader) each(emit func(*Batch) bool) (bool, error) {
	bt := newBatcher(t.in.name, "line", emit)
	for {
		rec, bad, err := t.read()
		if err == io.EOF {
			return bt.finish(nil)
		}
		if err != nil {
			return bt.finish(err)
		}
		var pe *csv.ParseError
		if errors.As(bad, &pe) {
			bt.b.add(nil, int64(pe.StartLine), flagSyntax)
		} else if line, _ := t.cr.FieldPos(0); t.col >= len(rec) {
			bt.b.add(nil, int64(line), flagMissing)
		} else {
			bt.b.addString(rec[t.col], int64(line), t.maxValue)
		}
		if !bt.ship(false) {
			return false, nil
		}
	}
}

// guardReader fails once a record has pulled more than budget bytes.
type guardReader struct {
	r      io.Reader
	budget int
}

func (g *guardReader) Read(p []byte) (int, error) {
	if g.budget <= 0 {
		return 0, errRecordTooLong
	}
	n, err := g.r.Read(p)
	g.budget -= n
	return n, err
}

// tsvReader reads one column of a TSV input: lines split on TAB, with no
// quoting (IANA text/tab-separated-values), so a '"' is data and a record
// is always one line.
type tsvReader struct {
	lr       *lineReader
	col      int
	maxValue int
}

func openTSV(in *input, src io.Reader, opt Options) (*tsvReader, error) {
	t := &tsvReader{lr: newLineReader(in, src, maxRecord), maxValue: opt.MaxValue}
	var err error
	t.col, err = headerColumn(in, opt, func() ([]string, error) {
		line, _, err := t.lr.next()
		if err != nil {
			return nil, err
		}
		return splitTabs(string(line)), nil
	})
	return t, err
}

func (t *tsvReader) each(emit func(*Batch) bool) (bool, error) {
	return readLines(t.lr, t.pick, emit)
}

// pick returns field t.col of a line.
func (t *tsvReader) pick(line []byte, flags uint8) ([]byte, uint8) {
	for range t.col {
		i := bytes.IndexByte(line, '\t')
		if i < 0 {
			return nil, flagMissing
		}
		line = line[i+1:]
	}
	if i := bytes.IndexByte(line, '\t'); i >= 0 {
		line, flags = line[:i], flags&^flagTruncated // the cut was after this field
	}
	if len(line) > t.maxValue {
		return line[:t.maxValue], flags | flagTruncated
	}
	return line, flags
}

func splitTabs(s string) []string { return strings.Split(s, "\t") }
