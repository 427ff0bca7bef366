// Command urlbench times urlnorm's Normalize, Hash and AppendNormalized
// (every built-in profile) against net/url, purell, whatwg-url and the
// SHA-256 / xxHash64 / copy floors, interleaved in one process on the same
// corpora, and writes results.json, results.md and chart.svg.
//
//	cd benchmarks && go run ./cmd/urlbench                 # standard corpora, 10 samples
//	go run ./cmd/urlbench -corpus my_urls.txt -samples 20  # your own list
//	go run ./cmd/urlbench -from results/results.json       # redraw tables and chart only
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/urlnorm/urlnorm/benchmarks/internal/corpus"
	"github.com/urlnorm/urlnorm/benchmarks/internal/harness"
	"github.com/urlnorm/urlnorm/benchmarks/internal/machine"
	"github.com/urlnorm/urlnorm/benchmarks/internal/ops"
	"github.com/urlnorm/urlnorm/benchmarks/internal/report"
)

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

type options struct {
	samples, warmup int
	files           listFlag
	only            string
	data, out, from string
	opsRe           string
	cpuprofile      string
	metric          string
}

func main() {
	var o options
	flag.IntVar(&o.samples, "samples", 10, "samples (full passes) per op and corpus; ≥ 10 for reported figures")
	flag.IntVar(&o.warmup, "warmup", 1, "warm-up rounds, discarded")
	flag.Var(&o.files, "corpus", "URL list `PATH`, one per line (repeatable); replaces the standard corpora")
	flag.StringVar(&o.only, "corpora", "", "comma-separated standard corpora to run (default: all found)")
	flag.StringVar(&o.data, "data", "", "shared URL data `DIR` (default $URLNORM_DATA or ../shared/data/urls next to the repository)")
	flag.StringVar(&o.out, "out", "out", "output `DIR` for results.json, results.md and chart.svg")
	flag.StringVar(&o.from, "from", "", "redraw results.md and chart.svg from a saved results.json `FILE` instead of running")
	flag.StringVar(&o.opsRe, "ops", "", "run only the ops whose name matches this `REGEXP` (plus Normalize/default, the reference)")
	flag.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile to `FILE`")
	flag.StringVar(&o.metric, "metric", "cpu", "time the chart and the target verdicts use: cpu (process CPU time, GC included) or wall")
	flag.Parse()
	if err := run(o, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "urlbench:", err)
		os.Exit(1)
	}
}

func run(o options, stdout, log io.Writer) error {
	m := report.Metric(o.metric)
	if !m.Valid() {
		return fmt.Errorf("-metric %q: want cpu or wall", o.metric)
	}
	if o.from != "" {
		r, err := report.ReadJSON(o.from)
		if err != nil {
			return err
		}
		if o.metric != string(r.Metric) {
			r.Metric = m
			r.Targets = report.GoTargets(r.Stats, r.TargetCorpus, m)
		}
		return write(r, o.out, false, stdout)
	}
	corpora, missing, err := loadCorpora(o, log)
	if err != nil {
		return err
	}
	list, err := selectOps(o.opsRe)
	if err != nil {
		return err
	}
	if o.samples < 10 {
		fmt.Fprintf(log, "note: %d samples (< 10): a smoke run, not figures to report\n", o.samples)
	}
	if o.cpuprofile != "" {
		stop, err := startProfile(o.cpuprofile)
		if err != nil {
			return err
		}
		defer stop()
	}
	r := &report.Run{Command: "urlbench " + strings.Join(os.Args[1:], " "), Started: time.Now(),
		Machine: machine.Describe(), Metric: m, Samples: o.samples, Warmup: o.warmup, Missing: missing, Versions: machine.Modules()}
	for _, c := range corpora {
		n, b := len(c.URLs), c.Bytes()
		r.Corpora = append(r.Corpora, report.CorpusInfo{Name: c.Name, Files: c.Files, URLs: n, Bytes: b, MeanBytes: float64(b) / float64(max(n, 1))})
	}
	snap := machine.Take()
	r.Stats = harness.Run(harness.Config{Samples: o.samples, Warmup: o.warmup, Progress: log}, corpora, list)
	r.Load = machine.Since(snap)
	r.TargetCorpus = targetCorpus(corpora)
	r.Targets = report.GoTargets(r.Stats, r.TargetCorpus, m)
	fmt.Fprintf(log, "load: %s\n", r.Load.String())
	return write(r, o.out, true, stdout)
}

// loadCorpora returns the -corpus files, or the standard corpora (filtered
// by -corpora), or the shipped sample when the shared data is absent.
func loadCorpora(o options, log io.Writer) ([]*corpus.Corpus, []string, error) {
	var cs []*corpus.Corpus
	for _, f := range o.files {
		c, err := corpus.LoadFile(f)
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, c)
	}
	if len(cs) > 0 {
		return cs, nil, nil
	}
	repo, dir, err := corpus.Locate(o.data)
	if err != nil {
		return nil, nil, err
	}
	cs, missing, err := corpus.LoadStandard(dir)
	if err != nil {
		return nil, nil, err
	}
	if o.only != "" {
		keep := strings.Split(o.only, ",")
		cs = slices.DeleteFunc(cs, func(c *corpus.Corpus) bool { return !slices.Contains(keep, c.Name) })
	}
	if len(cs) == 0 {
		fmt.Fprintf(log, "no standard corpus in %q: using the shipped sample (testdata/urls)\n", dir)
		c, err := corpus.LoadShipped(repo)
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, c)
	}
	return cs, missing, nil
}

// targetCorpus is "web" when present (the targets are stated on
// it), else the first corpus.
func targetCorpus(cs []*corpus.Corpus) string {
	for _, c := range cs {
		if c.Name == "web" {
			return c.Name
		}
	}
	return cs[0].Name
}

func selectOps(expr string) ([]ops.Op, error) {
	all := ops.All()
	if expr == "" {
		return all, nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("-ops: %w", err)
	}
	return slices.DeleteFunc(all, func(op ops.Op) bool { return op.Name != ops.Default && !re.MatchString(op.Name) }), nil
}

func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// versions lists the peer modules' versions from the build info.
func write(r *report.Run, dir string, withJSON bool, stdout io.Writer) error {
	var md, svg bytes.Buffer
	r.Markdown(&md)
	r.SVG(&svg)
	files := map[string][]byte{"results.md": md.Bytes(), "chart.svg": svg.Bytes()}
	if withJSON {
		b, err := report.JSON(r)
		if err != nil {
			return err
		}
		files["results.json"] = b
	}
	return report.Save(dir, files, "results.md", stdout)
}
