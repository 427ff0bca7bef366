package sqlbench

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/urlnorm/urlnorm/benchmarks/internal/machine"
	"github.com/urlnorm/urlnorm/benchmarks/internal/report"
)

// Run is everything one sqlbench run produced.
type Run struct {
	Command       string            `json:"command"`
	Started       time.Time         `json:"started"`
	Machine       machine.Info      `json:"machine"`
	Samples       int               `json:"samples"` // DuckDB
	SQLiteSamples int               `json:"sqlite_samples"`
	Warmup        int               `json:"warmup"`
	Base          string            `json:"base_corpus"`
	BaseURLs      int               `json:"base_urls"`
	Results       []Result          `json:"results"`
	Targets       []report.Target   `json:"targets"`
	Versions      map[string]string `json:"versions"`
}

// Markdown writes one table per path (seconds per query, ratios to
// lower(url), rows/s), the count check, and the targets.
func (r *Run) Markdown(w io.Writer) {
	m := r.Machine
	fmt.Fprintf(w, "Run `%s` started %s: %d samples per query in DuckDB, %d in SQLite (after %d warm-up round), the four queries interleaved.\n\n",
		r.Command, r.Started.UTC().Format("2006-01-02 15:04 MST"), r.Samples, r.SQLiteSamples, r.Warmup)
	fmt.Fprintf(w, "Machine: %s, %d cores, %d GiB RAM, Linux %s, %s. Rows built from %d `%s` URLs (see the README).\n\n",
		m.CPU, m.Cores, m.MemoryGiB, m.Kernel, m.Go, r.BaseURLs, r.Base)
	for _, res := range r.Results {
		res.markdown(w)
	}
	report.WriteTargets(w, r.Targets)
}

func (res *Result) markdown(w io.Writer) {
	fmt.Fprintf(w, "#### %s\n\n", res.Path.Name)
	if res.Path.Missing != "" {
		fmt.Fprintf(w, "Not measured: %s.\n\n", res.Path.Missing)
		return
	}
	if res.Error != "" {
		fmt.Fprintf(w, "Failed: `%s`\n\n", res.Error)
	}
	if len(res.Measures) == 0 {
		return
	}
	fmt.Fprintf(w, "%s", res.Version)
	if res.Path.Detail != "" {
		fmt.Fprintf(w, "; %s", res.Path.Detail)
	}
	fmt.Fprintf(w, ".\n\nLoad: %s", res.Load.String())
	if res.Path.Child {
		fmt.Fprint(w, " (the sqlite3 shell running the queries is one of those processes)")
	}
	fmt.Fprint(w, "\n\n")
	fmt.Fprintln(w, "Wall seconds per query, median (min); CPU seconds median in brackets; rows/s of normalize_url from the wall median.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| query | rows | threads | f = `url` | `lower(url)` | `normalize_url(url)` | `canonical_hash(url)` | normalize ÷ lower | hash ÷ lower | normalize_url rows/s |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, c := range cells(res.Measures) {
		fmt.Fprintf(w, "| `%s` | %s | %d |", formLabel(c[0].Form), rowsLabel(c[0].Rows), c[0].Threads)
		for _, m := range c {
			fmt.Fprintf(w, " %.3f (%.3f) [%.2f] |", m.Wall, m.WallMin, m.CPU)
		}
		norm, hash, low := c[2], c[3], c[1]
		fmt.Fprintf(w, " %.2f | %.2f | %s |\n", norm.Wall/low.Wall, hash.Wall/low.Wall, rate(float64(norm.Rows)/norm.Wall))
	}
	fmt.Fprintln(w)
	res.countTable(w)
}

// formLabel shows a form's statement with f(url) in place of the
// expression.
func formLabel(name string) string {
	for _, f := range Forms {
		if f.Name == name {
			return strings.TrimSuffix(f.Query("f(url)", "t"), " FROM t")
		}
	}
	return name
}

// countTable shows what each query returned against the results computed
// in Go, and the Go allocations per row when measurable.
func (res *Result) countTable(w io.Writer) {
	fmt.Fprintln(w, "| query | rows | threads | f = `url` | `lower(url)` | `normalize_url` | `canonical_hash` | check against Go | Go allocs/row (normalize / hash) |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---|---:|")
	for _, c := range cells(res.Measures) {
		fmt.Fprintf(w, "| `%s` | %s | %d | %d | %d | %d | %d | %s | %s |\n", formLabel(c[0].Form), rowsLabel(c[0].Rows), c[0].Threads,
			c[0].Count, c[1].Count, c[2].Count, c[3].Count, check(c), allocs(c[2], c[3]))
	}
	fmt.Fprintln(w)
}

func check(c []Measure) string {
	var bad []string
	for _, m := range c {
		if m.Expected >= 0 && m.Count != m.Expected {
			bad = append(bad, fmt.Sprintf("%s: %d, Go says %d", m.Func, m.Count, m.Expected))
		}
	}
	if len(bad) > 0 {
		return "**MISMATCH** " + strings.Join(bad, "; ")
	}
	return "ok"
}

func allocs(norm, hash Measure) string {
	if norm.GoAllocs < 0 {
		return "n/a (other runtime)"
	}
	return fmt.Sprintf("%.3f / %.3f", norm.GoAllocs, hash.GoAllocs)
}

// cells groups measures by (rows, threads, form) in run order, each group
// in Funcs order.
func cells(ms []Measure) [][]Measure {
	var out [][]Measure
	for i := 0; i+len(Funcs) <= len(ms); i += len(Funcs) {
		out = append(out, slices.Clone(ms[i:i+len(Funcs)]))
	}
	return out
}

func rowsLabel(n int) string {
	if n%1_000_000 == 0 {
		return fmt.Sprintf("%dM", n/1_000_000)
	}
	return fmt.Sprint(n)
}

func rate(v float64) string {
	if v >= 1e6 {
		return fmt.Sprintf("%.2f M", v/1e6)
	}
	return fmt.Sprintf("%.0f k", v/1e3)
}
