package urlbeam

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// TestSinks: each format's shards hold every result once — quoting per
// format, NULL as the format says, a header per text table shard — and
// Parquet shards read back with DuckDB; groups write as JSON lines and
// Parquet. The batches are small (a bundle sends its lines a few at a
// time), as a large input makes them; TestReadMatchesCLI writes with the
// usual size.
func TestSinks(t *testing.T) {
	smallBatches(t)
	results := []Result{
		{Seq: 0, Input: `HTTPS://Example.com/a,"b"`, Value: `https://example.com/a,%22b%22`},
		{Seq: 1, Input: "https://example.com/\ttab", Value: "https://example.com/%09tab"},
		{Seq: 2, Null: true},
		{Seq: 3, Input: "https://example.com/x", Value: "https://example.com/x"},
	}
	want := map[string][]string{
		FormatText:  {"", "https://example.com/%09tab", "https://example.com/a,%22b%22", "https://example.com/x"},
		FormatTSV:   {"\t", "HTTPS://Example.com/a,\"b\"\thttps://example.com/a,%22b%22", "https://example.com/\\ttab\thttps://example.com/%09tab", "https://example.com/x\thttps://example.com/x"},
		FormatCSV:   {",", "\"HTTPS://Example.com/a,\"\"b\"\"\",\"https://example.com/a,%22b%22\"", "https://example.com/\ttab,https://example.com/%09tab", "https://example.com/x,https://example.com/x"},
		FormatJSONL: {`{"input":"HTTPS://Example.com/a,\"b\"","url":"https://example.com/a,%22b%22"}`, `{"input":"https://example.com/\ttab","url":"https://example.com/%09tab"}`, `{"input":"https://example.com/x","url":"https://example.com/x"}`, `{"input":null,"url":null}`},
	}
	header := map[string]string{FormatTSV: "input\turl", FormatCSV: "input,url"}
	spec, _ := Builtin("default")
	groups := []Group{{URL: "https://example.com/x", Count: 2, Examples: []string{"a", "b"}}, {URL: "https://example.com/y", Count: 1, Examples: []string{"c"}}}
	dir := t.TempDir()
	p, s := beam.NewPipelineWithRoot()
	col := beam.CreateList(s, results)
	for _, f := range Formats {
		WriteResults(s.Scope(f), filepath.Join(dir, f), f, OpNormalize, 3, col)
	}
	g := beam.CreateList(s, groups)
	WriteGroups(s.Scope("gj"), spec, filepath.Join(dir, "groups"), FormatJSONL, 2, g)
	WriteGroups(s.Scope("gp"), spec, filepath.Join(dir, "groups"), FormatParquet, 1, g)
	run(t, "prism", p)

	for f, w := range want {
		var got []string
		for i := range 3 { // every shard exists, each with its header
			lines := readLines(t, ShardName(filepath.Join(dir, f), i, 3, "."+f))
			if h := header[f]; h != "" {
				if len(lines) == 0 || lines[0] != h {
					t.Fatalf("%s shard %d: header %q", f, i, lines)
				}
				lines = lines[1:]
			}
			got = append(got, lines...)
		}
		slices.Sort(got)
		slices.Sort(w)
		if !slices.Equal(got, w) {
			t.Errorf("%s:\ngot  %q\nwant %q", f, got, w)
		}
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	query := func(q string) string {
		var out string
		if err := db.QueryRow(q).Scan(&out); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return out
	}
	got := query(fmt.Sprintf(`SELECT string_agg(coalesce(input, 'NULL') || ' ' || coalesce(url, 'NULL'), '|' ORDER BY input NULLS FIRST) FROM read_parquet('%s/parquet-*.parquet')`, dir))
	if want := `NULL NULL|HTTPS://Example.com/a,"b" https://example.com/a,%22b%22|https://example.com/	tab https://example.com/%09tab|https://example.com/x https://example.com/x`; got != want {
		t.Errorf("parquet: %q, want %q", got, want)
	}
	n, _ := spec.Normalizer()
	got = query(fmt.Sprintf(`SELECT string_agg(count || ' ' || url || ' ' || hash || ' ' || array_to_string(examples, ','), '|' ORDER BY url) FROM read_parquet('%s/groups-*.parquet')`, dir))
	if want := "2 https://example.com/x " + n.HashCanonical("https://example.com/x") + " a,b|1 https://example.com/y " + n.HashCanonical("https://example.com/y") + " c"; got != want {
		t.Errorf("groups parquet: %q, want %q", got, want)
	}
	var jl []string
	for i := range 2 {
		jl = append(jl, readLines(t, ShardName(filepath.Join(dir, "groups"), i, 2, ".jsonl"))...)
	}
	slices.Sort(jl)
	if want := `{"count":2,"url":"https://example.com/x","hash":"` + n.HashCanonical("https://example.com/x") + `","examples":["a","b"]}`; len(jl) != 2 || jl[1] != want {
		t.Errorf("groups jsonl: %q", jl)
	}
	if _, err := os.Stat(filepath.Join(dir, "groups-00000-of-00002.jsonl")); err != nil {
		t.Error(err)
	}
}
