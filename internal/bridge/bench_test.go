package bridge

import (
	"os"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/udf"
)

// The bridge's own cost per row, next to the row function alone: what a
// DuckDB chunk pays in Go on top of Normalize (reading the strings,
// udf's row contract, laying the results out as a column). The C side
// (handing the column to DuckDB) is measured by sqlbench, in SQL.
//
//	go test ./internal/bridge -run - -bench . -benchmem
func BenchmarkChunk(b *testing.B) {
	urls := benchURLs(b)
	n := normalize.MustLookup("default")
	b.Run("Normalize", func(b *testing.B) {
		var dst []byte
		for b.Loop() {
			for _, u := range urls {
				dst, _ = n.AppendNormalized(dst[:0], u)
			}
		}
		perRow(b, len(urls))
	})
	for _, name := range []string{"normalize_url", "canonical_key", "url_port", "url_host", "url_registrable_domain", "url_path", "url_extension", "url_path_segments", "url_query", "url_fragment", "url_query_params", "parse_url", "canonicalize_url"} {
		f := udf.Overload(name, 1)
		b.Run("Chunk/"+name, func(b *testing.B) {
			in := []Vector{duckStrings(urls...)}
			col := NewColumn(f.Returns)
			flush := func(*Column, int) error { return nil }
			for b.Loop() {
				col.Reset()
				if err := Chunk(f, len(urls), in, col, flush); err != nil {
					b.Fatal(err)
				}
			}
			perRow(b, len(urls))
		})
	}
}

func perRow(b *testing.B, rows int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows), "ns/row")
}

// benchURLs is one chunk (2048 rows) of the shipped web URLs that the
// default profile accepts.
func benchURLs(b *testing.B) []string {
	data, err := os.ReadFile("../../testdata/urls/kasztp.txt")
	if err != nil {
		b.Fatal(err)
	}
	n := normalize.MustLookup("default")
	var urls []string
	for _, u := range strings.Split(string(data), "\n") {
		if _, err := n.Normalize(u); err == nil && len(urls) < 2048 {
			urls = append(urls, u)
		}
	}
	return urls
}
