// Command sqlbench measures SELECT count(DISTINCT f(url)) and a scan,
// SELECT sum(length(f(url))), over 1M and 10M generated rows for f = the
// bare column, lower(url), normalize_url(url), canonical_hash(url) and
// URL-part functions (sqlbench.Funcs), through every SQL path of this checkout
// (embedded DuckDB and SQLite adapters, DuckDB and SQLite loadable
// extensions), DuckDB with all threads and with one. It writes sql.json
// and sql.md and says which paths were missing.
//
//	cd benchmarks && go run ./cmd/sqlbench                       # 1M and 10M rows
//	go run ./cmd/sqlbench -rows 100000 -samples 2 -warmup 0      # smoke run
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urlnorm/urlnorm/benchmarks/internal/corpus"
	"github.com/urlnorm/urlnorm/benchmarks/internal/machine"
	"github.com/urlnorm/urlnorm/benchmarks/internal/report"
	"github.com/urlnorm/urlnorm/benchmarks/internal/sqlbench"
	"github.com/urlnorm/urlnorm/normalize"
)

type options struct {
	samples, warmup int
	sqliteSamples   int
	rows            string
	base            string
	data, out, ext  string
	paths, funcs    string
	prepare         bool
}

func main() {
	var o options
	flag.IntVar(&o.samples, "samples", 5, "samples per query (DuckDB)")
	flag.IntVar(&o.sqliteSamples, "sqlite-samples", 3, "samples per query in SQLite (a 10M-row round of the four queries takes ~4 minutes there)")
	flag.IntVar(&o.warmup, "warmup", 1, "warm-up rounds per table and thread count, discarded")
	flag.StringVar(&o.rows, "rows", "1000000,10000000", "comma-separated table sizes")
	flag.StringVar(&o.base, "base", "", "base URL list `PATH` for the rows (default: the web corpus, or the shipped sample without shared data)")
	flag.StringVar(&o.data, "data", "", "shared URL data `DIR` (default $URLNORM_DATA or ../shared/data/urls next to the repository)")
	flag.StringVar(&o.out, "out", "out", "output `DIR`: sql.json, sql.md, and the generated data files under sqldata/")
	flag.StringVar(&o.ext, "ext", "", "`DIR` of urlnorm.duckdb_extension and urlnorm.so (default <repo>/dist)")
	flag.StringVar(&o.paths, "paths", "", "run only the paths whose name contains one of these comma-separated words (e.g. extension,DuckDB)")
	flag.StringVar(&o.funcs, "funcs", "", "measure only the expressions containing one of these comma-separated words (e.g. parse_url,url_host), next to url, lower(url) and normalize_url(url), which are always measured")
	flag.BoolVar(&o.prepare, "prepare", false, "only write the data files (run.sh does this before waiting for a quiet machine)")
	flag.Parse()
	if err := run(context.Background(), o, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "sqlbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options, stdout, log io.Writer) error {
	sizes, err := parseSizes(o.rows)
	if err != nil {
		return err
	}
	repo, dataDir, err := corpus.Locate(o.data)
	if err != nil {
		return err
	}
	ext := o.ext
	if ext == "" {
		ext = filepath.Join(repo, "dist")
	}
	paths, err := selectPaths(sqlbench.Paths(ext), o.paths)
	if err != nil {
		return err
	}
	def := normalize.MustLookup("default")
	base, name, err := baseURLs(o.base, repo, dataDir, def)
	if err != nil {
		return err
	}
	logf := func(f string, a ...any) { fmt.Fprintf(log, f+"\n", a...) }
	d := &sqlbench.Data{Dir: filepath.Join(o.out, "sqldata"), Base: base, Sizes: sizes}
	if err := d.Ensure(ctx, logf); err != nil || o.prepare {
		return err
	}
	funcs := selectFuncs(o.funcs)
	want := map[int]sqlbench.Expected{}
	for _, n := range sizes {
		if want[n], err = sqlbench.Expect(base, n, funcs); err != nil {
			return err
		}
	}
	r := &sqlbench.Run{Command: "sqlbench " + strings.Join(os.Args[1:], " "), Started: time.Now(), Machine: machine.Describe(),
		Samples: o.samples, SQLiteSamples: o.sqliteSamples, Warmup: o.warmup, Base: name, BaseURLs: len(base), Versions: machine.Modules()}
	r.GoRows = min(sizes[0], 1_000_000)
	logf("timing the row functions alone in Go over %d rows", r.GoRows)
	r.GoCost = sqlbench.GoCost(base, r.GoRows, funcs)
	for _, p := range paths {
		if p.Missing != "" {
			logf("%s: missing: %s", p.Name, p.Missing)
			r.Results = append(r.Results, sqlbench.Result{Path: p})
			continue
		}
		cfg := sqlbench.Config{Samples: o.samples, Warmup: o.warmup, Funcs: funcs, Log: log}
		if p.Engine == sqlbench.SQLite {
			cfg.Samples = o.sqliteSamples
		}
		res := sqlbench.RunPath(ctx, cfg, p, d, want)
		if res.Error != "" {
			logf("%s: %s", p.Name, res.Error)
		}
		r.Results = append(r.Results, res)
	}
	r.Targets = sqlbench.Targets(r.Results)
	return write(r, o.out, stdout)
}

// selectPaths returns the paths -paths selects, or an error naming them
// all when it selects none (a run that measures nothing takes minutes
// to write its data first).
func selectPaths(all []sqlbench.Path, words string) ([]sqlbench.Path, error) {
	var paths []sqlbench.Path
	var names []string
	for _, p := range all {
		names = append(names, strconv.Quote(p.Name))
		if selected(p.Name, words) {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("-paths %q selects none of the paths %s", words, strings.Join(names, ", "))
	}
	return paths, nil
}

// baseURLs returns the URLs the rows are built from: the -base list or
// the web corpus (the shipped sample without shared data), keeping only
// those the default profile accepts — a rejected URL would abort the
// plain normalize_url query.
func baseURLs(file, repo, dataDir string, def *normalize.Normalizer) ([]string, string, error) {
	var c *corpus.Corpus
	var err error
	if file != "" {
		c, err = corpus.LoadFile(file)
	} else if c, err = corpus.Load("web", dataDir, corpus.Standard[0].Files...); err != nil {
		c, err = corpus.LoadShipped(repo)
	}
	if err != nil {
		return nil, "", err
	}
	ok := corpus.Accepted(c.URLs, def)
	if len(ok) == 0 {
		return nil, "", fmt.Errorf("no URL of %s is accepted by the default profile", c.Name)
	}
	return ok, c.Name, nil
}

func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("-rows: %q is not a positive row count", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// selectFuncs is the -funcs selection of sqlbench.Funcs; the ratios'
// bases (the bare column, lower, normalize_url) are always in.
func selectFuncs(words string) []sqlbench.Func {
	var fs []sqlbench.Func
	for _, f := range sqlbench.Funcs {
		switch f {
		case sqlbench.Bare, sqlbench.Lower, sqlbench.Normalize:
			fs = append(fs, f)
		default:
			if selected(f.Expr, words) {
				fs = append(fs, f)
			}
		}
	}
	return fs
}

func selected(name, words string) bool {
	if words == "" {
		return true
	}
	for _, w := range strings.Split(words, ",") {
		if strings.Contains(strings.ToLower(name), strings.ToLower(strings.TrimSpace(w))) {
			return true
		}
	}
	return false
}

func write(r *sqlbench.Run, dir string, stdout io.Writer) error {
	var md bytes.Buffer
	r.Markdown(&md)
	b, err := report.JSON(r)
	if err != nil {
		return err
	}
	return report.Save(dir, map[string][]byte{"sql.md": md.Bytes(), "sql.json": b}, "sql.md", stdout)
}
