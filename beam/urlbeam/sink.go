package urlbeam

import (
	"bufio"
	"context"
	"fmt"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/parquetio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/urlnorm/urlnorm/internal/cliio"
	"github.com/urlnorm/urlnorm/normalize"
)

// Output formats of the sinks.
const (
	FormatText    = "text"    // the result only, one line per row
	FormatTSV     = "tsv"     // header, then input <TAB> result (cliio's TSV escapes)
	FormatCSV     = "csv"     // header, then input,result (RFC 4180)
	FormatJSONL   = "jsonl"   // one JSON object per row
	FormatParquet = "parquet" // columns input and the result
)

// Formats lists the output formats of WriteResults.
var Formats = []string{FormatText, FormatTSV, FormatCSV, FormatJSONL, FormatParquet}

// ShardName is the name of shard i of n: prefix-00003-of-00016.suffix.
func ShardName(prefix string, i, n int, suffix string) string {
	return fmt.Sprintf("%s-%05d-of-%05d%s", prefix, i, n, suffix)
}

// column names the result of op in headers and JSON: url, hash, record.
func column(op string) string {
	switch op {
	case OpHash:
		return "hash"
	case OpCanonicalize:
		return "record"
	}
	return "url"
}

// WriteResults writes the results of op (PCollection<Result>) to shards
// prefix-SSSSS-of-NNNNN.<format> in format. Rows are spread over the
// shards by a hash of their content and are in no particular order; each
// text, TSV and CSV shard has its own header. A NULL input (Parquet)
// gives an empty line (text), empty fields (TSV, CSV) or nulls (JSON,
// Parquet). Parquet shards that get no rows are not written.
func WriteResults(s beam.Scope, prefix, format, op string, shards int, results beam.PCollection) {
	s = s.Scope("urlbeam.WriteResults")
	filesystem.ValidateScheme(prefix)
	col := column(op)
	shards = max(shards, 1)
	if format == FormatParquet {
		switch op {
		case OpHash:
			writeParquet(s, prefix, shards, beam.ParDo(s, &hashParquetFn{shards}, results), hashShard)
		case OpCanonicalize:
			writeParquet(s, prefix, shards, beam.ParDo(s, &recordParquetFn{shards}, results), recordShard)
		default:
			writeParquet(s, prefix, shards, beam.ParDo(s, &urlParquetFn{shards}, results), urlShard)
		}
		return
	}
	header := map[string]string{FormatTSV: "input\t" + col, FormatCSV: "input," + col}[format]
	lines := beam.ParDo(s, &resultLineFn{Format: format, Column: col}, results)
	WriteLines(s, prefix, "."+format, header, shards, lines)
}

type resultLineFn struct{ Format, Column string }

func (f *resultLineFn) ProcessElement(r Result) string {
	var b []byte
	switch f.Format {
	case FormatTSV:
		if !r.Null {
			b = cliio.AppendTSV(cliio.AppendTSV(b, r.Input), "")
		}
		b = append(b, '\t')
		b = cliio.AppendTSV(b, r.Value)
	case FormatCSV:
		if !r.Null {
			b = cliio.AppendCSV(b, r.Input)
		}
		b = append(b, ',')
		b = cliio.AppendCSV(b, r.Value)
	case FormatJSONL:
		b = append(b, `{"input":`...)
		b = appendJSONOrNull(b, r.Input, r.Null)
		b = append(b, `,"`+f.Column+`":`...)
		if f.Column == "record" && !r.Null {
			b = append(b, r.Value...) // already JSON
		} else {
			b = appendJSONOrNull(b, r.Value, r.Null)
		}
		b = append(b, '}')
	default:
		b = append(b, r.Value...)
	}
	return string(b)
}

func appendJSONOrNull(b []byte, s string, null bool) []byte {
	if null {
		return append(b, "null"...)
	}
	return cliio.AppendJSON(b, s)
}

// WriteInvalid writes the invalid rows (PCollection<Invalid>) as JSON
// lines {"where","input","error","message"} to shards
// prefix-SSSSS-of-NNNNN.jsonl.
func WriteInvalid(s beam.Scope, prefix string, shards int, invalid beam.PCollection) {
	s = s.Scope("urlbeam.WriteInvalid")
	WriteLines(s, prefix, ".jsonl", "", shards, beam.ParDo(s, invalidLine, invalid))
}

func invalidLine(r Invalid) string {
	b := []byte(`{"where":`)
	b = cliio.AppendJSON(b, r.Where)
	b = append(b, `,"input":`...)
	b = cliio.AppendJSON(b, r.Input)
	b = append(b, `,"error":`...)
	b = cliio.AppendJSON(b, r.Kind)
	b = append(b, `,"message":`...)
	b = cliio.AppendJSON(b, r.Error)
	return string(append(b, '}'))
}

