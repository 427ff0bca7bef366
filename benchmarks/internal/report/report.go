// Package report turns harness results into the files the benchmarks
// publish: JSON (machine-readable), a Markdown table and an SVG chart,
// and checks the targets of issue 8 against them.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urlnorm/urlnorm/benchmarks/internal/harness"
	"github.com/urlnorm/urlnorm/benchmarks/internal/machine"
)

// CorpusInfo describes one corpus of a run.
type CorpusInfo struct {
	Name      string   `json:"name"`
	Files     []string `json:"files"`
	URLs      int      `json:"urls"`
	Bytes     int      `json:"bytes"`
	MeanBytes float64  `json:"mean_bytes"`
}

// Run is everything one harness run produced.
type Run struct {
	Command      string            `json:"command"`
	Started      time.Time         `json:"started"`
	Machine      machine.Info      `json:"machine"`
	Load         machine.Load      `json:"load"`
	Metric       Metric            `json:"metric"` // what the chart and the verdicts use
	Samples      int               `json:"samples"`
	Warmup       int               `json:"warmup"`
	Corpora      []CorpusInfo      `json:"corpora"`
	Missing      []string          `json:"missing_corpora,omitempty"`
	Stats        []harness.Stat    `json:"results"`
	TargetCorpus string            `json:"target_corpus"` // the corpus the targets are judged on
	Targets      []Target          `json:"targets"`
	Versions     map[string]string `json:"versions"` // module → version of the peers
}

// JSON renders v indented, with a final newline (the result files).
func JSON(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	return append(b, '\n'), err
}

// Save writes files (name → content) into dir, creating it, and copies
// the file named echo to stdout.
func Save(dir string, files map[string][]byte, echo string, stdout io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	_, err := stdout.Write(files[echo])
	return err
}

// ReadJSON reads a run saved as JSON (to redraw the chart or the
// tables from saved results).
func ReadJSON(path string) (*Run, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Run
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}

// Markdown writes the run's tables: the conditions, one table per corpus,
// then the targets.
func (r *Run) Markdown(w io.Writer) {
	fmt.Fprintf(w, "Run `%s` started %s: %d samples per op (after %d warm-up), interleaved.\n\n",
		r.Command, r.Started.UTC().Format("2006-01-02 15:04 MST"), r.Samples, r.Warmup)
	m := r.Machine
	fmt.Fprintf(w, "Machine: %s, %d cores, %d GiB RAM, Linux %s, %s %s.\n\n", m.CPU, m.Cores, m.MemoryGiB, m.Kernel, m.Go, m.OSArch)
	fmt.Fprintf(w, "Load: %s\n\nVerdicts and chart use %s medians.\n\n", r.Load.String(), r.Metric.Label())
	for _, c := range r.Corpora {
		r.corpusTable(w, c)
	}
	if len(r.Missing) > 0 {
		fmt.Fprintf(w, "Corpora not found (shared data absent): %s.\n\n", strings.Join(r.Missing, ", "))
	}
	WriteTargets(w, r.Targets)
}

func (r *Run) corpusTable(w io.Writer, c CorpusInfo) {
	fmt.Fprintf(w, "### corpus `%s`: %d URLs, %d bytes, mean %.1f B/URL (%s)\n\n", c.Name, c.URLs, c.Bytes, c.MeanBytes, strings.Join(c.Files, " + "))
	fmt.Fprintln(w, "| op | wall ns/URL median (min) | CPU ns/URL median | ÷ default wall / CPU | allocs/URL | heap B/URL | errors | URLs |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, s := range r.Stats {
		if s.Corpus != c.Name {
			continue
		}
		fmt.Fprintf(w, "| %s | %s (%s) | %s | %.2f / %.2f | %s | %s | %d | %d |\n",
			opLabel(s), num(s.WallNs), num(s.WallMin), num(s.CPUNs), s.RatioWall, s.RatioCPU,
			small(s.Allocs), small(s.Bytes), s.Errors, s.N)
	}
	fmt.Fprintln(w)
}

func opLabel(s harness.Stat) string {
	if s.Group == "urlnorm" {
		return "**" + s.Op + "**"
	}
	return s.Op
}

// num formats a time with one decimal and thousands separators.
func num(v float64) string {
	s := fmt.Sprintf("%.1f", v)
	i := strings.IndexByte(s, '.')
	for j := i - 3; j > 0; j -= 3 {
		s = s[:j] + "," + s[j:]
	}
	return s
}

// small formats allocation counts: exact zero as 0, tiny averages with
// enough digits to show they are not zero.
func small(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v < 0.01:
		return fmt.Sprintf("%.5f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}
