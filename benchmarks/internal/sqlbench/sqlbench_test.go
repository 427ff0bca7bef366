package sqlbench

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/urlnorm/urlnorm/benchmarks/internal/corpus"
	"github.com/urlnorm/urlnorm/normalize"
)

func TestTable(t *testing.T) {
	for n, want := range map[int]string{1_000_000: "urls_1m", 10_000_000: "urls_10m", 250_000: "urls_250000"} {
		if got := Table(n); got != want {
			t.Errorf("Table(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestParseRunTime(t *testing.T) {
	var tm Timing
	if err := parseRunTime("real 1.250 user 1.000000 sys 0.125000", &tm); err != nil {
		t.Fatal(err)
	}
	if tm.Wall != 1250*time.Millisecond || tm.CPU != 1125*time.Millisecond {
		t.Fatalf("wall %v cpu %v", tm.Wall, tm.CPU)
	}
	for _, bad := range []string{"", "real 1 user 2", "real x user 1 sys 1", "wall 1 user 1 sys 1"} {
		if err := parseRunTime(bad, &tm); err == nil {
			t.Errorf("parseRunTime(%q) accepted", bad)
		}
	}
}

// measures builds the cells of one path, per thread count and form, with
// wall times for url, lower, normalize_url, canonical_hash (the scan form
// takes half the distinct form's times).
func measures(p Path, rows int, walls map[int][4]float64, allocs [2]float64) []Measure {
	var ms []Measure
	for _, th := range p.Threads {
		for _, form := range Forms {
			for i, f := range Funcs[:4] {
				m := Measure{Path: p.Name, Engine: p.Engine, Rows: rows, Threads: th, Form: form.Name, Func: f.Expr, Wall: walls[th][i], Expected: -1, GoAllocs: -1}
				if form == Scan {
					m.Wall /= 2
				}
				m.CPU = m.Wall
				if p.GoAllocs && i >= 2 {
					m.GoAllocs = allocs[i-2]
				}
				ms = append(ms, m)
			}
		}
	}
	return ms
}

func TestTargets(t *testing.T) {
	ext := Path{Name: "ext", Engine: DuckDB, Threads: []int{2, 1}}
	emb := Path{Name: "emb", Engine: DuckDB, Threads: []int{2, 1}, GoAllocs: true}
	lite := Path{Name: "lite", Engine: SQLite, Threads: []int{1}}
	results := []Result{
		// ext: 2.5× lower (pass ≤ 3), 1 → 2 threads 1.6× (pass ≥ 1.5)
		{Path: ext, Measures: measures(ext, 10, map[int][4]float64{2: {1, 2, 5, 6}, 1: {1, 3, 8, 9}}, [2]float64{})},
		// emb: 5× lower (fail ≤ 4), scaling 1.2× (fail), hash allocates 1 more per row (fail)
		{Path: emb, Measures: measures(emb, 10, map[int][4]float64{2: {1, 2, 10, 11}, 1: {1, 3, 12, 13}}, [2]float64{0.1, 1.1})},
		// lite: 2× lower (pass ≤ 2.5)
		{Path: lite, Measures: measures(lite, 10, map[int][4]float64{1: {1, 5, 10, 12}}, [2]float64{})},
	}
	got := map[string]bool{}
	for _, tg := range Targets(results) {
		got[tg.Goal[:strings.IndexByte(tg.Goal, ':')]+"/"+tg.ID] = tg.Pass
	}
	// ext's scan: 2.5× and 2.67× lower in CPU (fail ≤ 1.5)
	want := map[string]bool{"ext/18.3": false, "ext/3a": true, "ext/3d": true, "emb/3b": false, "emb/3d": false, "emb/2c": false, "lite/3c": true}
	if len(got) != len(want) {
		t.Errorf("targets %v, want %v", got, want)
	}
	for k, v := range want {
		if p, ok := got[k]; !ok || p != v {
			t.Errorf("%s: pass=%v present=%v, want %v", k, p, ok, v)
		}
	}
}

func TestCheckFlagsMismatch(t *testing.T) {
	m := Measure{Func: "normalize_url(url)", Count: 3, Expected: 2}
	if got := check(m); !strings.Contains(got, "MISMATCH") || !strings.Contains(got, "Go says 2") {
		t.Fatalf("check = %q", got)
	}
	m.Count = 2
	if got := check(m); got != "ok" {
		t.Fatalf("check = %q", got)
	}
	m.Expected = -1 // lower(url)
	if got := check(m); got != "not predicted" {
		t.Fatalf("check = %q", got)
	}
}

// End to end without the urlnorm functions: the data files are written,
// real DuckDB and the real sqlite3 shell count what Go predicts.
func TestSessionsCountWhatGoExpects(t *testing.T) {
	ctx := context.Background()
	d, want := testData(t, 500, 1500)
	bare, norm, hash := want[Bare.Expr], want[Normalize.Expr], want[Hash.Expr]
	if norm.Distinct >= bare.Distinct || norm.Distinct != hash.Distinct {
		t.Fatalf("expected counts %+v: normalization should fold rows", want)
	}
	if hash.Length != 64*1500 || bare.Length <= norm.Length {
		t.Fatalf("expected lengths %+v: 64 hex digits per row; canonical URLs shorter than the rows", want)
	}
	if ps := want["parse_url(url)"]; ps.Length != 1500 || ps.Distinct < want["url_host(url)"].Distinct {
		t.Fatalf("parse_url: %+v: one STRUCT per row, at least as many distinct as hosts", ps)
	}
	sessions := map[string]func() (Session, error){
		"duckdb": func() (Session, error) { return openDuckDB(ctx, "", d, nil) },
	}
	if sh, err := exec.LookPath("sqlite3"); err == nil {
		sessions["sqlite3 shell"] = func() (Session, error) { return openShell(ctx, sh, d.SQLiteFile(), "") }
	} else {
		t.Log("no sqlite3 shell: only DuckDB checked")
	}
	for name, open := range sessions {
		s, err := open()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v, err := s.Version(ctx); err != nil || v == "" {
			t.Errorf("%s: version %q, %v", name, v, err)
		}
		for _, form := range Forms {
			tm, err := s.Count(ctx, form.Query(Bare, Table(1500)))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if w := want.For(form, "url"); tm.Count != w || tm.Wall < 0 { // the shell times in ms: 0 is possible
				t.Errorf("%s, %s: %d in %v, want %d", name, form.Name, tm.Count, tm.Wall, w)
			}
		}
		if _, err := s.Count(ctx, "SELECT count(*) FROM no_such_table"); err == nil {
			t.Errorf("%s: a failing query reported no error", name)
		}
		s.Close()
	}
	// A second Ensure with the same stamp reuses the files.
	before := d.stamp()
	if err := d.Ensure(ctx, func(string, ...any) { t.Error("data rewritten despite a matching stamp") }); err != nil || d.stamp() != before {
		t.Fatal(err)
	}
}

// A path whose setup fails (here: an extension file that does not
// exist) reports the error instead of measuring without the functions.
func TestOpenDuckDBReportsPrepareError(t *testing.T) {
	ctx := context.Background()
	d := &Data{Dir: t.TempDir(), Base: []string{"https://example.com/"}, Sizes: []int{10}}
	if err := d.Ensure(ctx, t.Logf); err != nil {
		t.Fatal(err)
	}
	p := Paths(t.TempDir())[1] // the DuckDB extension path, pointed at an empty dir
	if p.Missing == "" || !strings.Contains(p.Missing, "make extensions") {
		t.Fatalf("missing extension not reported: %+v", p)
	}
	_, err := p.open(ctx, d)
	if err == nil || !strings.Contains(err.Error(), "LOAD") {
		t.Fatalf("open with a missing extension: %v", err)
	}
}

// The embedded adapters compute, through real DuckDB and SQLite, the same
// results as Go for every function measured (the part functions' LIST and
// STRUCT included), and RunPath reports them as checked.
func TestEmbeddedPathsMatchGo(t *testing.T) {
	ctx := context.Background()
	d, want := testData(t, 300, 1200)
	for _, p := range Paths(t.TempDir()) {
		if !p.GoAllocs {
			continue // the extension paths need "make extensions"
		}
		res := RunPath(ctx, Config{Samples: 1}, p, d, map[int]Expected{1200: want})
		if res.Error != "" || res.Version == "" {
			t.Fatalf("%s: error %q, version %q", p.Name, res.Error, res.Version)
		}
		if n := len(res.Measures); n != len(Forms)*len(Funcs)*len(p.Threads) {
			t.Fatalf("%s: %d measures", p.Name, n)
		}
		for _, m := range res.Measures {
			want := "ok"
			if m.Func == Lower.Expr {
				want = "not predicted"
			}
			if got := check(m); got != want || m.GoAllocs < 0 {
				t.Errorf("%s, %d threads, %s %s: %s (want %s), Go allocs/row %v", p.Name, m.Threads, m.Form, m.Func, got, want, m.GoAllocs)
			}
		}
	}
}

// Issue 13's target compares each part function with normalize_url in
// CPU time on the one-thread scan; issue 18's the extension's scan with
// lower(url).
func TestScanTargets(t *testing.T) {
	ext := Path{Name: "ext", Engine: DuckDB, Threads: []int{2, 1}}
	var ms []Measure
	for _, th := range ext.Threads {
		for f, cpu := range map[string]float64{"url": 0.1, "lower(url)": 1, "normalize_url(url)": 1.4, "url_host(url)": 1, "parse_url(url)": 3} {
			ms = append(ms, Measure{Rows: 10, Threads: th, Form: Scan.Name, Func: f, CPU: cpu})
		}
	}
	got := map[string]bool{}
	for _, tg := range Targets([]Result{{Path: ext, Measures: ms}}) {
		got[tg.ID+" "+tg.Goal] = tg.Pass
	}
	want := map[string]bool{
		"18.3 ext: sum(length(normalize_url(url))) ≤ 1.5× lower(url), 2 threads, CPU": true,
		"18.3 ext: sum(length(normalize_url(url))) ≤ 1.5× lower(url), 1 threads, CPU": true,
		"13.1 ext: url_host(url) costs ≤ normalize_url, 1 thread, CPU":                true,
		"13.1 ext: parse_url(url) costs ≤ normalize_url, 1 thread, CPU":               false,
	}
	if len(got) != len(want) {
		t.Errorf("targets %v, want %v", got, want)
	}
	for k, v := range want {
		if p, ok := got[k]; !ok || p != v {
			t.Errorf("%s: pass=%v present=%v, want %v", k, p, ok, v)
		}
	}
}

// The ratio targets are judged on the DISTINCT form and quote the scan
// form next to it.
func TestTargetsQuoteScanRatio(t *testing.T) {
	lite := Path{Name: "lite", Engine: SQLite, Threads: []int{1}}
	ts := Targets([]Result{{Path: lite, Measures: measures(lite, 10, map[int][4]float64{1: {1, 4, 6, 8}}, [2]float64{})}})
	if len(ts) != 1 || ts[0].Value != 1.5 || !strings.Contains(ts[0].Detail, "without DISTINCT") || !strings.Contains(ts[0].Detail, "= 1.50×") {
		t.Fatalf("targets %+v", ts)
	}
}

// testData writes data files of rows rows built from the first n URLs of
// the shipped corpus that the default profile accepts, and returns them
// with the figures Go expects for them.
func testData(t *testing.T, n, rows int) (*Data, Expected) {
	t.Helper()
	repo, err := corpus.RepoRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	c, err := corpus.LoadShipped(repo)
	if err != nil {
		t.Fatal(err)
	}
	def := normalize.MustLookup("default")
	base := corpus.Accepted(c.URLs[:n], def)
	d := &Data{Dir: t.TempDir(), Base: base, Sizes: []int{rows}}
	if err := d.Ensure(context.Background(), t.Logf); err != nil {
		t.Fatal(err)
	}
	want, err := Expect(base, rows, Funcs)
	if err != nil {
		t.Fatal(err)
	}
	return d, want
}

// GoCost times every expression Go predicts, and only those.
func TestGoCost(t *testing.T) {
	base := []string{"https://example.com/a?b=1", "HTTP://Example.org:80/x/../y#f"}
	cost := GoCost(base, 200, []Func{Bare, Lower, Normalize, {Expr: "parse_url(url)", Composite: true}})
	if _, ok := cost[Lower.Expr]; ok || len(cost) != 3 {
		t.Fatalf("GoCost = %v: want url, normalize_url and parse_url", cost)
	}
	for expr, ns := range cost {
		if ns < 0 || ns > 1e6 {
			t.Errorf("%s: %v ns/row", expr, ns)
		}
	}
}
