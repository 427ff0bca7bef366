// Command urlnorm-beam runs urlnorm's file commands on Apache Beam: the
// same flags as `urlnorm normalize|hash|canonicalize|dedup`, plus Beam's
// runner flags, so one pipeline runs locally (prism, the default), on
// Google Cloud Dataflow, or on Flink and Spark through their job servers.
//
//	urlnorm-beam dedup --format csv --output groups.csv urls/*.txt
//	urlnorm-beam normalize --profile clara --input 'gs://b/urls/*.csv.gz' \
//	    --output gs://b/out/canonical --format parquet \
//	    --runner dataflow --project P --region R --staging_location gs://b/staging
//	urlnorm-beam dedup --input '/data/urls/*.txt' --output /data/groups.csv \
//	    --runner universal --endpoint localhost:8099 --environment_type DOCKER
//
// See docs/scale.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	//lint:ignore SA1019 deprecated for prism, still offered (and measured) as the lighter in-process runner
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/direct"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"github.com/urlnorm/urlnorm/beam/urlbeam"
)

// Exit statuses, as urlnorm's.
const (
	exitOK    = 0
	exitData  = 1 // --strict and some input was invalid
	exitUsage = 2
	exitRun   = 3 // the pipeline failed (reading, writing)
)

const usage = `usage: urlnorm-beam normalize|hash|canonicalize|dedup [flags] [FILE|GLOB…]

Runs urlnorm's file commands as an Apache Beam pipeline, with urlnorm's
results byte for byte. Inputs are read by urlnorm's rules (text, CSV, TSV,
Parquet, .gz), one file per worker at a time: split big inputs into many
files. Local paths, gs:// (and every file system Beam knows) work.

normalize, hash, canonicalize write --output PREFIX-SSSSS-of-NNNNN.FORMAT
(--format text, tsv, csv, jsonl or parquet; --shards N), rows in no order,
and the invalid rows to PREFIX-invalid-SSSSS-of-NNNNN.jsonl.
dedup --format csv|json writes one file, what 'urlnorm dedup' prints
(--output -: stdout, local runners only); --format jsonl|parquet writes the
groups sharded and unordered, for more groups than one worker holds.

Runner flags (Beam's): --runner prism (default) | direct | dataflow |
flink | spark | universal, --endpoint HOST:PORT, --environment_type
LOOPBACK|DOCKER|PROCESS, --project, --region, --staging_location,
--worker_binary (default: this binary, on linux/amd64), …; see docs/scale.md.

Flags:
`

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

type options struct {
	cmd                   string
	profile               string
	configs, inputs       listFlag
	read                  urlbeam.ReadOptions
	output, format        string
	shards, invalidShards int
	examples, top         int
	minCount              int64
	quiet, strict         bool
}

func main() {
	var o options
	args := os.Args[1:]
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		o.cmd, args = args[0], args[1:]
	}
	fs := flag.CommandLine // Beam's flags live there
	fs.StringVar(&o.profile, "profile", "default", "profile `name` (see 'urlnorm profiles'), or a profile or configuration file")
	fs.Var(&o.configs, "config", "a `file` to load, repeatable, as urlnorm's --config (read here, sent to the workers resolved)")
	fs.StringVar(&o.read.Column, "column", "", "CSV/TSV/Parquet column: a header `name` or a 1-based number")
	fs.StringVar(&o.read.Format, "input-format", "", "read inputs as `format`: text, csv, tsv or parquet (default: by extension)")
	fs.BoolVar(&o.read.NoHeader, "no-header", false, "CSV/TSV inputs have no header row")
	fs.Var(&o.inputs, "input", "input `file or glob`, repeatable (or give them after the flags)")
	fs.StringVar(&o.output, "output", "", "output `prefix` (sharded formats) or file (dedup csv|json)")
	fs.StringVar(&o.format, "format", "", "output `format` (default: text; dedup: csv)")
	fs.IntVar(&o.shards, "shards", 16, "`n` output files")
	fs.IntVar(&o.invalidShards, "invalid-shards", 1, "`n` files of invalid rows")
	fs.IntVar(&o.examples, "examples", 3, "dedup: `n` distinct spellings kept per group")
	fs.Int64Var(&o.minCount, "min-count", 1, "dedup: only groups with at least `n` inputs")
	fs.IntVar(&o.top, "top", 0, "dedup: only the `n` largest groups (0: all)")
	fs.BoolVar(&o.quiet, "q", false, "quiet: no summary of invalid inputs on stderr")
	fs.BoolVar(&o.strict, "strict", false, "exit with status 1 if any input is invalid")
	verbose := fs.Bool("v", false, "verbose: the local runner's progress log")
	fs.Usage = func() { fmt.Fprint(fs.Output(), usage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		os.Exit(exitUsage)
	}
	beam.Init() // a worker started by a runner runs here and exits
	if !*verbose {
		beamlog.SetupLogging("warn", "text") // prism logs each job's progress at info
	}
	os.Exit(run(&o, fs))
}

