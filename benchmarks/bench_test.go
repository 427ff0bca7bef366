// The harness's ops as ordinary Go benchmarks, for benchstat and pprof:
//
//	go test -run '^$' -bench . -benchmem -count 10 | tee new.txt
//	go test -run '^$' -bench 'Ops/web/Normalize/default' -cpuprofile cpu.out
//
// BenchmarkOps/<corpus>/<op>: one URL per op, cycling through the corpus,
// so ns/op is ns/URL and allocs/op is allocs/URL. cmd/urlbench times the
// same ops interleaved and writes the published tables.
package benchmarks

import (
	"testing"

	"github.com/urlnorm/urlnorm/benchmarks/internal/corpus"
	"github.com/urlnorm/urlnorm/benchmarks/internal/ops"
)

// corpora returns the standard corpora, or the shipped sample when the
// shared data is absent.
func corpora(b *testing.B) []*corpus.Corpus {
	repo, dir, err := corpus.Locate("")
	if err != nil {
		b.Fatal(err)
	}
	cs, _, err := corpus.LoadStandard(dir)
	if err != nil || len(cs) == 0 {
		c, err := corpus.LoadShipped(repo)
		if err != nil {
			b.Fatal(err)
		}
		cs = []*corpus.Corpus{c}
	}
	return cs
}

func BenchmarkOps(b *testing.B) {
	for _, c := range corpora(b) {
		for _, op := range ops.All() {
			in := c.URLs
			if op.Input != nil {
				in = op.Input(in)
			}
			b.Run(c.Name+"/"+op.Name, func(b *testing.B) {
				f := op.New()
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					f(in[i%len(in)])
				}
			})
		}
	}
}
