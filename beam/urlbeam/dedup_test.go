package urlbeam

import (
	"bytes"
	"compress/gzip"
	"database/sql"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2" // writes the test's Parquet file

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/urlnorm/urlnorm/beam/internal/beamtest"
)

// trickyFiles writes inputs that exercise every reading rule: a byte
// order mark at a file's start (removed) and in the middle of a file, as
// in concatenated files (kept: it is data), CRLF line ends, empty lines
// (empty_input), gzip, CSV quoting with commas and newlines, a CSV record
// with broken quoting (csv_syntax), blank CSV lines (skipped), a short
// CSV record (missing_field), a TSV with quotes as data, Parquet with a
// NULL. The spellings repeat across files, so examples depend on order.
func trickyFiles(t *testing.T) []string {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("\ufeffHTTP://Example.com/a\nhttps://example.com/b/\n"))
	zw.Close()
	files := []string{
		write("1-first.txt", "\ufeffhttps://Example.com/a\r\nhttps://example.com/a/\r\n\r\nnot a url\n"+
			"\ufeffhttps://example.com/a\nhttps://example.com/b"), // no final newline
		write("2-second.txt.gz", gz.String()),
		write("3-table.csv", "id,url\n1,\"https://example.com/a?x=1,2\"\n\n2,\"https://example.com/\nb\"\n3,https://exa\"mple.com/\n4\n5,HTTPS://EXAMPLE.COM/b\n"),
		write("4-table.tsv", "url\tn\nhttps://example.com/\"q\"\t1\nhttps://example.com/a\t2\n"),
	}
	pq := filepath.Join(dir, "5-pages.parquet")
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`COPY (SELECT * FROM (VALUES ('https://example.com/a#x', 1), (NULL, 2), ('https://example.com/c', 3)) t(url, status)) TO ` +
		"'" + pq + "' (FORMAT parquet)"); err != nil {
		t.Fatal(err)
	}
	return append(files, pq)
}

