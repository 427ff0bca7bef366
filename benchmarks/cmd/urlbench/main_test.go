package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/benchmarks/internal/report"
)

// A smoke run on a small -corpus file writes the three outputs, and -from
// redraws them from the JSON with another metric.
func TestRunWritesResults(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "mini.txt")
	urls := "https://example.com/a?b=1\nHTTP://Example.COM:80/x/../y/\n\"http://bad\n"
	if err := os.WriteFile(list, []byte(urls), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	o := options{samples: 2, files: listFlag{list}, out: out, opsRe: "^(Hash/default|net/url.*)$", metric: "cpu"}
	if err := run(o, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	r, err := report.ReadJSON(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Corpora) != 1 || r.Corpora[0].Name != "mini" || r.Corpora[0].URLs != 3 || r.TargetCorpus != "mini" {
		t.Fatalf("corpora %+v, target corpus %q", r.Corpora, r.TargetCorpus)
	}
	got := map[string]int{}
	for _, s := range r.Stats {
		got[s.Op] = s.Errors
	}
	// Normalize/default is always kept as the reference.
	if len(got) != 3 || got["Normalize/default"] != 1 || got["net/url Parse+String"] != 1 {
		t.Fatalf("ops and error counts: %v", got)
	}
	for _, f := range []string{"results.md", "chart.svg"} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil || len(b) == 0 {
			t.Fatalf("%s: %v (%d bytes)", f, err, len(b))
		}
	}
	o = options{from: filepath.Join(out, "results.json"), out: filepath.Join(dir, "redraw"), metric: "wall"}
	if err := run(o, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "redraw", "results.md"))
	if !strings.Contains(string(md), "wall-time medians") {
		t.Fatalf("redrawn markdown does not use wall time:\n%s", md)
	}
	if err := run(options{metric: "median"}, io.Discard, io.Discard); err == nil {
		t.Fatal("bad -metric accepted")
	}
}
