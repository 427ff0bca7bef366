package main

// Shared by the file commands (normalize, hash, linktype, dedup, diff):
// flag parsing with help and examples, the input flags, and the streaming
// run — inputs read in batches, processed on every core, results handled
// in input order, invalid inputs tallied and reported on stderr, a progress
// bar on a terminal.

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/urlnorm/urlnorm/internal/cliio"
	"github.com/urlnorm/urlnorm/internal/pipeline"
	"github.com/urlnorm/urlnorm/internal/profileload"
	"github.com/urlnorm/urlnorm/internal/progress"
	"github.com/urlnorm/urlnorm/normalize"
)

// exitStatusFiles is the exit status text of the commands with --strict.
const exitStatusFiles = `Exit status: 0 success; 1 some input was invalid and --strict was given;
2 usage error (bad flag, unknown profile, missing column); 3 a file could
not be read completely or the output could not be written.`

// inputFlags are the flags of every command that reads inputs.
type inputFlags struct {
	opt        cliio.Options
	strict     bool
	quiet      bool
	noProgress bool
	jobs       int
}

// register adds the flags; strict adds --strict (not for diff, where
// invalid inputs are part of the report).
func (f *inputFlags) register(fs *flag.FlagSet, strict bool) {
	fs.StringVar(&f.opt.Column, "column", "", "CSV/TSV/Parquet column: a header `name` or a 1-based number (default: the only column, or the one named url)")
	fs.StringVar(&f.opt.Format, "input-format", "", "read inputs as `format`: text, csv, tsv or parquet (default: by file extension; stdin is text)")
	fs.BoolVar(&f.opt.NoHeader, "no-header", false, "CSV/TSV inputs have no header row (then --column is a number)")
	if strict {
		fs.BoolVar(&f.strict, "strict", false, "exit with status 1 if any input is invalid (the stream still runs to the end)")
	}
	fs.BoolVar(&f.quiet, "q", false, "quiet: do not list invalid inputs on stderr")
	fs.BoolVar(&f.noProgress, "no-progress", false, "never draw the progress bar (it is only drawn on a terminal, for runs over a second)")
	fs.IntVar(&f.jobs, "jobs", runtime.GOMAXPROCS(0), "`n` worker goroutines")
}

// profileFlags select a profile: --profile NAME|FILE, and --config
// FILE… (a profile file, or configuration files applied on top of the
// profile).
type profileFlags struct {
	profile string
	configs listFlag
}

func (f *profileFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.profile, "profile", "default", "profile `name` (see 'urlnorm profiles'), or a profile or configuration file")
	fs.Var(&f.configs, "config", "a `file` to load, repeatable: a profile (JSON or YAML, as 'urlnorm profiles show' prints it), "+
		"or configuration applied on top of --profile (default: the profile the format belongs to): "+
		"curious-now overrides JSON, Edge Gateway tracking_params YAML, clara host map / language JSON")
}

