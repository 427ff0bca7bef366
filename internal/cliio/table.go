package cliio

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// maxRecord bounds the bytes of one CSV/TSV record, so that a missing
// closing quote cannot make the reader swallow a whole file.
const maxRecord = 64 << 20

var errRecordTooLong = fmt.Errorf("a record is longer than %d MiB (is a closing quote missing?)", maxRecord>>20)

// tableReader reads one column of a CSV or TSV input.
type tableReader struct {
	in       *input
	cr       *csv.Reader
	guard    *guardReader
	col      int
	maxValue int
}

func newTableReader(in *input, src io.Reader, opt Options) (*tableReader, error) {
	g := &guardReader{r: src, budget: maxRecord + readBuffer}
	br := bufio.NewReaderSize(g, readBuffer)
	if head, _ := br.Peek(len(bom)); bytes.Equal(head, bom) {
		br.Discard(len(bom))
	}
	cr := csv.NewReader(br)
	if in.format == TSV {
		cr.Comma = '\t'
	}
	cr.LazyQuotes = true // a stray '"' inside a URL is data, not an error
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	t := &tableReader{in: in, cr: cr, guard: g, maxValue: opt.MaxValue}
	if opt.NoHeader {
		if in.colRaw == "" {
			return t, nil
		}
		n, err := strconv.Atoi(in.colRaw)
		if err != nil || n < 1 {
			return nil, usageErrorf("%s: with --no-header, --column must be a 1-based number, not %q", in.name, in.colRaw)
		}
		t.col = n - 1
		return t, nil
	}
	header, err := t.read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s is empty: it has no header row (use --no-header for a file without one)", in.name)
	}
	if err != nil {
		return nil, err
	}
	t.col, err = pickColumn(in.name, header, in.colRaw)
	return t, err
}

func (t *tableReader) read() ([]string, error) {
	t.guard.budget = maxRecord + readBuffer
	rec, err := t.cr.Read()
	switch {
	case err == nil || err == io.EOF:
		return rec, err
	case errors.Is(err, errRecordTooLong):
		line, _ := t.cr.FieldPos(0)
		return nil, fmt.Errorf("%s: after line %d: %w", t.in.name, line, errRecordTooLong)
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("%s:%d: %v (is a quote missing? read the file as text with --input-format text)", t.in.name, pe.StartLine, pe.Err)
	}
	return nil, fmt.Errorf("%s: %w", t.in.name, err)
}

func (t *tableReader) each(emit func(*Batch) bool) (bool, error) {
	b := newBatch(t.in.name, "line")
	for {
		rec, err := t.read()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Release()
			return false, err
		}
		line, _ := t.cr.FieldPos(0)
		switch {
		case t.col >= len(rec):
			b.add(nil, int64(line), flagMissing)
		case len(rec[t.col]) > t.maxValue:
			b.add([]byte(rec[t.col][:t.maxValue]), int64(line), flagTruncated)
		default:
			b.data = append(b.data, rec[t.col]...)
			b.addEnd(int64(line), 0)
		}
		if b.full() {
			if !emit(b) {
				return false, nil
			}
			b = newBatch(t.in.name, "line")
		}
	}
	if b.Len() == 0 {
		b.Release()
		return true, nil
	}
	return emit(b), nil
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
