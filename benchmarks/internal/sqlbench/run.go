package sqlbench

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urlnorm/urlnorm/benchmarks/internal/harness"
	"github.com/urlnorm/urlnorm/benchmarks/internal/machine"
)

// Func is one measured expression over the column url.
type Func struct {
	// Expr is the SQL expression, e.g. "normalize_url(url)".
	Expr string `json:"expr"`
	// Composite marks a LIST or STRUCT result (JSON text in SQLite): its
	// length() means different things in the two engines, so the scan
	// form counts the non-NULL results instead (ScanComposite).
	Composite bool `json:"composite,omitempty"`
}

// The expressions every report compares: the bare column, the engine's
// builtin lower(), and ours.
var (
	Bare      = Func{Expr: "url"}
	Lower     = Func{Expr: "lower(url)"}
	Normalize = Func{Expr: "normalize_url(url)"}
	Hash      = Func{Expr: "canonical_hash(url)"}
)

// Funcs are the expressions measured, in report order: the four above,
// then the URL-part functions of issue 13 whose cost differs (a scalar
// part, the public-suffix lookup, a LIST, a STRUCT).
var Funcs = []Func{Bare, Lower, Normalize, Hash,
	{Expr: "url_host(url)"},
	{Expr: "url_registrable_domain(url)"},
	{Expr: "url_path_segments(url)", Composite: true},
	{Expr: "parse_url(url)", Composite: true},
}

// SQLName is the function Expr calls, "" for the bare column.
func (f Func) SQLName() string {
	name, _, _ := strings.Cut(f.Expr, "(")
	if name == f.Expr {
		return ""
	}
	return name
}

// Form is a shape of the measured statement.
type Form struct {
	Name, SQL string // SQL has %s for the expression, then the table
}

// Forms: the dedup query, and a plain scan that isolates the
// functions' own cost (in SQLite the DISTINCT b-tree of 10M values costs
// more than any function, so there count(DISTINCT normalize_url) can beat
// count(DISTINCT lower): fewer distinct values). A composite result is
// scanned with ScanComposite.
var (
	Distinct      = Form{"distinct", "SELECT count(DISTINCT %s) FROM %s"}
	Scan          = Form{"scan", "SELECT CAST(sum(length(%s)) AS BIGINT) FROM %s"}
	ScanComposite = Form{"scan", "SELECT count(%s) FROM %s"}
	Forms         = []Form{Distinct, Scan}
)

// Query is form's statement for f over table.
func (form Form) Query(f Func, table string) string {
	if form == Scan && f.Composite {
		form = ScanComposite
	}
	return fmt.Sprintf(form.SQL, f.Expr, table)
}

// Measure summarises one (path, rows, threads, form, function) cell.
type Measure struct {
	Path    string `json:"path"`
	Engine  string `json:"engine"`
	Rows    int    `json:"rows"`
	Threads int    `json:"threads"`
	Form    string `json:"form"`
	Func    string `json:"func"`
	// Composite: the scan form counted the results (ScanComposite).
	Composite bool    `json:"composite,omitempty"`
	Samples   int     `json:"samples"`
	Wall      float64 `json:"wall_s_median"`
	WallMin   float64 `json:"wall_s_min"`
	CPU       float64 `json:"cpu_s_median"`
	Count     int64   `json:"count"`
	// Expected is the result computed in Go (-1: not predicted).
	Expected int64 `json:"expected"`
	// GoAllocs is Go heap allocations per row (-1: not measurable, the
	// functions run in another process or Go runtime).
	GoAllocs float64 `json:"go_allocs_per_row"`
}

// Config controls a run.
type Config struct {
	Samples, Warmup int
	// Funcs are the expressions measured (nil: Funcs).
	Funcs []Func
	Log   io.Writer
}

func (c Config) funcs() []Func {
	if c.Funcs == nil {
		return Funcs
	}
	return c.Funcs
}

// Result is a path's measures and the load during them.
type Result struct {
	Path     Path         `json:"path"`
	Measures []Measure    `json:"measures,omitempty"`
	Version  string       `json:"engine_version"`
	Load     machine.Load `json:"load"`
	Error    string       `json:"error,omitempty"`
}

// RunPath measures one available path on every table and thread count.
func RunPath(ctx context.Context, cfg Config, p Path, d *Data, want map[int]Expected) (res Result) {
	res.Path = p
	snap := machine.Take()
	defer func() { res.Load = machine.Since(snap) }()
	s, err := p.open(ctx, d)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	defer s.Close()
	if res.Version, err = s.Version(ctx); err != nil {
		res.Error = err.Error()
		return res
	}
	for _, n := range d.Sizes {
		for _, th := range p.Threads {
			if err := s.SetThreads(ctx, th); err != nil {
				res.Error = err.Error()
				return res
			}
			ms, err := runCell(ctx, cfg, s, p, n, th, want[n])
			res.Measures = append(res.Measures, ms...)
			if err != nil {
				res.Error = err.Error()
				return res
			}
		}
	}
	return res
}

// runCell runs warm-up plus sample rounds of every form and function on
// one table and thread count, rotating their order from round to round.
// The measures come back form by form, each in the order of cfg's Funcs.
func runCell(ctx context.Context, cfg Config, s Session, p Path, n, threads int, want Expected) ([]Measure, error) {
	type query struct {
		form Form
		fn   Func
		got  []Timing
	}
	var qs []*query
	for _, form := range Forms {
		for _, fn := range cfg.funcs() {
			qs = append(qs, &query{form: form, fn: fn})
		}
	}
	for r := 0; r < cfg.Warmup+cfg.Samples; r++ {
		start := time.Now()
		for i := range qs {
			q := qs[(i+r)%len(qs)]
			t, err := s.Count(ctx, q.form.Query(q.fn, Table(n)))
			if err != nil {
				return nil, err
			}
			if r >= cfg.Warmup {
				q.got = append(q.got, t)
			}
		}
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, "%s: %s, %d threads, round %d/%d: %.1fs, load %s\n",
				p.Name, Table(n), threads, r+1, cfg.Warmup+cfg.Samples, time.Since(start).Seconds(), machine.LoadAvg())
		}
	}
	ms := make([]Measure, len(qs))
	for i, q := range qs {
		ms[i] = summarise(p, n, threads, q.form, q.fn, q.got, want.For(q.form, q.fn.Expr))
	}
	return ms, nil
}

func summarise(p Path, n, threads int, form Form, fn Func, ts []Timing, want int64) Measure {
	wall := make([]float64, len(ts))
	cpu := make([]float64, len(ts))
	allocs := make([]float64, len(ts))
	for i, t := range ts {
		wall[i], cpu[i] = t.Wall.Seconds(), t.CPU.Seconds()
		allocs[i] = float64(t.Mallocs) / float64(n)
	}
	m := Measure{Path: p.Name, Engine: p.Engine, Rows: n, Threads: threads, Form: form.Name, Func: fn.Expr, Composite: fn.Composite, Samples: len(ts),
		Wall: harness.Median(wall), WallMin: minOf(wall), CPU: harness.Median(cpu), Expected: want, GoAllocs: -1}
	if len(ts) > 0 {
		m.Count = ts[0].Count
		for _, t := range ts[1:] {
			if t.Count != m.Count { // an engine that is not deterministic: show it
				m.Count = -1
			}
		}
	}
	if p.GoAllocs {
		m.GoAllocs = harness.Median(allocs)
	}
	return m
}

func minOf(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	m := v[0]
	for _, x := range v[1:] {
		m = min(m, x)
	}
	return m
}