// WriteGroups writes Dedup's groups sharded and unordered, for more
// groups than one worker holds: JSON lines {"count","url","hash",
// "examples"} (format jsonl) or Parquet columns count, url, hash,
// examples (a list).
func WriteGroups(s beam.Scope, spec Spec, prefix, format string, shards int, groups beam.PCollection) {
	s = s.Scope("urlbeam.WriteGroups")
	filesystem.ValidateScheme(prefix)
	shards = max(shards, 1)
	if format == FormatParquet {
		writeParquet(s, prefix, shards, beam.ParDo(s, &groupParquetFn{Spec: spec, Shards: shards}, groups), groupShard)
		return
	}
	WriteLines(s, prefix, ".jsonl", "", shards, beam.ParDo(s, &groupLineFn{Spec: spec}, groups))
}

type groupLineFn struct {
	Spec Spec
	n    *normalize.Normalizer
}

func (f *groupLineFn) Setup() (err error) {
	f.n, err = f.Spec.Normalizer()
	return err
}

func (f *groupLineFn) ProcessElement(g Group) string {
	b := []byte(`{"count":`)
	b = strconv.AppendInt(b, g.Count, 10)
	b = append(b, `,"url":`...)
	b = cliio.AppendJSON(b, g.URL)
	b = append(b, `,"hash":`...)
	b = cliio.AppendJSON(b, f.n.HashCanonical(g.URL))
	b = append(b, `,"examples":[`...)
	for i, ex := range g.Examples {
		if i > 0 {
			b = append(b, ',')
		}
		b = cliio.AppendJSON(b, ex)
	}
	return string(append(b, "]}"...))
}

// WriteLines writes lines (PCollection<string>, without their '\n') to
// shards prefix-SSSSS-of-NNNNN<suffix>, each starting with header (unless
// it is empty). Every shard is written, an empty one too, so a reader
// sees n files. A line goes to the shard its hash picks; each bundle
// sends a shard's lines as batches of about chunkBytes, and one worker
// writes each shard, streaming it.
func WriteLines(s beam.Scope, prefix, suffix, header string, shards int, lines beam.PCollection) {
	s = s.Scope("urlbeam.WriteLines")
	shards = max(shards, 1)
	ids := make([]int, shards)
	for i := range ids {
		ids[i] = i
	}
	keyed := beam.ParDo(s, &shardFn{Shards: shards}, lines)
	all := beam.ParDo(s, shardKey, beam.CreateList(s, ids))
	grouped := beam.CoGroupByKey(s, all, keyed)
	beam.ParDo0(s, &writeShardFn{Prefix: prefix, Suffix: suffix, Header: header, Shards: shards}, grouped)
}

// shardFn batches a bundle's lines by shard: each batch is lines ended by
// '\n'. A bundle holds at most chunkBytes of lines before it sends them.
type shardFn struct {
	Shards int
	held   [][]byte
	size   int
}

func (f *shardFn) StartBundle(func(int, []byte)) { f.held, f.size = make([][]byte, f.Shards), 0 }

func (f *shardFn) ProcessElement(line string, emit func(int, []byte)) {
	i := shardOf(line, f.Shards)
	f.held[i] = append(append(f.held[i], line...), '\n')
	if f.size += len(line) + 1; f.size >= chunkBytes {
		f.FinishBundle(emit)
	}
}

func (f *shardFn) FinishBundle(emit func(int, []byte)) {
	for i, b := range f.held {
		if len(b) > 0 {
			emit(i, b)
			f.held[i] = nil // emitted: no longer ours
		}
	}
	f.size = 0
}

func shardKey(i int) (int, bool) { return i, true }

type writeShardFn struct {
	Prefix, Suffix, Header string
	Shards                 int
}

