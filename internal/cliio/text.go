package cliio

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

const readBuffer = 256 << 10

var bom = []byte("\xEF\xBB\xBF")

// readText emits one value per line. A UTF-8 byte order mark at the start
// and a '\r' before each '\n' are removed (Windows files); every other
// byte, an empty line included, is a value. A final line without '\n' is a
// value too.
func readText(in *input, src io.Reader, maxValue int, emit func(*Batch) bool) (bool, error) {
	br := bufio.NewReaderSize(src, readBuffer)
	b := newBatch(in.name, "line")
	var long []byte // a line longer than the buffer, up to maxValue bytes
	var flags uint8
	line := int64(0)
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long, flags = appendCapped(long, chunk, maxValue, flags)
			continue
		}
		if err != nil && err != io.EOF {
			b.Release()
			return false, fmt.Errorf("%s: line %d: %w", in.name, line+1, err)
		}
		if len(chunk) == 0 && long == nil { // EOF after a final '\n'
			break
		}
		line++
		v := chunk
		if long != nil {
			long, flags = appendCapped(long, chunk, maxValue, flags)
			v = long
		}
		v = bytes.TrimSuffix(v, []byte{'\n'})
		v = bytes.TrimSuffix(v, []byte{'\r'})
		if line == 1 {
			v = bytes.TrimPrefix(v, bom)
		}
		if len(v) > maxValue {
			v, flags = v[:maxValue], flags|flagTruncated
		}
		b.add(v, line, flags)
		long, flags = nil, 0
		if err == io.EOF {
			break
		}
		// Ship the batch when it is full, or when no more input is
		// buffered: a person typing URLs gets each answer at once.
		if b.full() || br.Buffered() == 0 {
			if !emit(b) {
				return false, nil
			}
			b = newBatch(in.name, "line")
		}
	}
	if b.Len() == 0 {
		b.Release()
		return true, nil
	}
	return emit(b), nil
}

// appendCapped appends chunk to dst, keeping at most limit+2 bytes (room
// for the "\r\n" that is trimmed later) and flagging what it drops.
func appendCapped(dst, chunk []byte, limit int, flags uint8) ([]byte, uint8) {
	if dst == nil {
		dst = make([]byte, 0, 2*len(chunk))
	}
	if room := limit + 2 - len(dst); len(chunk) > room {
		chunk, flags = chunk[:max(room, 0)], flags|flagTruncated
	}
	return append(dst, chunk...), flags
}