func run(o *options, fs *flag.FlagSet) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "urlnorm-beam %s: %s\n", o.cmd, fmt.Sprintf(format, a...))
		return exitUsage
	}
	profileSet := false
	fs.Visit(func(f *flag.Flag) { profileSet = profileSet || f.Name == "profile" })
	if !slices.Contains([]string{urlbeam.OpNormalize, urlbeam.OpHash, urlbeam.OpCanonicalize, "dedup"}, o.cmd) {
		fs.Usage()
		return exitUsage
	}
	formats := urlbeam.Formats
	if o.cmd == "dedup" {
		formats = []string{"csv", "json", urlbeam.FormatJSONL, urlbeam.FormatParquet}
		if o.format == "" {
			o.format = "csv"
		}
	} else if o.format == "" {
		o.format = urlbeam.FormatText
	}
	switch {
	case !slices.Contains(formats, o.format):
		return fail("unknown --format %q (want %s)", o.format, strings.Join(formats, ", "))
	case o.output == "":
		return fail("--output is required: the pipeline's workers write the results")
	case o.output == "-" && !(o.cmd == "dedup" && (o.format == "csv" || o.format == "json")):
		return fail("--output - (stdout) is only for dedup --format csv or json")
	case o.examples < 0 || o.top < 0 || o.shards < 1 || o.invalidShards < 1:
		return fail("--examples and --top must not be negative, --shards at least 1")
	}
	if *runners.Runner == "" {
		*runners.Runner = "prism"
	}
	local := *runners.Runner == "prism" || *runners.Runner == "direct"
	if o.output == "-" && !local {
		return fail("--output - (stdout) works with the local runners only (prism, direct): give a file every worker can write")
	}
	if *jobopts.WorkerBinary == "" && runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		// Workers run this very binary (built with cgo for Parquet), not a
		// cgo-less cross-compile of its source.
		if self, err := os.Executable(); err == nil {
			*jobopts.WorkerBinary = self
		}
	}

	spec, err := urlbeam.Resolve(o.profile, profileSet, o.configs)
	if err != nil {
		return fail("%v", err)
	}
	ctx := context.Background()
	files, err := urlbeam.Match(ctx, append(o.inputs, fs.Args()...))
	if err != nil {
		return fail("%v", err)
	}
	if len(files) == 0 {
		return fail("no inputs: give files or --input globs (a pipeline does not read stdin)")
	}
	opt, err := urlbeam.OptionsFor(spec, o.read)
	if err == nil {
		err = urlbeam.Check(files, opt)
	}
	if err != nil {
		return fail("%v", err)
	}

	out := o.output
	if out == "-" {
		dir, err := os.MkdirTemp("", "urlnorm-beam-")
		if err != nil {
			return fail("%v", err)
		}
		defer os.RemoveAll(dir)
		out = filepath.Join(dir, "out")
	}
	p, s := beam.NewPipelineWithRoot()
	rows := urlbeam.Read(s, files, opt)
	var invalid beam.PCollection
	if o.cmd == "dedup" {
		d := urlbeam.Dedup(s, spec, rows, o.examples)
		invalid = d.Invalid
		if o.format == "csv" || o.format == "json" {
			urlbeam.WriteDedup(s, spec, d, out, urlbeam.DedupReport{Format: o.format, Examples: o.examples, MinCount: o.minCount, Top: o.top})
		} else {
			urlbeam.WriteGroups(s, spec, out, o.format, o.shards, d.Groups(s))
		}
	} else {
		var results beam.PCollection
		results, invalid = urlbeam.Apply(s, spec, o.cmd, rows)
		urlbeam.WriteResults(s, out, o.format, o.cmd, o.shards, results)
	}
	if o.output != "-" {
		urlbeam.WriteInvalid(s, o.output+"-invalid", o.invalidShards, invalid)
	}

	res, err := beam.Run(ctx, *runners.Runner, p)
	if err != nil {
		fmt.Fprintf(os.Stderr, "urlnorm-beam %s: the pipeline failed: %v\n", o.cmd, err)
		return exitRun
	}
	if o.output == "-" {
		f, err := os.Open(out)
		if err == nil {
			_, err = io.Copy(os.Stdout, f)
			f.Close()
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "urlnorm-beam %s: %v\n", o.cmd, err)
			return exitRun
		}
	}
	return summary(o, res)
}

// summary prints the counters as urlnorm prints its summary, and returns
// the exit status.
func summary(o *options, res beam.PipelineResult) int {
	c := map[string]int64{}
	if res != nil {
		for _, r := range res.Metrics().AllMetrics().Counters() {
			if r.Namespace() == urlbeam.CounterNamespace {
				c[r.Name()] += r.Result()
			}
		}
	}
	bad := c[urlbeam.CounterInvalid]
	if o.cmd == "dedup" {
		valid, distinct := c[urlbeam.CounterValid], c[urlbeam.CounterDistinct]
		fmt.Fprintf(os.Stderr, "urlnorm-beam dedup: %d valid inputs, %d distinct canonical URLs, %d duplicates\n", valid, distinct, valid-distinct)
	}
	if bad > 0 && !o.quiet {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(c)) {
			if kind, ok := strings.CutPrefix(k, urlbeam.CounterInvalidKind); ok {
				parts = append(parts, strconv.FormatInt(c[k], 10)+" "+kind)
			}
		}
		where := ""
		if o.output != "-" {
			where = "; they are in " + o.output + "-invalid-*.jsonl"
		}
		fmt.Fprintf(os.Stderr, "urlnorm-beam %s: %d of %d inputs invalid (%s)%s\n", o.cmd, bad, c[urlbeam.CounterInputs], strings.Join(parts, ", "), where)
	}
	if bad > 0 && o.strict {
		return exitData
	}
	return exitOK
}
