package cliio

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

const readBuffer = 256 << 10

var bom = []byte("\xEF\xBB\xBF")

// lineReader splits an input into lines. A UTF-8 byte order mark at the
// start and the '\r' of a "\r\n" are removed (Windows files). A final line
// without '\n' is a line too. Lines longer than limit are cut and flagged.
type lineReader struct {
	in    *input
	br    *bufio.Reader
	limit int
	line  int64
	long  []byte // a line longer than the buffer, up to limit bytes
}

func newLineReader(in *input, src io.Reader, limit int) *lineReader {
	return &lineReader{in: in, br: bufio.NewReaderSize(src, readBuffer), limit: limit}
}

// next returns the next line (valid until the next call), or io.EOF.
func (r *lineReader) next() ([]byte, uint8, error) {
	var flags uint8
	r.long = r.long[:0]
	isLong := false
	for {
		chunk, err := r.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			r.long, flags = appendCapped(r.long, chunk, r.limit, flags)
			isLong = true
			continue
		}
		if err != nil && err != io.EOF {
			return nil, 0, fmt.Errorf("%s: line %d: %w", r.in.name, r.line+1, err)
		}
		if len(chunk) == 0 && !isLong {
			return nil, 0, io.EOF
		}
		r.line++
		v := chunk
		if isLong {
			r.long, flags = appendCapped(r.long, chunk, r.limit, flags)
			v = r.long
		}
		v = bytes.TrimSuffix(v, []byte{'\n'})
		v = bytes.TrimSuffix(v, []byte{'\r'})
		if r.line == 1 {
			v = bytes.TrimPrefix(v, bom)
		}
		if len(v) > r.limit {
			v, flags = v[:r.limit], flags|flagTruncated
		}
		return v, flags, nil
	}
}

// idle reports that no more input is buffered: a person typing URLs
// should get each answer at once, so the batch is shipped.
func (r *lineReader) idle() bool { return r.br.Buffered() == 0 }

// appendCapped appends chunk to dst, keeping at most limit+2 bytes (room
// for the "\r\n" that is trimmed later) and flagging what it drops.
func appendCapped(dst, chunk []byte, limit int, flags uint8) ([]byte, uint8) {
	if room := limit + 2 - len(dst); len(chunk) > room {
		chunk, flags = chunk[:max(room, 0)], flags|flagTruncated
	}
	return append(dst, chunk...), flags
}

// readLines emits one value per line; pick, when set, extracts the value
// from the line (a TSV column).
func readLines(lr *lineReader, pick func([]byte, uint8) ([]byte, uint8), emit func(*Batch) bool) (bool, error) {
	bt := newBatcher(lr.in.name, "line", emit)
	for {
		v, flags, err := lr.next()
		if err == io.EOF {
			return bt.finish(nil)
		}
		if err != nil {
			return bt.finish(err)
		}
		if pick != nil {
			v, flags = pick(v, flags)
		}
		bt.b.add(v, lr.line, flags)
		if !bt.ship(lr.idle()) {
			return false, nil
		}
	}
}

// readText emits every line as a value, an empty line included.
func readText(in *input, src io.Reader, maxValue int, emit func(*Batch) bool) (bool, error) {
	return readLines(newLineReader(in, src, maxValue), nil, emit)
}
