// Package harness times operations over URL corpora, interleaved: every
// round runs every op on every corpus once (a full pass over the corpus),
// in an order rotated from round to round, so that all ops see the same
// machine noise. Each pass records wall time, process CPU time
// (getrusage: all threads, GC included), heap allocations and rejected
// inputs; the report takes medians over the rounds.
package harness

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/urlnorm/urlnorm/benchmarks/internal/corpus"
	"github.com/urlnorm/urlnorm/benchmarks/internal/machine"
	"github.com/urlnorm/urlnorm/benchmarks/internal/ops"
)

// Sample is one pass of one op over its input.
type Sample struct {
	Wall, CPU time.Duration
	Mallocs   uint64 // heap objects allocated during the pass
	Bytes     uint64 // heap bytes allocated during the pass
	Errors    int    // inputs the op rejected
	N         int    // inputs processed
}

// Pass runs f over urls once. It collects garbage first so that every
// pass starts from the same heap; a collection during the pass is part of
// the op's cost (and of its CPU time).
func Pass(f func(string) bool, urls []string) Sample {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	c0 := machine.CPUTime()
	t0 := time.Now()
	errs := 0
	for _, u := range urls {
		if !f(u) {
			errs++
		}
	}
	wall := time.Since(t0)
	cpu := machine.CPUTime() - c0
	runtime.ReadMemStats(&m1)
	return Sample{Wall: wall, CPU: cpu, Mallocs: m1.Mallocs - m0.Mallocs,
		Bytes: m1.TotalAlloc - m0.TotalAlloc, Errors: errs, N: len(urls)}
}

// Stat summarises the samples of one op on one corpus. Times are per URL.
type Stat struct {
	Op      string  `json:"op"`
	Group   string  `json:"group"`
	Profile string  `json:"profile,omitempty"`
	Corpus  string  `json:"corpus"`
	N       int     `json:"urls"` // inputs per pass
	Samples int     `json:"samples"`
	WallNs  float64 `json:"wall_ns_median"`
	WallMin float64 `json:"wall_ns_min"`
	CPUNs   float64 `json:"cpu_ns_median"`
	Allocs  float64 `json:"allocs_per_url"`
	Bytes   float64 `json:"heap_bytes_per_url"`
	Errors  int     `json:"errors"`
	// RatioWall and RatioCPU compare this op with ops.Default on the same
	// corpus: the median over rounds of the two ops' times in the same
	// round (< 1: faster). See Paired.
	RatioWall float64 `json:"ratio_wall_to_default"`
	RatioCPU  float64 `json:"ratio_cpu_to_default"`
	// The per-URL times of every sample, in round order.
	WallSamples []float64 `json:"wall_ns_samples,omitempty"`
	CPUSamples  []float64 `json:"cpu_ns_samples,omitempty"`
}

// Config controls a run.
type Config struct {
	Samples  int       // rounds kept (≥ 10 for reported figures)
	Warmup   int       // rounds run first and discarded
	Progress io.Writer // one line per round; nil for none
}

type job struct {
	op     ops.Op
	corpus *corpus.Corpus
	input  []string
	f      func(string) bool
	got    []Sample
}

// Run times every op on every corpus and returns one Stat per pair, in
// corpus-major, op order.
func Run(cfg Config, corpora []*corpus.Corpus, list []ops.Op) []Stat {
	var jobs []*job
	for _, c := range corpora {
		for _, op := range list {
			in := c.URLs
			if op.Input != nil {
				in = op.Input(c.URLs)
			}
			jobs = append(jobs, &job{op: op, corpus: c, input: in, f: op.New()})
		}
	}
	for r := 0; r < cfg.Warmup+cfg.Samples; r++ {
		start := time.Now()
		for i := range jobs {
			j := jobs[(i+r*7)%len(jobs)] // rotate so no op always follows the same one
			s := Pass(j.f, j.input)
			if r >= cfg.Warmup {
				j.got = append(j.got, s)
			}
		}
		if cfg.Progress != nil {
			kind := "sample"
			if r < cfg.Warmup {
				kind = "warm-up"
			}
			fmt.Fprintf(cfg.Progress, "round %d/%d (%s) %.1fs, load %s\n",
				r+1, cfg.Warmup+cfg.Samples, kind, time.Since(start).Seconds(), machine.LoadAvg())
		}
	}
	stats := make([]Stat, len(jobs))
	for i, j := range jobs {
		stats[i] = summarise(j)
	}
	AddRatios(stats)
	return stats
}

func summarise(j *job) Stat {
	n := float64(max(len(j.input), 1))
	per := func(f func(Sample) float64) []float64 {
		v := make([]float64, len(j.got))
		for i, s := range j.got {
			v[i] = f(s) / n
		}
		return v
	}
	wall := per(func(s Sample) float64 { return float64(s.Wall.Nanoseconds()) })
	cpu := per(func(s Sample) float64 { return float64(s.CPU.Nanoseconds()) })
	st := Stat{Op: j.op.Name, Group: j.op.Group, Profile: j.op.Profile, Corpus: j.corpus.Name,
		N: len(j.input), Samples: len(j.got),
		WallNs:      Median(wall),
		WallMin:     minOf(wall),
		CPUNs:       Median(cpu),
		WallSamples: wall,
		CPUSamples:  cpu,
		Allocs:      Median(per(func(s Sample) float64 { return float64(s.Mallocs) })),
		Bytes:       Median(per(func(s Sample) float64 { return float64(s.Bytes) })),
	}
	for _, s := range j.got {
		st.Errors = max(st.Errors, s.Errors)
	}
	return st
}

// AddRatios fills RatioWall/RatioCPU against ops.Default per corpus.
func AddRatios(stats []Stat) {
	ref := map[string]Stat{}
	for _, s := range stats {
		if s.Op == ops.Default {
			ref[s.Corpus] = s
		}
	}
	for i, s := range stats {
		if d, ok := ref[s.Corpus]; ok && d.WallNs > 0 && d.CPUNs > 0 {
			stats[i].RatioWall = Paired(s.WallSamples, d.WallSamples, s.WallNs, d.WallNs, Div)
			stats[i].RatioCPU = Paired(s.CPUSamples, d.CPUSamples, s.CPUNs, d.CPUNs, Div)
		}
	}
}

// Paired compares two ops sample by sample: the median over rounds of
// f(a[r], b[r]). Both ops ran in the same round, a few seconds apart, so a
// slow spell of the machine (a neighbour, a frequency change) moves both
// and cancels out; medians of each op taken separately would mix spells.
// Without equal sample lists it falls back to f(aMedian, bMedian).
func Paired(a, b []float64, aMedian, bMedian float64, f func(x, y float64) float64) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return f(aMedian, bMedian)
	}
	v := make([]float64, len(a))
	for r := range a {
		v[r] = f(a[r], b[r])
	}
	return Median(v)
}

// Div and Sub are the comparisons Paired takes.
func Div(x, y float64) float64 { return x / y }

// Sub is x − y.
func Sub(x, y float64) float64 { return x - y }

func minOf(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	return slices.Min(v)
}

// Median of v (the mean of the middle two for an even count); 0 if empty.
func Median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
