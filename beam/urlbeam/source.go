package urlbeam

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // plain paths
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/urlnorm/urlnorm/internal/cliio"
	"github.com/urlnorm/urlnorm/normalize"
)

// Row is one input value, as the urlnorm command reads it.
type Row struct {
	// File is the index of the row's file in the pipeline's input list,
	// Seq the row's index among the file's values: together, input order.
	File int32
	Seq  int64
	// Where names the row for messages: "urls.txt:12", "pages.parquet row 3".
	Where string
	Value string
	// Null is a Parquet NULL (SQL: NULL in, NULL out; not an error).
	Null bool
	// Err is a reading problem's error kind (too_long: Value is the cut
	// value's start; missing_field; csv_syntax), "" when none, and
	// ErrText its message.
	Err, ErrText string
}

// ReadOptions say how to read the inputs: cliio's options (input format
// or by extension, --column, --no-header, the longest value kept whole).
type ReadOptions = cliio.Options

// OptionsFor returns the options `urlnorm` uses with the profile of
// spec: the longest value kept whole is 1 MiB, or the profile's
// limits.max_length if larger.
func OptionsFor(spec Spec, opt ReadOptions) (ReadOptions, error) {
	n, err := spec.Normalizer()
	if err != nil {
		return opt, err
	}
	opt.MaxValue = max(opt.MaxValue, cliio.DefaultMaxValue, n.Profile().Limits.MaxLength)
	return opt, nil
}

// inputFile is a file to read and its place in the input list.
type inputFile struct {
	Index int32
	Path  string
}

// Match expands the input patterns at pipeline construction, in the
// order given, each pattern's files sorted by name (as a shell expands a
// glob): that order is the input order of Dedup's examples. A pattern
// that matches nothing is an error, as a missing file is for urlnorm.
func Match(ctx context.Context, patterns []string) ([]string, error) {
	var files []string
	for _, p := range patterns {
		fs, err := filesystem.New(ctx, p)
		if err != nil {
			return nil, err
		}
		list, err := fs.List(ctx, p)
		fs.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		if len(list) == 0 {
			return nil, fmt.Errorf("%s: no such file", p)
		}
		slices.Sort(list)
		files = append(files, list...)
	}
	return files, nil
}

// Check opens the local files of the list with urlnorm's reader, which
// checks them as the command does before reading any: each exists, is
// not a directory, has a known format and the column. Remote files
// (gs://, s3://) are checked when they are read.
func Check(files []string, opt ReadOptions) error {
	var local []string
	for _, f := range files {
		if !remote(f) {
			local = append(local, f)
		}
	}
	if len(local) == 0 {
		return nil
	}
	r, err := cliio.Open(local, nil, opt)
	if err != nil {
		return err
	}
	return r.Close()
}

// Read returns the rows of files (see Match) read by the rules of the
// urlnorm command: text one value per line (a byte order mark removed
// only at the start of a file, CRLF line ends, an empty line an empty
// value), CSV with RFC 4180 quoting or TSV with the column, Parquet's
// column with NULLs, gzip by extension. A file is read by one worker,
// from its start (that is what makes "only at the start of a file"
// exact), so a pipeline reads as many files in parallel as it has.
func Read(s beam.Scope, files []string, opt ReadOptions) beam.PCollection {
	s = s.Scope("urlbeam.Read")
	list := make([]inputFile, len(files))
	for i, f := range files {
		list[i] = inputFile{Index: int32(i), Path: f}
	}
	col := beam.CreateList(s, list)
	return beam.ParDo(s, &readFn{Opt: opt}, beam.Reshuffle(s, col))
}

type readFn struct {
	Opt cliio.Options
}

func (f *readFn) ProcessElement(ctx context.Context, in inputFile, emit func(Row)) error {
	path := in.Path
	if remote(path) {
		local, err := fetch(ctx, path)
		if err != nil {
			return err
		}
		defer os.RemoveAll(filepath.Dir(local))
		path = local
	}
	r, err := cliio.Open([]string{path}, nil, f.Opt)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Path, err)
	}
	defer r.Close()
	var seq int64
	return r.Each(func(b *cliio.Batch) bool {
		b.Input = in.Path // messages name the file the user gave
		for i := range b.Len() {
			row := Row{File: in.Index, Seq: seq, Where: b.Pos(i), Null: b.Null(i), Value: strings.Clone(b.Value(i))}
			if err := b.Err(i); err != nil {
				row.Err, row.ErrText = normalize.KindOf(err), err.Error()
			}
			emit(row)
			seq++
		}
		b.Release()
		return true
	})
}

// remote reports a path with a scheme (gs://, s3://, …): not a local file.
func remote(path string) bool { return strings.Contains(path, "://") }

// fetch copies a remote file into a new local directory, under its own
// base name (which tells its format and compression).
func fetch(ctx context.Context, path string) (string, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return "", err
	}
	defer fs.Close()
	src, err := fs.OpenRead(ctx, path)
	if err != nil {
		return "", err
	}
	defer src.Close()
	dir, err := os.MkdirTemp("", "urlbeam-")
	if err != nil {
		return "", err
	}
	local := filepath.Join(dir, filepath.Base(path))
	dst, err := os.Create(local)
	if err == nil {
		_, err = io.Copy(dst, src)
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("copying %s: %w", path, err)
	}
	return local, nil
}

func init() {
	register.DoFn3x1[context.Context, inputFile, func(Row), error](&readFn{})
	register.Emitter1[Row]()
}
