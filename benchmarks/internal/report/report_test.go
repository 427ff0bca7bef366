package report

import (
	"encoding/xml"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/urlnorm/urlnorm/benchmarks/internal/harness"
	"github.com/urlnorm/urlnorm/benchmarks/internal/ops"
)

// stat builds a result with equal wall and CPU time.
func stat(op, group, corpus string, ns, allocs float64) harness.Stat {
	return harness.Stat{Op: op, Group: group, Corpus: corpus, N: 100, Samples: 10, WallNs: ns, WallMin: ns * 0.9, CPUNs: ns, Allocs: allocs}
}

func sampleRun() *Run {
	var st []harness.Stat
	for _, c := range []string{"web", "web_dirty"} {
		st = append(st,
			stat(ops.Default, ops.GroupUrlnorm, c, 200, 0.4),
			stat("Normalize/clara", ops.GroupUrlnorm, c, 400, 0.5), // 2× default: fails 1g
			stat(opCanonical, ops.GroupUrlnorm, c, 150, 0),
			stat(opHash, ops.GroupUrlnorm, c, 400, 1.003),
			stat(opHashOK, ops.GroupUrlnorm, c, 390, 1),
			stat(opNetURL, ops.GroupPeer, c, 500, 2),
			stat(opPurell, ops.GroupPeer, c, 2000, 12),
			stat(opWhatwg, ops.GroupPeer, c, 7000, 59),
			stat(opSHA256, ops.GroupFloor, c, 120, 0),
		)
	}
	st[1].Profile = "clara"
	st[10].Profile = "clara"
	harness.AddRatios(st)
	r := &Run{Command: "urlbench", Started: time.Date(2026, 11, 21, 22, 0, 0, 0, time.UTC), Metric: CPU, Samples: 10,
		Corpora: []CorpusInfo{{Name: "web", URLs: 100}, {Name: "web_dirty", URLs: 100}}, Stats: st, TargetCorpus: "web"}
	r.Targets = GoTargets(st, "web", CPU)
	return r
}

func TestGoTargetsVerdicts(t *testing.T) {
	want := map[string]bool{ // id+goal prefix → pass
		"1a": true,  // 200/500 = 0.4 ≤ 0.6
		"1b": true,  // 200/2000 = 0.1 ≤ 0.15
		"1c": true,  // 200/7000 ≤ 0.05
		"1d": true,  // 200 ≤ 300 (guide)
		"1e": true,  // 0.4 allocs
		"1f": true,  // 0 allocs on canonical input
		"1g": false, // clara 2× default
		"2a": false, // 400 − 120 = 280 > 250
		"2b": true,  // 1 alloc on accepted input
	}
	got := map[string]bool{}
	for _, tg := range sampleRun().Targets {
		if tg.Corpus != "web" {
			t.Errorf("%s judged on %q", tg.ID, tg.Corpus)
		}
		got[tg.ID] = tg.Pass
	}
	for id, pass := range want {
		if p, ok := got[id]; !ok || p != pass {
			t.Errorf("target %s: pass=%v (present %v), want %v", id, p, ok, pass)
		}
	}
}

func TestMetricChangesVerdict(t *testing.T) {
	r := sampleRun()
	for i := range r.Stats { // wall time twice the CPU time for default only
		if r.Stats[i].Op == ops.Default {
			r.Stats[i].WallNs = 400
		}
	}
	ratio := func(m Metric) float64 {
		for _, tg := range GoTargets(r.Stats, "web", m) {
			if tg.ID == "1a" {
				return tg.Value
			}
		}
		return -1
	}
	if c, w := ratio(CPU), ratio(Wall); c != 0.4 || w != 0.8 {
		t.Fatalf("1a: cpu %v, wall %v; want 0.4 and 0.8", c, w)
	}
}

func TestMarkdownTables(t *testing.T) {
	var b strings.Builder
	sampleRun().Markdown(&b)
	md := b.String()
	for _, want := range []string{
		"### corpus `web`",
		"### corpus `web_dirty`",
		"| **Normalize/default** | 200.0 (180.0) | 200.0 | 1.00 / 1.00 | 0.40 |",
		"| whatwg-url Parse+Href | 7,000.0 (6,300.0) | 7,000.0 | 35.00 / 35.00 | 59.00 |",
		"| 1g | clara within 1.5× of default | web | 2 | 1.5 | **FAIL** |",
		"CPU-time medians",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// The chart is well-formed SVG with one bar per (op, corpus) pair.
func TestSVGWellFormed(t *testing.T) {
	r := sampleRun()
	var b strings.Builder
	r.SVG(&b)
	dec := xml.NewDecoder(strings.NewReader(b.String()))
	bars, texts := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("invalid XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			switch se.Name.Local {
			case "rect":
				for _, a := range se.Attr {
					if a.Name.Local == "height" && a.Value == "9" { // bars, not the legend swatches
						bars++
					}
				}
			case "text":
				texts++
			}
		}
	}
	if want := len(r.Stats); bars != want {
		t.Errorf("%d bars, want %d", bars, want)
	}
	if texts < len(r.Stats) {
		t.Errorf("%d text elements, want at least one label per bar", texts)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	r := sampleRun()
	dir := t.TempDir()
	b, err := JSON(r)
	if err != nil {
		t.Fatal(err)
	}
	var echo strings.Builder
	if err := Save(dir, map[string][]byte{"r.json": b}, "r.json", &echo); err != nil || echo.String() != string(b) {
		t.Fatalf("Save: %v, echoed %d of %d bytes", err, echo.Len(), len(b))
	}
	back, err := ReadJSON(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Stats) != len(r.Stats) || !reflect.DeepEqual(back.Stats[3], r.Stats[3]) || back.Metric != CPU || len(back.Targets) != len(r.Targets) {
		t.Fatalf("round trip lost data: %+v", back)
	}
}

func TestNiceBelow(t *testing.T) {
	for v, want := range map[float64]float64{7.7: 5, 10: 10, 19.9: 10, 20: 20, 49: 20, 150: 100, 0.3: 0.2} {
		if got := niceBelow(v); math.Abs(got-want) > 1e-9 {
			t.Errorf("niceBelow(%v) = %v, want %v", v, got, want)
		}
	}
}
