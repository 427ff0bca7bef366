package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCLI runs the file commands in-process on testdata/urls/kasztp.txt
// (48,010 real web URLs) repeated 10 times; b.SetBytes makes the MB/s
// column the input throughput. Compare with `cat` in benchmarks/README.md.
func BenchmarkCLI(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "urls", "kasztp.txt"))
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(b.TempDir(), "kasztp10.txt")
	if err := os.WriteFile(p, bytes.Repeat(data, 10), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"normalize", []string{"normalize"}},
		{"normalize-jobs1", []string{"normalize", "--jobs", "1"}},
		{"normalize-jsonl", []string{"normalize", "--format", "jsonl"}},
		{"hash", []string{"hash"}},
		{"linktype", []string{"linktype"}},
		{"dedup", []string{"dedup"}},
		{"diff", []string{"diff", "--from", "default", "--to", "curiousnow-v0"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data) * 10))
			args := append(append([]string(nil), c.args...), "-q", "--no-progress", p)
			for b.Loop() {
				if code := run(args, &env{stdin: nil, stdout: io.Discard, stderr: io.Discard}); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
			b.ReportMetric(float64(b.N*480100)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}
