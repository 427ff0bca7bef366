package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/urlnorm/urlnorm/benchmarks/internal/ops"
)

// Chart geometry (pixels).
const (
	labelW  = 360 // op names
	plotW   = 560
	valueW  = 70 // room for the value after the longest bar
	topH    = 64 // title and legend
	bottomH = 36 // axis labels
	barH    = 9
	rowGap  = 8
)

var corpusColors = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b"}

// SVG draws ns/URL (r.Metric's median) per op as horizontal bars, one bar per
// corpus, on a logarithmic axis: the peers span three decades, so a
// linear axis would flatten everything but whatwg-url. Standard library
// only.
func (r *Run) SVG(w io.Writer) {
	names, corpora := r.axes()
	val := map[[2]string]float64{}
	lo, hi := math.Inf(1), 0.0
	for _, s := range r.Stats {
		if v := r.Metric.Of(s); v > 0 {
			val[[2]string{s.Op, s.Corpus}] = v
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if hi == 0 {
		lo, hi = 1, 10
	}
	// The axis runs from a 1-2-5 step below the smallest value (so the
	// shortest bar stays visible) to the decade above the largest.
	a0, a1 := niceBelow(lo/1.3), math.Pow(10, math.Ceil(math.Log10(hi)))
	if a1 <= a0 {
		a1 = a0 * 10
	}
	x := func(v float64) float64 { return labelW + plotW*math.Log10(v/a0)/math.Log10(a1/a0) }
	rowH := len(corpora)*(barH+1) + rowGap
	height := topH + len(names)*rowH + bottomH
	width := labelW + plotW + valueW

	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n", width, height, width, height)
	fmt.Fprintf(w, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(w, `<text x="10" y="18" font-size="14" font-weight="bold">%s</text>`+"\n",
		esc(fmt.Sprintf("ns per URL, %s median of %d samples (log scale; shorter is faster)", r.Metric.Label(), r.Samples)))
	fmt.Fprintf(w, `<text x="10" y="34" fill="#555">%s</text>`+"\n",
		esc(fmt.Sprintf("%s, %d cores, %s, %s", r.Machine.CPU, r.Machine.Cores, r.Machine.Go, r.Started.UTC().Format("2006-01-02"))))
	for i, c := range corpora {
		lx := labelW + i*130
		fmt.Fprintf(w, `<rect x="%d" y="44" width="12" height="10" fill="%s"/><text x="%d" y="53">%s</text>`+"\n", lx, corpusColors[i%len(corpusColors)], lx+16, esc("corpus "+c))
	}
	gridAndAxis(w, x, a0, a1, topH, topH+len(names)*rowH)
	for i, op := range names {
		y := topH + i*rowH
		fmt.Fprintf(w, `<text x="%d" y="%d" text-anchor="end"%s>%s</text>`+"\n", labelW-6, y+rowH/2+2, labelStyle(r.group(op)), esc(op))
		for j, c := range corpora {
			v, ok := val[[2]string{op, c}]
			if !ok {
				continue
			}
			by := y + j*(barH+1)
			fmt.Fprintf(w, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s</title></rect>`+"\n",
				labelW, by, math.Max(x(v)-labelW, 1), barH, corpusColors[j%len(corpusColors)], esc(fmt.Sprintf("%s on %s: %.1f ns/URL", op, c, v)))
			fmt.Fprintf(w, `<text x="%.1f" y="%d" font-size="9" fill="#333">%s</text>`+"\n", x(v)+3, by+barH-1, num(v))
		}
	}
	fmt.Fprintln(w, "</svg>")
}

// axes returns the op names in run order and the corpus names.
func (r *Run) axes() (names, corpora []string) {
	seen := map[string]bool{}
	for _, s := range r.Stats {
		if !seen[s.Op] {
			seen[s.Op] = true
			names = append(names, s.Op)
		}
	}
	for _, c := range r.Corpora {
		corpora = append(corpora, c.Name)
	}
	return names, corpora
}

func (r *Run) group(op string) string {
	for _, s := range r.Stats {
		if s.Op == op {
			return s.Group
		}
	}
	return ""
}

// steps are the 1-2-5 values of one decade.
var steps = []float64{1, 2, 5}

// niceBelow returns the largest 1-2-5 value ≤ v.
func niceBelow(v float64) float64 {
	d := math.Pow(10, math.Floor(math.Log10(v)))
	best := d
	for _, m := range steps {
		if m*d <= v {
			best = m * d
		}
	}
	return best
}

// gridAndAxis draws a line at every 1-2-5 value from a0 to a1, solid at
// decades and dotted between, each labelled.
func gridAndAxis(w io.Writer, x func(float64) float64, a0, a1 float64, y0, y1 int) {
	for d := math.Floor(math.Log10(a0)); math.Pow(10, d) <= a1; d++ {
		for _, m := range steps {
			v := m * math.Pow(10, d)
			if v < a0*0.999 || v > a1*1.001 {
				continue
			}
			dash := ""
			if m > 1 {
				dash = ` stroke-dasharray="2,3"`
			}
			fmt.Fprintf(w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ccc"%s/>`+"\n", x(v), y0-4, x(v), y1, dash)
			fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%s</text>`+"\n", x(v), y1+14, axisLabel(v))
		}
	}
	fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="middle" fill="#555">ns/URL</text>`+"\n", x(math.Sqrt(a0*a1)), y1+30)
}

func axisLabel(v float64) string {
	if v >= 1000 {
		return fmt.Sprintf("%gk", v/1000)
	}
	return fmt.Sprintf("%g", v)
}

func labelStyle(group string) string {
	switch group {
	case ops.GroupUrlnorm:
		return ` font-weight="bold" fill="#0b3d91"`
	case ops.GroupFloor:
		return ` fill="#777" font-style="italic"`
	}
	return ""
}

var esc = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace
