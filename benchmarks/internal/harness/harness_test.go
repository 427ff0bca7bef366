package harness

import (
	"testing"

	"github.com/urlnorm/urlnorm/benchmarks/internal/corpus"
	"github.com/urlnorm/urlnorm/benchmarks/internal/ops"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},      // odd count: middle after sorting
		{[]float64{4, 1, 3, 2}, 2.5}, // even count: mean of the middle two
	} {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestPassCountsErrorsAndAllocs(t *testing.T) {
	var keep [][]byte
	f := func(s string) bool {
		keep = append(keep, make([]byte, 64)) // one heap object per call
		return s != "bad"
	}
	s := Pass(f, []string{"a", "bad", "b", "bad"})
	if s.N != 4 || s.Errors != 2 {
		t.Fatalf("N=%d Errors=%d, want 4 and 2", s.N, s.Errors)
	}
	if s.Mallocs < 4 || s.Bytes < 4*64 {
		t.Fatalf("Mallocs=%d Bytes=%d, want ≥ 4 objects of 64 B", s.Mallocs, s.Bytes)
	}
	if s.Wall <= 0 {
		t.Fatalf("Wall = %v", s.Wall)
	}
}

func TestRunShapesAndRatios(t *testing.T) {
	c := &corpus.Corpus{Name: "tiny", URLs: []string{"https://example.com/a?b=1", "HTTP://Example.COM:80/", `"http://x`}}
	var list []ops.Op
	for _, op := range ops.All() {
		if op.Name == ops.Default || op.Name == "net/url Parse+String" {
			list = append(list, op)
		}
	}
	stats := Run(Config{Samples: 3}, []*corpus.Corpus{c}, list)
	if len(stats) != 2 {
		t.Fatalf("%d stats, want 2", len(stats))
	}
	for _, s := range stats {
		if s.Samples != 3 || s.N != 3 || s.Corpus != "tiny" {
			t.Errorf("%s: samples=%d N=%d corpus=%q", s.Op, s.Samples, s.N, s.Corpus)
		}
		if s.Errors != 1 { // the line starting with a quote (CSV residue)
			t.Errorf("%s: %d errors, want 1", s.Op, s.Errors)
		}
		if s.Op == ops.Default && (s.RatioWall != 1 || s.RatioCPU != 1) {
			t.Errorf("default's own ratio = %v / %v, want 1", s.RatioWall, s.RatioCPU)
		}
		if s.WallNs <= 0 || s.WallMin > s.WallNs {
			t.Errorf("%s: wall median %v, min %v", s.Op, s.WallNs, s.WallMin)
		}
	}
}

func TestPairedCancelsDrift(t *testing.T) {
	// Slow spells (×3) hit a in the last three rounds, b in the last two: paired
	// ratios are 0.5, 0.5, 1.5, 0.5, 0.5 (median 0.5), while the separate
	// medians 30 / 20 would report a as 1.5× slower.
	a := []float64{10, 10, 30, 30, 30}
	b := []float64{20, 20, 20, 60, 60}
	if got := Paired(a, b, Median(a), Median(b), Div); got != 0.5 {
		t.Errorf("Paired ratio = %v, want 0.5", got)
	}
	if got := Median(a) / Median(b); got != 1.5 {
		t.Fatalf("separate medians = %v, test data wrong", got)
	}
	if got := Paired(b, a, Median(b), Median(a), Sub); got != 10 {
		t.Errorf("Paired difference = %v, want median of 10,10,-10,30,30 = 10", got)
	}
	// Unequal sample lists fall back to the medians.
	if got := Paired(a, b[:2], 3, 4, Div); got != 0.75 {
		t.Errorf("fallback = %v, want 3/4", got)
	}
}