func (f *profileFlags) load(fs *flag.FlagSet) (*normalize.Normalizer, error) {
	if len(f.configs) == 0 {
		return profileload.Load(f.profile)
	}
	base := ""
	if flagSet(fs, "profile") {
		base = f.profile
	}
	return profileload.Select(base, f.configs)
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// maxValue is the longest input kept whole: the reader's default, or more
// when a profile accepts longer URLs.
func maxValue(ns ...*normalize.Normalizer) int {
	m := cliio.DefaultMaxValue
	for _, n := range ns {
		m = max(m, n.Profile().Limits.MaxLength)
	}
	return m
}

// maxShown is how many invalid inputs are listed on stderr.
const maxShown = 10

// issues collects the invalid inputs of one batch.
type issues struct {
	counts map[string]int64 // by error kind
	shown  []string         // the first few, as messages
}

func (is *issues) add(pos string, err error) {
	if is.counts == nil {
		is.counts = map[string]int64{}
	}
	is.counts[normalize.KindOf(err)]++
	if len(is.shown) < maxShown {
		is.shown = append(is.shown, pos+": "+describe(err))
	}
}

// describe says why an input is invalid: kind, reason and the input.
func describe(err error) string {
	var ne *normalize.Error
	if !errors.As(err, &ne) {
		return err.Error()
	}
	s := ne.Kind.Code
	if ne.Reason != "" {
		s += " (" + ne.Reason + ")"
	}
	if ne.Op != "read" || ne.Input != "" {
		s += ": " + normalize.Quote(ne.Input)
	}
	return s
}

// stream is one run of a file command.
type stream struct {
	name   string
	e      *env
	flags  *inputFlags
	reader *cliio.Reader
	bar    *progress.Bar // also the writer for stderr messages
	out    *bufio.Writer

	inputs, nulls int64
	invalid       map[string]int64
	shown         int
}

// openStream checks the inputs and starts the progress bar. ok false
// means: return code.
func openStream(name string, e *env, f *inputFlags, paths []string, ns ...*normalize.Normalizer) (s *stream, code int, ok bool) {
	f.opt.MaxValue = maxValue(ns...)
	r, err := cliio.Open(paths, e.stdin, f.opt)
	if err != nil {
		return nil, fileError(e, name, err), false
	}
	s = &stream{name: name, e: e, flags: f, reader: r, invalid: map[string]int64{},
		out: bufio.NewWriterSize(outWriter{e.stdout}, 256<<10)}
	if f.noProgress {
		s.bar = progress.Off(e.stderr)
	} else {
		s.bar = progress.Start(e.stderr, "urlnorm "+name, func() progress.Stat {
			done, total, values := r.Progress()
			return progress.Stat{Done: done, Total: total, Items: values}
		})
	}
	return s, 0, true
}

// streamRun streams every batch through work (in parallel) and sink (in order).
// The sink must record each batch's counts with s.tally.
func streamRun[O any](s *stream, work func(*cliio.Batch) O, sink func(O) error) error {
	st := pipeline.Stage[*cliio.Batch, O]{
		Workers: s.flags.jobs,
		Depth:   4 * max(s.flags.jobs, 1),
		Work:    work,
		Sink:    sink,
		Idle:    s.out.Flush,
	}
	err := st.Run(s.reader.Each)
	if ferr := s.out.Flush(); err == nil && ferr != nil {
		err = ferr
	}
	return err
}

// tally records one batch's counts and lists its first invalid inputs.
func (s *stream) tally(inputs, nulls int, is issues) {
	s.inputs += int64(inputs)
	s.nulls += int64(nulls)
	for k, n := range is.counts {
		s.invalid[k] += n
	}
	for _, m := range is.shown {
		if s.shown >= maxShown || s.flags.quiet {
			break
		}
		s.shown++
		fmt.Fprintf(s.bar, "urlnorm %s: %s\n", s.name, m)
	}
}

// finish stops the bar, reports the invalid inputs and returns the exit
// status. err is the run's error (reading or writing).
func (s *stream) finish(err error) int {
	s.bar.Stop()
	s.reader.Close()
	if err != nil {
		fmt.Fprintf(s.e.stderr, "urlnorm %s: %v\n", s.name, err)
		return exitIO
	}
	bad := s.invalidCount()
	if bad > 0 && !s.flags.quiet {
		kinds := slices.Sorted(maps.Keys(s.invalid))
		slices.SortStableFunc(kinds, func(a, b string) int { return int(s.invalid[b] - s.invalid[a]) })
		parts := make([]string, len(kinds))
		for i, k := range kinds {
			parts[i] = group(s.invalid[k]) + " " + k
		}
		more := ""
		if bad > int64(s.shown) {
			more = fmt.Sprintf("; the first %d are listed above", s.shown)
		}
		fmt.Fprintf(s.e.stderr, "urlnorm %s: %s of %s inputs invalid (%s)%s\n",
			s.name, group(bad), group(s.inputs), strings.Join(parts, ", "), more)
	}
	if bad > 0 && s.flags.strict {
		return exitData
	}
	return exitOK
}

func (s *stream) invalidCount() int64 {
	var n int64
	for _, c := range s.invalid {
		n += c
	}
	return n
}

// outWriter names the errors of writing the output.
type outWriter struct{ w io.Writer }

func (o outWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil {
		err = fmt.Errorf("writing the output: %w", err)
	}
	return n, err
}

// group formats n with thousands separators: 1,234,567.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return "-" + group(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
