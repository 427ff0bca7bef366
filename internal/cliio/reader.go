package cliio

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// Input formats.
const (
	Text    = "text"    // one value per line
	CSV     = "csv"     // comma-separated, RFC 4180 quoting
	TSV     = "tsv"     // tab-separated, same quoting
	Parquet = "parquet" // read with DuckDB's read_parquet
)

// Formats lists the input formats.
var Formats = []string{Text, CSV, TSV, Parquet}

// DefaultMaxValue is the longest value kept whole (longer ones are cut and
// flagged Truncated): far above any URL limit, small enough that one bad
// line cannot exhaust memory.
const DefaultMaxValue = 1 << 20

// Options say how to read the inputs.
type Options struct {
	// Format forces the input format; "" picks it from each file's
	// extension (.csv, .tsv, .tab, .parquet, .pq, optionally followed by
	// .gz; anything else is text). Stdin is text unless Format says
	// otherwise.
	Format string
	// Column picks the CSV/TSV/Parquet column: a header name, or a 1-based
	// index. Empty picks the only column or the one named "url".
	Column string
	// NoHeader says CSV/TSV inputs have no header row.
	NoHeader bool
	// MaxValue bounds a value's length (DefaultMaxValue if 0).
	MaxValue int
}

// UsageError is an error in the command line (a missing column, a flag
// that does not apply to an input), as opposed to an I/O error.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