// runDedup runs Dedup over files and writes the report like `urlnorm
// dedup --format F --examples E --min-count M --top T`.
func runDedup(t *testing.T, runner, profile string, files []string, r DedupReport) ([]byte, map[string]int64) {
	t.Helper()
	spec, err := Builtin(profile)
	if err != nil {
		t.Fatal(err)
	}
	opt, err := OptionsFor(spec, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(files, opt); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "groups."+r.Format)
	p, s := beam.NewPipelineWithRoot()
	d := Dedup(s, spec, Read(s, files, opt), r.Examples)
	WriteDedup(s, spec, d, out, r)
	c := run(t, runner, p)
	if c[CounterInputs] != c[CounterValid]+c[CounterNulls]+c[CounterInvalid] || c[CounterInputs] == 0 {
		t.Errorf("counters do not add up: %v", c)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data, c
}

// smallBatches makes Dedup and the sinks send batches of a few records
// and bundles send their groups every few groups, so that a test's small
// inputs take the paths that large inputs take (the runners of the tests
// run the workers in this process).
func smallBatches(t *testing.T) {
	chunk, groups := chunkBytes, bundleGroups
	chunkBytes, bundleGroups = 200, 7
	t.Cleanup(func() { chunkBytes, bundleGroups = chunk, groups })
}

// TestDedupMatchesCLI: Dedup's report over the test corpus and over
// files that exercise every reading rule is byte for byte what `urlnorm
// dedup` prints, in CSV and JSON, with the command's options, also when
// the groups travel in many small batches; the counters equal the
// report's totals.
func TestDedupMatchesCLI(t *testing.T) {
	cases := []struct {
		name, profile string
		files         func(*testing.T) []string
		r             DedupReport
		small         bool // smallBatches
	}{
		{"corpus/csv", "default", func(*testing.T) []string { return beamtest.Corpus() }, DedupReport{Format: "csv", Examples: 3, MinCount: 1}, false},
		{"corpus/json-top", "curiousnow-v0", func(*testing.T) []string { return beamtest.Corpus() }, DedupReport{Format: "json", Examples: 2, MinCount: 2, Top: 25}, false},
		{"corpus/json-small-batches", "default", func(*testing.T) []string { return beamtest.Corpus() }, DedupReport{Format: "json", Examples: 3, MinCount: 1}, true},
		{"corpus/csv-top-small-batches", "default", func(*testing.T) []string { return beamtest.Corpus() }, DedupReport{Format: "csv", Examples: 2, MinCount: 2, Top: 40}, true},
		{"tricky/csv", "default", trickyFiles, DedupReport{Format: "csv", Examples: 5, MinCount: 1}, false},
		{"tricky/json", "clara", trickyFiles, DedupReport{Format: "json", Examples: 3, MinCount: 1}, false},
		{"tricky/json-small-batches", "default", trickyFiles, DedupReport{Format: "json", Examples: 5, MinCount: 1}, true},
		{"tricky/no-examples", "rfc3986", trickyFiles, DedupReport{Format: "csv", Examples: 0, MinCount: 1, Top: 2}, false},
	}
	for _, runner := range runners {
		for _, c := range cases {
			t.Run(runner+"/"+c.name, func(t *testing.T) {
				if c.small {
					smallBatches(t)
				}
				files := c.files(t)
				got, counters := runDedup(t, runner, c.profile, files, c.r)
				args := []string{"dedup", "-q", "--profile", c.profile, "--format", c.r.Format, "--examples", strconv.Itoa(c.r.Examples),
					"--min-count", strconv.FormatInt(c.r.MinCount, 10), "--top", strconv.Itoa(c.r.Top)}
				want := cli(t, append(args, files...)...)
				if len(bytes.Split(want, []byte("\n"))) < 3 {
					t.Fatalf("urlnorm printed too little to compare:\n%s", want)
				}
				if !bytes.Equal(got, want) {
					diffLines(t, got, want)
				}
				if c.r.Format == "json" {
					var rep struct{ Inputs, Invalid, Distinct int64 }
					if err := json.Unmarshal(want, &rep); err != nil {
						t.Fatal(err)
					}
					if counters[CounterInputs] != rep.Inputs || counters[CounterInvalid] != rep.Invalid || counters[CounterDistinct] != rep.Distinct {
						t.Errorf("counters %v; urlnorm dedup: %+v", counters, rep)
					}
				}
			})
		}
	}
}

func diffLines(t *testing.T, got, want []byte) {
	t.Helper()
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range max(len(g), len(w)) {
		var gl, wl []byte
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if !bytes.Equal(gl, wl) {
			t.Fatalf("line %d differs (%d vs %d lines):\nbeam:    %q\nurlnorm: %q", i+1, len(g), len(w), gl, wl)
		}
	}
}

// TestReadMatchesCLI: Read gives the values `urlnorm normalize` reads
// from the same files — inputs, reading errors, NULLs — and names invalid
// rows by file and line (or Parquet row) as its messages do.
func TestReadMatchesCLI(t *testing.T) {
	files := trickyFiles(t)
	spec, _ := Builtin("default")
	opt, err := OptionsFor(spec, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p, s := beam.NewPipelineWithRoot()
	results, invalid := Normalize(s, spec, Read(s, files, opt))
	dir := t.TempDir()
	WriteResults(s, filepath.Join(dir, "out"), FormatTSV, OpNormalize, 2, results)
	WriteInvalid(s, filepath.Join(dir, "bad"), 1, invalid)
	run(t, "prism", p)

	// Beam: "input<TAB>url" per row, after each shard's header; a NULL
	// row is "<TAB>". Invalid rows: "where: kind".
	var got, gotBad []string
	for i := range 2 {
		lines := readLines(t, ShardName(filepath.Join(dir, "out"), i, 2, ".tsv"))
		if len(lines) == 0 || lines[0] != "input\turl" {
			t.Fatalf("shard %d: no header: %q", i, lines)
		}
		got = append(got, lines[1:]...)
	}
	for _, l := range readLines(t, ShardName(filepath.Join(dir, "bad"), 0, 1, ".jsonl")) {
		var r struct{ Where, Error string }
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		gotBad = append(gotBad, r.Where+": "+r.Error)
	}

	// urlnorm: "input<TAB>url<TAB>error" rows, "\t\t" for a NULL; its
	// messages "urlnorm normalize: where: kind: "input"".
	cmd := exec.Command(beamtest.CLI(), append([]string{"normalize", "--format", "tsv"}, files...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("urlnorm: %v\n%s", err, stderr.Bytes())
	}
	var want, wantBad []string
	for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")[1:] {
		f := strings.Split(l, "\t")
		if f[2] == "" {
			want = append(want, f[0]+"\t"+f[1])
		}
	}
	for _, l := range strings.Split(stderr.String(), "\n") {
		if m, ok := strings.CutPrefix(l, "urlnorm normalize: "); ok && strings.Contains(m, ": ") && !strings.Contains(m, " inputs invalid") {
			where, desc, _ := strings.Cut(m, ": ")
			kind, _, _ := strings.Cut(desc, " ")
			wantBad = append(wantBad, where+": "+strings.TrimSuffix(kind, ":"))
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || len(want) < 10 {
		t.Errorf("results:\nbeam    %q\nurlnorm %q", got, want)
	}
	slices.Sort(gotBad)
	slices.Sort(wantBad)
	if !slices.Equal(gotBad, wantBad) || len(wantBad) < 5 {
		t.Errorf("invalid rows:\nbeam    %q\nurlnorm %q", gotBad, wantBad)
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}
