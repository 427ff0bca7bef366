// Package cliio reads the CLI's inputs (text, CSV, TSV and Parquet files,
// gzip-compressed or not, and stdin) as a stream of batches of values, and
// writes the CLI's row formats (text, TSV, CSV, JSON lines).
//
// Open reads files (and stdin); OpenStream reads one stream a caller has
// opened itself, with the same rules, so another program (a Beam
// pipeline, say) reads inputs exactly as the command line does: a UTF-8
// byte order mark only at the start, CRLF line ends, one value per text
// line (blank ones included), CSV/TSV/Parquet columns picked by --column,
// gzip by name, and an input that ends short of its size reported.
//
// Memory does not depend on the input size: files are read through fixed
// buffers, a value longer than Options.MaxValue is cut (and flagged), and a
// batch holds at most batchBytes of values.
package cliio

import (
	"strconv"
	"sync"
	"unsafe"

	"github.com/urlnorm/urlnorm/normalize"
)

// A batch is flushed when it holds this many bytes or values.
const (
	batchBytes  = 64 << 10
	batchValues = 4096
)

// Value flags.
const (
	flagNull      = 1 << iota // SQL NULL (Parquet)
	flagTruncated             // longer than Options.MaxValue; the value is its prefix
	flagMissing               // a CSV/TSV record without the column
	flagSyntax                // a CSV record with broken quoting
)

// Kinds of the errors Err reports besides normalize.KindTooLong.
var (
	KindMissingField = &normalize.Kind{Code: "missing_field", Class: normalize.ErrInvalid}
	KindCSVSyntax    = &normalize.Kind{Code: "csv_syntax", Class: normalize.ErrInvalid}
)

// Batch is a run of consecutive values from one input.
type Batch struct {
	Input string // the input's name for messages ("stdin" for -)
	unit  string // "line" or "row"
	data  []byte
	ends  []int
	pos   []int64 // line (text, CSV) or row (Parquet) number, 1-based
	flags []uint8
}

var batchPool = sync.Pool{New: func() any {
	return &Batch{data: make([]byte, 0, batchBytes+4096)}
}}

func newBatch(input, unit string) *Batch {
	b := batchPool.Get().(*Batch)
	b.Input, b.unit = input, unit
	return b
}

// Release returns the batch to the pool. Strings from Value must not be
// used afterwards.
func (b *Batch) Release() {
	b.data, b.ends, b.pos, b.flags = b.data[:0], b.ends[:0], b.pos[:0], b.flags[:0]
	batchPool.Put(b)
}

// Len is the number of values.
func (b *Batch) Len() int { return len(b.ends) }

// Value returns value i. The string shares the batch's memory: it is valid
// until Release and must be copied to be kept.
func (b *Batch) Value(i int) string {
	start := 0
	if i > 0 {
		start = b.ends[i-1]
	}
	if start == b.ends[i] {
		return ""
	}
	return unsafe.String(&b.data[start], b.ends[i]-start)
}

// Null reports a NULL value (only Parquet has them).
func (b *Batch) Null(i int) bool { return b.flags[i]&flagNull != 0 }

// Err reports why value i cannot be processed, or nil: too_long (the
// value was longer than Options.MaxValue and Value returns its start),
// missing_field (a CSV/TSV record without the column) or csv_syntax (a CSV
// record with broken quoting, left out). The error is a *normalize.Error,
// like the errors of the normalizer.
func (b *Batch) Err(i int) error {
	f := b.flags[i]
	switch {
	case f&flagSyntax != 0:
		return &normalize.Error{Op: "read", Kind: KindCSVSyntax,
			Reason: "a '\"' inside an unquoted field, or text after a closing quote; quote the field and double its quotes"}
	case f&flagMissing != 0:
		return &normalize.Error{Op: "read", Kind: KindMissingField, Reason: "the record has no field at the column"}
	case f&flagTruncated != 0:
		return &normalize.Error{Op: "read", Input: b.Value(i), Kind: normalize.KindTooLong,
			Reason: "longer than " + strconv.Itoa(len(b.Value(i))) + " bytes"}
	}
	return nil
}

// Pos names value i's place for messages: "urls.txt:12" or
// "urls.parquet row 12".
func (b *Batch) Pos(i int) string {
	if b.unit == "row" {
		return b.Input + " row " + strconv.FormatInt(b.pos[i], 10)
	}
	return b.Input + ":" + strconv.FormatInt(b.pos[i], 10)
}

func (b *Batch) add(v []byte, pos int64, flags uint8) {
	b.data = append(b.data, v...)
	b.addEnd(pos, flags)
}

// addString adds v, cut at limit bytes.
func (b *Batch) addString(v string, pos int64, limit int) {
	var flags uint8
	if len(v) > limit {
		v, flags = v[:limit], flagTruncated
	}
	b.data = append(b.data, v...)
	b.addEnd(pos, flags)
}

// addEnd ends a value appended to b.data by the caller.
func (b *Batch) addEnd(pos int64, flags uint8) {
	b.ends = append(b.ends, len(b.data))
	b.pos = append(b.pos, pos)
	b.flags = append(b.flags, flags)
}

func (b *Batch) full() bool { return len(b.data) >= batchBytes || len(b.ends) >= batchValues }

// batcher fills batches from one input and hands them to emit.
type batcher struct {
	input, unit string
	emit        func(*Batch) bool
	b           *Batch
}

func newBatcher(input, unit string, emit func(*Batch) bool) *batcher {
	return &batcher{input: input, unit: unit, emit: emit, b: newBatch(input, unit)}
}

// ship emits the batch when it is full, or when now is set (no more input
// is at hand: a person typing gets each answer at once) and it is not
// empty. It returns false when the consumer wants no more.
func (bt *batcher) ship(now bool) bool {
	if !bt.b.full() && !(now && bt.b.Len() > 0) {
		return true
	}
	if !bt.emit(bt.b) {
		bt.b = nil
		return false
	}
	bt.b = newBatch(bt.input, bt.unit)
	return true
}

// finish emits what is left; err, if any, is returned after the values
// read before it were emitted.
func (bt *batcher) finish(err error) (bool, error) {
	if !bt.ship(true) {
		return false, nil
	}
	bt.b.Release()
	return err == nil, err
}