func (f *writeShardFn) ProcessElement(ctx context.Context, shard int, _ func(*bool) bool, batches func(*[]byte) bool) error {
	path := ShardName(f.Prefix, shard, f.Shards, f.Suffix)
	return writeFile(ctx, path, func(w writer) error {
		bw := bufio.NewWriterSize(w, 256<<10)
		if f.Header != "" {
			bw.WriteString(f.Header + "\n")
		}
		var b []byte
		for batches(&b) {
			if _, err := bw.Write(b); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
}

// Parquet rows: optional (nullable) UTF-8 columns.
type (
	urlParquet struct {
		Input *string `parquet:"name=input, type=BYTE_ARRAY, convertedtype=UTF8, repetitiontype=OPTIONAL"`
		URL   *string `parquet:"name=url, type=BYTE_ARRAY, convertedtype=UTF8, repetitiontype=OPTIONAL"`
	}
	hashParquet struct {
		Input *string `parquet:"name=input, type=BYTE_ARRAY, convertedtype=UTF8, repetitiontype=OPTIONAL"`
		Hash  *string `parquet:"name=hash, type=BYTE_ARRAY, convertedtype=UTF8, repetitiontype=OPTIONAL"`
	}
	recordParquet struct {
		Input  *string `parquet:"name=input, type=BYTE_ARRAY, convertedtype=UTF8, repetitiontype=OPTIONAL"`
		Record *string `parquet:"name=record, type=BYTE_ARRAY, convertedtype=UTF8, repetitiontype=OPTIONAL"`
	}
	groupParquet struct {
		Count    int64    `parquet:"name=count, type=INT64"`
		URL      string   `parquet:"name=url, type=BYTE_ARRAY, convertedtype=UTF8"`
		Hash     string   `parquet:"name=hash, type=BYTE_ARRAY, convertedtype=UTF8"`
		Examples []string `parquet:"name=examples, type=LIST, valuetype=BYTE_ARRAY, valueconvertedtype=UTF8"`
	}
)

// The Parquet writers' inputs: rows keyed by shard (spread by input order).
type urlParquetFn struct{ Shards int }

func (f *urlParquetFn) ProcessElement(r Result) (int, urlParquet) {
	in, v := nullable(r)
	return resultShard(r, f.Shards), urlParquet{in, v}
}

type hashParquetFn struct{ Shards int }

func (f *hashParquetFn) ProcessElement(r Result) (int, hashParquet) {
	in, v := nullable(r)
	return resultShard(r, f.Shards), hashParquet{in, v}
}

type recordParquetFn struct{ Shards int }

func (f *recordParquetFn) ProcessElement(r Result) (int, recordParquet) {
	in, v := nullable(r)
	return resultShard(r, f.Shards), recordParquet{in, v}
}

func nullable(r Result) (in, v *string) {
	if r.Null {
		return nil, nil
	}
	return &r.Input, &r.Value
}

func resultShard(r Result, shards int) int {
	return int((uint64(r.File)<<40 ^ uint64(r.Seq)) % uint64(shards))
}

type groupParquetFn struct {
	Spec   Spec
	Shards int
	n      *normalize.Normalizer
}

func (f *groupParquetFn) Setup() (err error) {
	f.n, err = f.Spec.Normalizer()
	return err
}

func (f *groupParquetFn) ProcessElement(g Group) (int, groupParquet) {
	return shardOf(g.URL, f.Shards), groupParquet{Count: g.Count, URL: g.URL, Hash: f.n.HashCanonical(g.URL), Examples: g.Examples}
}

// The partition functions of writeParquet: the row's key. (One per row
// type: Beam names registered functions without their type parameters.)
func urlShard(shard int, _ urlParquet) int       { return shard }
func hashShard(shard int, _ hashParquet) int     { return shard }
func recordShard(shard int, _ recordParquet) int { return shard }
func groupShard(shard int, _ groupParquet) int   { return shard }

// writeParquet writes rows (PCollection<KV<int, T>>, T a Parquet row
// type, the key its shard) with parquetio.Write, one writer per shard;
// partition is the function of T.
func writeParquet(s beam.Scope, prefix string, shards int, rows beam.PCollection, partition any) {
	for i, p := range beam.Partition(s, shards, partition, rows) {
		parquetio.Write(s, ShardName(prefix, i, shards, ".parquet"), beam.DropKey(s, p))
	}
}

func init() {
	register.DoFn1x1[Result, string](&resultLineFn{})
	register.Function1x1(invalidLine)
	register.DoFn1x1[Group, string](&groupLineFn{})
	register.DoFn2x0[string, func(int, []byte)](&shardFn{})
	register.Function1x2(shardKey)
	register.DoFn4x1[context.Context, int, func(*bool) bool, func(*[]byte) bool, error](&writeShardFn{})
	register.Iter1[bool]()
	register.DoFn1x2[Result, int, urlParquet](&urlParquetFn{})
	register.DoFn1x2[Result, int, hashParquet](&hashParquetFn{})
	register.DoFn1x2[Result, int, recordParquet](&recordParquetFn{})
	register.DoFn1x2[Group, int, groupParquet](&groupParquetFn{})
	register.Function2x1(urlShard)
	register.Function2x1(hashShard)
	register.Function2x1(recordShard)
	register.Function2x1(groupShard)
}
