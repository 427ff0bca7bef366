package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/urlnorm/urlnorm/beam/internal/beamtest"
)

var bin string // urlnorm-beam, built for the tests

func TestMain(m *testing.M) {
	beamtest.Main(m, func(m *testing.M) int {
		dir, err := os.MkdirTemp("", "urlnorm-beam-")
		if err != nil {
			panic(err)
		}
		defer os.RemoveAll(dir)
		bin = filepath.Join(dir, "urlnorm-beam")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			os.Stderr.Write(out)
			return 2
		}
		return m.Run()
	})
}

func command(t *testing.T, name string, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return o.Bytes(), e.Bytes(), ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return o.Bytes(), e.Bytes(), 0
}

// TestDedupLikeCLI: `urlnorm-beam dedup` prints what `urlnorm dedup`
// prints, byte for byte, on the local runners.
func TestDedupLikeCLI(t *testing.T) {
	args := append([]string{"--profile", "clara", "--format", "csv", "--examples", "2"}, beamtest.Corpus()...)
	want, _, code := command(t, beamtest.CLI(), append([]string{"dedup", "-q"}, args...)...)
	if code != 0 || len(want) < 1000 {
		t.Fatalf("urlnorm dedup: exit %d, %d bytes", code, len(want))
	}
	for _, runner := range []string{"prism", "direct"} {
		got, stderr, code := command(t, bin, append([]string{"dedup", "--runner", runner, "--output", "-"}, args...)...)
		if code != 0 || !bytes.Equal(got, want) {
			t.Errorf("%s: exit %d, output equal: %v\n%s", runner, code, bytes.Equal(got, want), stderr)
		}
		if !bytes.Contains(stderr, []byte("inputs invalid (")) || !bytes.Contains(stderr, []byte("distinct canonical URLs")) {
			t.Errorf("%s: no summary on stderr: %s", runner, stderr)
		}
	}
}

// TestUniversalRunner submits the pipeline through Beam's universal
// runner to a prism job server started here, as one submits to a Flink or
// Spark job server (--runner flink|spark wrap the same path): the dedup
// file equals urlnorm's, the invalid rows are written, --strict sets the
// exit status.
func TestUniversalRunner(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// prism.CreateJobServer binds ":port" (all interfaces; the test runs in
	// its own network namespace when it can, see beamtest).
	if _, err := prism.CreateJobServer(ctx, prism.Options{Port: port}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "groups.csv")
	_, stderr, code := command(t, bin, append([]string{"dedup", "--strict", "--runner", "universal", "--endpoint", "localhost:" + strconv.Itoa(port),
		"--environment_type", "LOOPBACK", "--output", out}, beamtest.Corpus()...)...)
	if code != 1 { // the corpus has invalid URLs
		t.Fatalf("exit %d, want 1 (--strict):\n%s", code, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := command(t, beamtest.CLI(), append([]string{"dedup", "-q", "--format", "csv"}, beamtest.Corpus()...)...)
	if !bytes.Equal(got, want) {
		t.Errorf("universal runner: the dedup file differs from urlnorm's (%d vs %d bytes)", len(got), len(want))
	}
	bad, err := os.ReadFile(out + "-invalid-00000-of-00001.jsonl")
	if err != nil || bytes.Count(bad, []byte("\n")) != 151 || !bytes.Contains(bad, []byte(`"where":"`+beamtest.Corpus()[1]+`:938","input":"https://\"www.mobygames.com/company/history/companyId","error":"invalid_host"`)) {
		t.Errorf("invalid rows (%v): %.300s", err, bad)
	}
}

// TestNormalizeLikeCLI: normalize, hash and canonicalize write every row
// urlnorm writes (sharded, in no order).
func TestNormalizeLikeCLI(t *testing.T) {
	dir := t.TempDir()
	for _, op := range []string{"normalize", "hash"} {
		prefix := filepath.Join(dir, op)
		_, stderr, code := command(t, bin, append([]string{op, "--profile", "edge-gateway", "--format", "tsv", "--shards", "3", "--output", prefix}, beamtest.Corpus()...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", op, code, stderr)
		}
		var got []string
		for i := range 3 {
			data, err := os.ReadFile(prefix + "-0000" + strconv.Itoa(i) + "-of-00003.tsv")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")[1:]...)
		}
		cli, _, _ := command(t, beamtest.CLI(), append([]string{op, "-q", "--profile", "edge-gateway", "--format", "tsv"}, beamtest.Corpus()...)...)
		var want []string
		for _, l := range strings.Split(strings.TrimSuffix(string(cli), "\n"), "\n")[1:] {
			if f := strings.Split(l, "\t"); f[2] == "" {
				want = append(want, f[0]+"\t"+f[1])
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if len(want) < 40000 || !slices.Equal(got, want) {
			t.Errorf("%s: %d rows, urlnorm %d", op, len(got), len(want))
		}
	}
}

// TestUsageErrors: bad flags and inputs fail before the pipeline runs,
// with urlnorm's messages and exit status 2.
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	txt := filepath.Join(dir, "a.txt")
	os.WriteFile(txt, []byte("https://example.com\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"dedup", "--format", "table", "--output", "-", txt}, `unknown --format "table"`},
		{[]string{"normalize", txt}, "--output is required"},
		{[]string{"normalize", "--output", "-", txt}, "only for dedup"},
		{[]string{"dedup", "--output", "-", "--runner", "dataflow", txt}, "local runners only"},
		{[]string{"dedup", "--output", "-", filepath.Join(dir, "missing.txt")}, "no such file"},
		{[]string{"dedup", "--output", "-", "--column", "url", txt}, "--column does not apply"},
		{[]string{"dedup", "--output", "-", "--profile", "nope", txt}, `unknown profile "nope"`},
		{[]string{"dedup", "--output", "-", dir}, "is a directory"},
		{[]string{"frobnicate"}, "usage: urlnorm-beam"},
	} {
		_, stderr, code := command(t, bin, c.args...)
		if code != 2 || !strings.Contains(string(stderr), c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
