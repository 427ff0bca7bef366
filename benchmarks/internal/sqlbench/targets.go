package sqlbench

import (
	"fmt"

	"github.com/urlnorm/urlnorm/benchmarks/internal/report"
)

// Targets checks issue 8's SQL targets on the largest table: normalize_url
// against lower(url) per path (DuckDB with all threads), DuckDB's scaling
// from one thread to all, and canonical_hash's Go allocations next to
// normalize_url's in the embedded adapters. Wall-time medians: the engines
// run the query on several threads, where wall time is what the user
// waits for.
func Targets(results []Result) []report.Target {
	var ts []report.Target
	for _, res := range results {
		limit, id := ratioLimit(res.Path)
		rows := 0
		for _, m := range res.Measures {
			rows = max(rows, m.Rows)
		}
		for _, c := range cells(res.Measures) {
			if c[0].Rows != rows || c[0].Threads != res.Path.Threads[0] || c[0].Form != Distinct.Name {
				continue
			}
			low, norm, hash := c[1], c[2], c[3]
			v := norm.Wall / low.Wall
			ts = append(ts, report.Target{ID: id, Corpus: rowsLabel(rows) + " rows", Value: v, Limit: limit, Pass: v <= limit,
				Goal:   fmt.Sprintf("%s: count(DISTINCT normalize_url) ≤ %g× lower(url), %d threads", res.Path.Name, limit, c[0].Threads),
				Detail: fmt.Sprintf("%.3f / %.3f s (CPU %.2f / %.2f s)%s", norm.Wall, low.Wall, norm.CPU, low.CPU, scanRatio(res, rows, c[0].Threads))})
			if res.Path.GoAllocs {
				ts = append(ts, report.Target{ID: "2c", Corpus: rowsLabel(rows) + " rows", Value: hash.GoAllocs - norm.GoAllocs, Limit: 0.01,
					Pass:   hash.GoAllocs-norm.GoAllocs <= 0.01,
					Goal:   res.Path.Name + ": canonical_hash returns hex without extra Go allocations per row",
					Detail: fmt.Sprintf("Go allocs/row: canonical_hash %.3f, normalize_url %.3f", hash.GoAllocs, norm.GoAllocs)})
			}
		}
		if t, ok := scaling(res, rows); ok {
			ts = append(ts, t)
		}
	}
	return ts
}

// scanRatio describes normalize_url ÷ lower(url) without DISTINCT, the
// functions' own cost, for the same table and threads.
func scanRatio(res Result, rows, threads int) string {
	var low, norm float64
	for _, m := range res.Measures {
		if m.Rows == rows && m.Threads == threads && m.Form == Scan.Name {
			switch m.Func {
			case "lower(url)":
				low = m.Wall
			case "normalize_url(url)":
				norm = m.Wall
			}
		}
	}
	if low == 0 {
		return ""
	}
	return fmt.Sprintf("; without DISTINCT (sum(length(f(url)))): %.3f / %.3f s = %.2f×", norm, low, norm/low)
}

// ratioLimit is the bound on normalize_url ÷ lower(url) per path.
func ratioLimit(p Path) (float64, string) {
	switch {
	case p.Engine == SQLite:
		return 2.5, "3c"
	case p.GoAllocs: // embedded adapter: a cgo call per chunk or row through duckdb-go
		return 4, "3b"
	}
	return 3, "3a"
}

// scaling checks that normalize_url speeds up with DuckDB's threads: at
// least 0.75× the ideal speed-up (1.5× on 2 cores).
func scaling(res Result, rows int) (report.Target, bool) {
	if res.Path.Engine != DuckDB || len(res.Path.Threads) < 2 {
		return report.Target{}, false
	}
	var many, one *Measure
	for i, m := range res.Measures {
		if m.Rows == rows && m.Form == Distinct.Name && m.Func == "normalize_url(url)" {
			switch m.Threads {
			case res.Path.Threads[0]:
				many = &res.Measures[i]
			case 1:
				one = &res.Measures[i]
			}
		}
	}
	if many == nil || one == nil {
		return report.Target{}, false
	}
	v, limit := one.Wall/many.Wall, 0.75*float64(many.Threads)
	l := lowerSpeedup(res, rows)
	return report.Target{ID: "3d", Corpus: rowsLabel(rows) + " rows", Value: v, Limit: limit, Pass: v >= limit,
		Goal:   fmt.Sprintf("%s: normalize_url scales with threads (1 → %d threads ≥ %.1f× faster)", res.Path.Name, many.Threads, limit),
		Detail: fmt.Sprintf("%.3f s → %.3f s; lower(url) for comparison: %.2f×", one.Wall, many.Wall, l)}, true
}

func lowerSpeedup(res Result, rows int) float64 {
	var a, b float64
	for _, m := range res.Measures {
		if m.Rows == rows && m.Form == Distinct.Name && m.Func == "lower(url)" {
			if m.Threads == 1 {
				a = m.Wall
			} else {
				b = m.Wall
			}
		}
	}
	if b == 0 {
		return 0
	}
	return a / b
}
