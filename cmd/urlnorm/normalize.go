package main

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/urlnorm/urlnorm/internal/cliio"
	"github.com/urlnorm/urlnorm/normalize"
)

// rowCommand is a command that writes one output row per input value:
// normalize, hash and linktype. They differ only in the value they
// compute, which is what the SQL function of the same purpose returns.
type rowCommand struct {
	name    string
	summary string
	result  string // the result's column in TSV/CSV/JSON: url, hash or link_type
	help    help
	value   func(n *normalize.Normalizer, dst []byte, in string) ([]byte, error)
}

func init() {
	register(rowCmd(&rowCommand{
		name:    "normalize",
		summary: "canonical URL of each input line/row (normalize_url)",
		result:  "url",
		help: help{
			synopsis: "normalize [flags] [FILE…|-]",
			about: `Writes the canonical URL of every input, one output row per input line
(text files) or row (CSV, TSV, Parquet), in input order — what normalize_url
returns in SQL. Files are streamed in constant memory on every core; .gz
files are decompressed. With no FILE, or with -, it reads stdin.

An invalid input never stops the stream: its row has an empty result and
the error kind (invalid_host, missing_scheme, too_long …) in the tsv, csv
and jsonl formats, and the first ones are listed on stderr with their line
numbers, followed by a count per kind. --strict turns them into exit
status 1.

Output formats (--format):
  text   the canonical URL (an empty line for an invalid input)
  tsv    header "input<TAB>url<TAB>error", then one row per input; TAB, LF,
         CR and \ inside a field are written \t \n \r \\
  csv    the same columns as CSV (RFC 4180 quoting)
  jsonl  {"input","url","hash","link_type","error"} per input; url, hash and
         link_type are normalize_url, canonical_hash and url_link_type (null
         where the function fails); error is the kind of the url's failure;
         a Parquet NULL gives a row of nulls`,
			examples: `echo 'HTTP://Example.COM:80/a/../b/?z=1&a=2#x' | urlnorm normalize
urlnorm normalize --profile rfc3986 urls.txt > canonical.txt
urlnorm normalize --format jsonl --column link crawl.csv
urlnorm normalize --format tsv --column url pages.parquet | head
urlnorm normalize --strict -q urls.txt.gz > /dev/null || echo "some URLs are invalid"
urlnorm normalize --config my-profile.yaml urls.txt`,
			exit: exitStatusFiles,
		},
		value: func(n *normalize.Normalizer, dst []byte, in string) ([]byte, error) {
			return n.AppendNormalized(dst, in)
		},
	}))
}

func rowCmd(c *rowCommand) *command {
	return &command{name: c.name, summary: c.summary, run: c.run}
}

func (c *rowCommand) run(args []string, e *env) int {
	fs := newFlags(c.name, c.help)
	var pf profileFlags
	var inf inputFlags
	pf.register(fs)
	inf.register(fs, true)
	format := fs.String("format", cliio.OutText, "output `format`: text, tsv, csv or jsonl")
	paths, code, ok := parseFlags(fs, args, e)
	if !ok {
		return code
	}
	if !slices.Contains(cliio.OutFormats, *format) {
		return usageError(e, c.name, "unknown --format %q (want %s)", *format, strings.Join(cliio.OutFormats, ", "))
	}
	n, err := pf.load(fs)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlnorm %s: %v\n", c.name, err)
		return exitUsage
	}
	s, code, ok := openStream(c.name, e, &inf, paths, n)
	if !ok {
		return code
	}
	switch *format {
	case cliio.OutTSV:
		s.out.WriteString("input\t" + c.result + "\terror\n")
	case cliio.OutCSV:
		s.out.WriteString("input," + c.result + ",error\n")
	}
	err = streamRun(s, func(b *cliio.Batch) *rowsOut { return c.batch(b, n, *format) },
		func(o *rowsOut) error {
			s.tally(o.inputs, o.nulls, o.is)
			_, err := s.out.Write(o.buf)
			o.release()
			return err
		})
	return s.finish(err)
}