func usageErrorf(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// IsUsage reports whether err is a UsageError.
func IsUsage(err error) bool {
	var u *UsageError
	return errors.As(err, &u)
}

// input is one file or stream to read.
type input struct {
	path    string    // the file; "" for a stream
	src     io.Reader // the stream (stdin, OpenStream); nil for a file
	name    string    // for messages
	format  string
	gzip    bool
	size    int64  // bytes when the run started; -1 when unknown
	col     int    // resolved column index (CSV/TSV/Parquet)
	colName string // resolved column name (Parquet)
	colRaw  string // --column as given
}

// Reader streams the values of a list of inputs.
type Reader struct {
	opt    Options
	stdin  io.Reader
	inputs []*input
	total  int64        // sum of sizes, -1 when one is unknown
	done   atomic.Int64 // bytes (or the Parquet equivalent) consumed
	values atomic.Int64
	pq     *parquetDB
}

// Open checks every input before any is read: it exists, is not a
// directory, its format is known and its column exists. paths empty means
// stdin; "-" is stdin.
func Open(paths []string, stdin io.Reader, opt Options) (*Reader, error) {
	if len(paths) == 0 {
		paths = []string{"-"}
	}
	r, err := newReader(opt)
	if err != nil {
		return nil, err
	}
	r.stdin = stdin
	stdinSeen := false
	for _, p := range paths {
		in, err := r.check(p)
		if err != nil {
			r.Close()
			return nil, err
		}
		if p == "-" {
			if stdinSeen {
				r.Close()
				return nil, usageErrorf("stdin (-) is listed twice")
			}
			stdinSeen = true
		}
		r.add(in)
	}
	return r, nil
}

func newReader(opt Options) (*Reader, error) {
	if opt.MaxValue <= 0 {
		opt.MaxValue = DefaultMaxValue
	}
	if opt.Format != "" && !slices.Contains(Formats, opt.Format) {
		return nil, usageErrorf("unknown input format %q (want %s)", opt.Format, strings.Join(Formats, ", "))
	}
	return &Reader{opt: opt}, nil
}

func (r *Reader) add(in *input) {
	r.inputs = append(r.inputs, in)
	if in.size < 0 || r.total < 0 {
		r.total = -1
	} else {
		r.total += in.size
	}
}

// OpenStream reads one stream with the rules Open applies to a file, for
// a caller that opens its inputs itself (another file system, a network
// stream). name names it in messages and, unless opt.Format is set, gives
// its format by extension as a file name does (".csv", ".tsv.gz" …; a
// ".gz" name is decompressed). size is its length in bytes if known, else
// -1: a stream that ends before size bytes is a *ShortReadError. Parquet
// is read from a file only (use Open). The CSV/TSV header, and so the
// column, is read when Each starts.
func OpenStream(name string, src io.Reader, size int64, opt Options) (*Reader, error) {
	r, err := newReader(opt)
	if err != nil {
		return nil, err
	}
	in := &input{src: src, name: name, size: size, colRaw: r.opt.Column}
	r.byName(in, name)
	if err := r.checkInput(in); err != nil {
		return nil, err
	}
	r.add(in)
	return r, nil
}

func (r *Reader) check(path string) (*input, error) {
	in := &input{path: path, name: path, format: r.opt.Format, size: -1, colRaw: r.opt.Column}
	if path == "-" {
		in.path, in.src, in.name, in.size = "", r.stdin, "stdin", remaining(r.stdin)
		if in.format == "" {
			in.format = Text
		}
		return in, r.checkInput(in)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory: give the files in it (e.g. %s/*.txt)", path, path)
	}
	in.size = st.Size()
	r.byName(in, path)
	return in, r.checkInput(in)
}

// remaining is the number of bytes left in stdin when it is a regular
// file (a shell's "< file", possibly read in part already), else -1.
func remaining(stdin io.Reader) int64 {
	f, ok := stdin.(*os.File)
	if !ok {
		return -1
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return -1
	}
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil || off > st.Size() {
		return -1
	}
	return st.Size() - off
}

// byName sets the compression and, unless Options.Format does, the
// format from a file name.
func (r *Reader) byName(in *input, name string) {
	base := strings.ToLower(filepath.Base(name))
	if b, ok := strings.CutSuffix(base, ".gz"); ok {
		in.gzip, base = true, b
	}
	in.format = r.opt.Format
	if in.format == "" {
		in.format = formatOf(base)
	}
}

// checkInput refuses what cannot be read and resolves the column of a
// table file.
func (r *Reader) checkInput(in *input) error {
	switch {
	case in.format == Parquet && in.src != nil:
		return usageErrorf("Parquet cannot be read from %s: give the file name", in.name)
	case in.format == Parquet && in.gzip:
		return usageErrorf("%s: Parquet files are compressed inside; gunzip it first", in.name)
	case in.format == Text && r.opt.Column != "":
		return usageErrorf("%s is read as text (one value per line), so --column does not apply; "+
			"use --input-format csv or tsv to read it as a table", in.name)
	}
	return r.resolveColumn(in)
}

func formatOf(base string) string {
	switch filepath.Ext(base) {
	case ".csv":
		return CSV
	case ".tsv", ".tab":
		return TSV
	case ".parquet", ".pq":
		return Parquet
	}
	return Text
}

// resolveColumn finds the column of a table input before reading starts,
// so that a wrong --column fails before any output. Stdin's header is
// read when the stream starts.
func (r *Reader) resolveColumn(in *input) error {
	switch {
	case in.format == Text || in.src != nil:
		return nil
	case in.format == Parquet:
		if r.pq == nil {
			db, err := openParquetDB()
			if err != nil {
				return err
			}
			r.pq = db
		}
		names, sqlNames, types, err := r.pq.columns(in.path)
		if err != nil {
			return err
		}
		if in.col, err = pickColumn(in.name, names, in.colRaw); err != nil {
			return err
		}
		in.colName = sqlNames[in.col]
		if t := types[in.col]; t != "VARCHAR" {
			return usageErrorf("%s: column %q is %s, not text (VARCHAR)", in.name, names[in.col], t)
		}
		return nil
	}
	f, err := os.Open(in.path)
	if err != nil {
		return err
	}
	defer f.Close()
	src, err := r.decompress(in, f)
	if err != nil {
		return err
	}
	_, err = openTable(in, src, r.opt)
	return err
}

// pickColumn resolves a --column value against a header. A name picks
// the column of that exact name, or else of that name in another case;
// a name that fits several columns is an error that lists them (never
// the first one silently), and so is a header with several "url" columns
// when --column is not given.
func pickColumn(input string, names []string, spec string) (int, error) {
	if spec == "" {
		if len(names) == 1 {
			return 0, nil
		}
		switch urls := columnsNamed(names, "url", strings.EqualFold); len(urls) {
		case 1:
			return urls[0], nil
		case 0:
			return 0, usageErrorf("%s has columns %s and none is named \"url\": pick one with --column NAME or --column N (1-based)", input, quoteAll(names))
		default:
			return 0, usageErrorf("%s has %s named \"url\": pick one with --column N (1-based)", input, columnList(names, urls))
		}
	}
	if n, err := strconv.Atoi(spec); err == nil {
		if n < 1 || n > len(names) {
			return 0, usageErrorf("%s: --column %d is out of range: it has %d columns (%s)", input, n, len(names), quoteAll(names))
		}
		return n - 1, nil
	}
	exact := columnsNamed(names, spec, func(a, b string) bool { return a == b })
	switch len(exact) {
	case 1:
		return exact[0], nil
	case 0:
	default:
		return 0, usageErrorf("%s: --column %q names %s: pick one with --column N (1-based)", input, spec, columnList(names, exact))
	}
	switch fold := columnsNamed(names, spec, strings.EqualFold); len(fold) {
	case 1:
		return fold[0], nil
	case 0:
		return 0, usageErrorf("%s has no column %q; its columns are %s", input, spec, quoteAll(names))
	default:
		return 0, usageErrorf("%s: --column %q matches %s in other cases; spell it exactly or give the number", input, spec, columnList(names, fold))
	}
}

// columnsNamed returns the indexes of the names that match name.
func columnsNamed(names []string, name string, match func(a, b string) bool) []int {
	var idx []int
	for i, n := range names {
		if match(n, name) {
			idx = append(idx, i)
		}
	}
	return idx
}

// columnList describes some of the columns by number and name:
// `columns 1 ("a") and 3 ("a")`.
func columnList(names []string, idx []int) string {
	parts := make([]string, len(idx))
	for i, c := range idx {
		parts[i] = strconv.Itoa(c+1) + " (" + strconv.Quote(names[c]) + ")"
	}
	last := len(parts) - 1
	return "columns " + strings.Join(parts[:last], ", ") + " and " + parts[last]
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// Progress reports the bytes consumed so far and the total (-1 when a
// size is unknown, e.g. a pipe), and the values read.
func (r *Reader) Progress() (done, total, values int64) {
	return r.done.Load(), r.total, r.values.Load()
}

// Close releases the resources of the reader (the Parquet engine).
func (r *Reader) Close() error {
	if r.pq != nil {
		return r.pq.close()
	}
	return nil
}

// Each emits the values of every input, in order, in batches. emit owns
// the batch (and must Release it); it returns false to stop reading.
func (r *Reader) Each(emit func(*Batch) bool) error {
	for _, in := range r.inputs {
		before := r.done.Load()
		more, err := r.each(in, emit)
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
		if in.size >= 0 {
			r.done.Store(before + in.size) // gzip trailers, Parquet rounding
		}
	}
	return nil
}

func (r *Reader) each(in *input, emit func(*Batch) bool) (bool, error) {
	count := func(b *Batch) bool {
		r.values.Add(int64(b.Len()))
		return emit(b)
	}
	if in.format == Parquet {
		return r.pq.each(in, r.opt, &r.done, count)
	}
	f := in.src
	if f == nil {
		file, err := os.Open(in.path)
		if err != nil {
			return false, err
		}
		defer file.Close()
		f = file
	}
	src, err := r.decompress(in, &countingReader{r: f, n: &r.done, size: in.size})
	if err != nil {
		return false, err
	}
	if in.format == Text {
		return readText(in, src, r.opt.MaxValue, count)
	}
	t, err := openTable(in, src, r.opt)
	if err != nil {
		return false, err
	}
	return t.each(count)
}

// ShortReadError reports an input that ended before the size it had when
// reading started: it was truncated (or replaced) while it was read. The
// line or record it cuts is not emitted; the ones after it are missing.
// The error comes wrapped with the input's name (and line).
type ShortReadError struct {
	Size, Read int64 // bytes: the size at the start, and what could be read
}

func (e *ShortReadError) Error() string {
	return fmt.Sprintf("the input ended early: %d of its %d bytes were read (was it truncated while being read?); "+
		"the rows from here on are missing", e.Read, e.Size)
}

func (r *Reader) decompress(in *input, src io.Reader) (io.Reader, error) {
	if !in.gzip {
		return src, nil
	}
	z, err := gzip.NewReader(src)
	if err != nil {
		return nil, fmt.Errorf("%s: the .gz name says gzip, but %v (if it is not compressed, rename it)", in.name, err)
	}
	return z, nil
}

// countingReader adds the bytes it reads to n (the progress of all
// inputs), and turns the end of an input that is shorter than its size
// (-1: unknown) into a *ShortReadError: the readers above then report a
// read error instead of taking a cut line for a whole one.
type countingReader struct {
	r    io.Reader
	n    *atomic.Int64
	size int64
	read int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += int64(n)
	c.n.Add(int64(n))
	if err == io.EOF && c.read < c.size {
		err = &ShortReadError{Size: c.size, Read: c.read}
	}
	return n, err
}
