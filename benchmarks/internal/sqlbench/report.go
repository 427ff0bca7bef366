package sqlbench

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urlnorm/urlnorm/benchmarks/internal/machine"
	"github.com/urlnorm/urlnorm/benchmarks/internal/report"
)

// Run is everything one sqlbench run produced.
type Run struct {
	Command       string       `json:"command"`
	Started       time.Time    `json:"started"`
	Machine       machine.Info `json:"machine"`
	Samples       int          `json:"samples"` // DuckDB
	SQLiteSamples int          `json:"sqlite_samples"`
	Warmup        int          `json:"warmup"`
	Base          string       `json:"base_corpus"`
	BaseURLs      int          `json:"base_urls"`
	// GoCost is each expression's row function alone in Go, CPU ns per
	// row over the first GoRows rows (GoCost).
	GoCost   map[string]float64 `json:"go_ns_per_row"`
	GoRows   int                `json:"go_rows"`
	Results  []Result           `json:"results"`
	Targets  []report.Target    `json:"targets"`
	Versions map[string]string  `json:"versions"`
}

// Markdown writes one table per path (a row per query: times, ratios to
// lower(url) and normalize_url(url), the result checked against Go) and
// the targets.
func (r *Run) Markdown(w io.Writer) {
	m := r.Machine
	fmt.Fprintf(w, "Run `%s` started %s: %d samples per query in DuckDB, %d in SQLite (after %d warm-up round), the queries interleaved.\n\n",
		r.Command, r.Started.UTC().Format("2006-01-02 15:04 MST"), r.Samples, r.SQLiteSamples, r.Warmup)
	fmt.Fprintf(w, "Machine: %s, %d cores, %d GiB RAM, Linux %s, %s. Rows built from %d `%s` URLs (see the README).\n\n",
		m.CPU, m.Cores, m.MemoryGiB, m.Kernel, m.Go, r.BaseURLs, r.Base)
	if len(r.GoCost) > 0 {
		fmt.Fprintf(w, "Go alone is udf's row function of each expression in a Go loop over the first %d rows held in memory (the SQLite form: JSON for a LIST or STRUCT), one thread, CPU ns per row, best of three: the cost no SQL path goes below.\n\n", r.GoRows)
	}
	for _, res := range r.Results {
		res.markdown(w, r.GoCost)
	}
	report.WriteTargets(w, r.Targets)
}

func (res *Result) markdown(w io.Writer, goCost map[string]float64) {
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
	fmt.Fprintln(w, "Seconds per query: wall median (min) and CPU median (all engine threads); CPU ns per row; CPU ratios to `lower(url)` and to `normalize_url(url)` in the same query shape, rows and threads; the result and its check against Go.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| query | rows | threads | f | wall s | CPU s | CPU ns/row | ÷ lower | ÷ normalize_url | Go alone ns/row | result | check | Go allocs/row |")
	fmt.Fprintln(w, "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
	for _, c := range cells(res.Measures) {
		low, norm := c.find(Lower.Expr), c.find(Normalize.Expr)
		for _, m := range c {
			goNs := ""
			if v, ok := goCost[m.Func]; ok {
				goNs = fmt.Sprintf("%.0f", v)
			}
			fmt.Fprintf(w, "| `%s` | %s | %d | `%s` | %.3f (%.3f) | %.2f | %.0f | %s | %s | %s | %d | %s | %s |\n",
				formLabel(m), rowsLabel(m.Rows), m.Threads, m.Func, m.Wall, m.WallMin, m.CPU, 1e9*m.CPU/float64(m.Rows),
				ratio(m, low), ratio(m, norm), goNs, m.Count, check(m), allocs(m))
		}
	}
	fmt.Fprintln(w)
}

// formLabel shows m's statement with f in place of the expression.
func formLabel(m Measure) string {
	for _, form := range Forms {
		if form.Name == m.Form {
			return strings.TrimSuffix(form.Query(Func{Expr: "f", Composite: m.Composite}, "t"), " FROM t")
		}
	}
	return m.Form
}

// ratio is m's CPU time over base's, "" without base.
func ratio(m Measure, base *Measure) string {
	if base == nil || base.CPU == 0 {
		return ""
	}
	return fmt.Sprintf("%.2f", m.CPU/base.CPU)
}

// check compares what the query returned with the result computed in Go.
func check(m Measure) string {
	switch {
	case m.Expected < 0:
		return "not predicted"
	case m.Count != m.Expected:
		return fmt.Sprintf("**MISMATCH**: Go says %d", m.Expected)
	}
	return "ok"
}

func allocs(m Measure) string {
	if m.GoAllocs < 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", m.GoAllocs)
}

// cell is the measures of one (rows, threads, form), in run order.
type cell []Measure

// find returns the measure of expr, or nil.
func (c cell) find(expr string) *Measure {
	for i := range c {
		if c[i].Func == expr {
			return &c[i]
		}
	}
	return nil
}

// cells groups measures by (rows, threads, form), in run order.
func cells(ms []Measure) []cell {
	var out []cell
	for i, m := range ms {
		if i == 0 || m.Rows != ms[i-1].Rows || m.Threads != ms[i-1].Threads || m.Form != ms[i-1].Form {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], m)
	}
	return out
}

func rowsLabel(n int) string {
	if n%1_000_000 == 0 {
		return fmt.Sprintf("%dM", n/1_000_000)
	}
	return fmt.Sprint(n)
}