// rowsOut is the output of one batch.
type rowsOut struct {
	buf           []byte
	inputs, nulls int
	is            issues
	scratch       []byte
}

var rowsPool = sync.Pool{New: func() any { return &rowsOut{buf: make([]byte, 0, 128<<10)} }}

func (o *rowsOut) release() {
	o.buf, o.inputs, o.nulls, o.is = o.buf[:0], 0, 0, issues{}
	rowsPool.Put(o)
}

// batch formats one batch of rows.
func (c *rowCommand) batch(b *cliio.Batch, n *normalize.Normalizer, format string) *rowsOut {
	o := rowsPool.Get().(*rowsOut)
	o.inputs = b.Len()
	for i := range b.Len() {
		in := b.Value(i)
		if b.Null(i) {
			o.nulls++
			o.buf = appendNullRow(o.buf, format)
			continue
		}
		err := b.Err(i)
		switch format {
		case cliio.OutText:
			if err == nil {
				o.buf, err = c.value(n, o.buf, in)
			}
			o.buf = append(o.buf, '\n')
		case cliio.OutJSONL:
			o.buf, err = c.appendJSON(o.buf, n, in, err)
		default:
			o.scratch = o.scratch[:0]
			if err == nil {
				o.scratch, err = c.value(n, o.scratch, in)
			}
			o.buf = appendRow(o.buf, format, in, bstr(o.scratch), normalize.KindOf(err))
		}
		if err != nil {
			o.is.add(b.Pos(i), err)
		}
	}
	b.Release()
	return o
}

// appendRow appends a TSV or CSV row: input, result, error kind.
func appendRow(dst []byte, format, in, result, kind string) []byte {
	field, sep := cliio.AppendCSV, byte(',')
	if format == cliio.OutTSV {
		field, sep = cliio.AppendTSV, '\t'
	}
	dst = field(dst, in)
	dst = append(dst, sep)
	dst = field(dst, result)
	dst = append(dst, sep)
	dst = append(dst, kind...)
	return append(dst, '\n')
}

func appendNullRow(dst []byte, format string) []byte {
	switch format {
	case cliio.OutJSONL:
		return append(dst, `{"input":null,"url":null,"hash":null,"link_type":null,"error":null}`+"\n"...)
	case cliio.OutTSV:
		return append(dst, "\t\t\n"...)
	case cliio.OutCSV:
		return append(dst, ",,\n"...)
	}
	return append(dst, '\n')
}

// appendJSON appends the JSON line of one input. Each field is what its
// SQL function returns (null where it fails); error is the kind of the
// command's own failure. pre is a reading problem (missing, truncated).
func (c *rowCommand) appendJSON(dst []byte, n *normalize.Normalizer, in string, pre error) ([]byte, error) {
	var url []byte
	urlErr, ltErr := pre, pre
	var lt string
	if pre == nil {
		url, urlErr = n.AppendNormalized(nil, in)
		lt, ltErr = normalize.ClassifyURL(in)
	}
	dst = append(dst, `{"input":`...)
	dst = cliio.AppendJSON(dst, in)
	dst = append(dst, `,"url":`...)
	dst = appendJSONOrNull(dst, bstr(url), urlErr)
	dst = append(dst, `,"hash":`...)
	if urlErr == nil {
		dst = appendJSONOrNull(dst, n.HashCanonical(bstr(url)), nil)
	} else {
		dst = append(dst, "null"...)
	}
	dst = append(dst, `,"link_type":`...)
	dst = appendJSONOrNull(dst, lt, ltErr)
	err := urlErr
	if c.result == "link_type" {
		err = ltErr
	}
	dst = append(dst, `,"error":`...)
	if err == nil {
		dst = append(dst, "null"...)
	} else {
		dst = cliio.AppendJSON(dst, normalize.KindOf(err))
	}
	return append(dst, "}\n"...), err
}

func appendJSONOrNull(dst []byte, s string, err error) []byte {
	if err != nil {
		return append(dst, "null"...)
	}
	return cliio.AppendJSON(dst, s)
}

// bstr views b as a string without copying; b must not change while the
// string is in use.
func bstr(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
