package urlbeam

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	//lint:ignore SA1019 deprecated for prism, still offered (and measured) as the lighter in-process runner
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/direct"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/urlnorm/urlnorm/beam/internal/beamtest"
	"github.com/urlnorm/urlnorm/internal/golden"
	"github.com/urlnorm/urlnorm/internal/profileload"
	"github.com/urlnorm/urlnorm/normalize"
)

func TestMain(m *testing.M) {
	beamtest.Main(m, func(m *testing.M) int { return ptest.MainRetWithDefault(m, "prism") })
}

// runners are the in-process runners every pipeline test runs on.
var runners = []string{"prism", "direct"}

func run(t *testing.T, runner string, p *beam.Pipeline) map[string]int64 {
	t.Helper()
	r, err := beam.Run(context.Background(), runner, p)
	if err != nil {
		t.Fatalf("%s: %v", runner, err)
	}
	counters := map[string]int64{}
	if r == nil {
		return counters
	}
	for _, c := range r.Metrics().AllMetrics().Counters() {
		if c.Namespace() == CounterNamespace {
			counters[c.Name()] += c.Result()
		}
	}
	return counters
}

// TestGoldenRows: every golden row of every profile through Normalize,
// Hash and Canonicalize gives what the Go API gives (results and invalid
// rows with their kinds and messages), on prism and the direct runner, and
// the counters count every row once. (One transform per pipeline: the
// direct runner keys counters by DoFn type, not by step.)
func TestGoldenRows(t *testing.T) {
	profiles, err := golden.Profiles()
	if err != nil || len(profiles) < 6 {
		t.Fatalf("golden profiles %v: %v", profiles, err)
	}
	for _, runner := range runners {
		for _, name := range profiles {
			for _, op := range []string{OpNormalize, OpHash, OpCanonicalize} {
				t.Run(runner+"/"+name+"/"+op, func(t *testing.T) { testGolden(t, runner, name, op) })
			}
		}
	}
}

func testGolden(t *testing.T, runner, name, op string) {
	gold, err := golden.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	n := normalize.MustLookup(name)
	rows := make([]Row, len(gold))
	var want []Result
	var wantBad []Invalid
	for i, g := range gold {
		r := Row{File: 0, Seq: int64(i), Where: g.String(), Value: g.Input}
		rows[i] = r
		v, err := apply(n, op, r.Value)
		if op == OpNormalize && (v != g.Want || normalize.KindOf(err) != g.WantErr && err != nil) {
			t.Fatalf("%s: the Go API disagrees with the golden row", g)
		}
		if err != nil {
			wantBad = append(wantBad, Invalid{File: 0, Seq: r.Seq, Where: r.Where, Input: r.Value, Kind: normalize.KindOf(err), Error: err.Error()})
			continue
		}
		want = append(want, Result{File: 0, Seq: r.Seq, Input: r.Value, Value: v})
	}
	p, s := beam.NewPipelineWithRoot()
	results, invalid := Apply(s, spec, op, beam.CreateList(s, rows))
	passert.EqualsList(s.Scope("results"), results, want)
	if len(wantBad) == 0 {
		passert.Empty(s.Scope("invalid"), invalid)
	} else {
		passert.EqualsList(s.Scope("invalid"), invalid, wantBad)
	}
	c := run(t, runner, p)
	total, bad := int64(len(rows)), int64(len(wantBad))
	if c[CounterInputs] != total || c[CounterValid] != total-bad || c[CounterInvalid] != bad {
		t.Errorf("counters %v: want %d inputs, %d valid, %d invalid", c, total, total-bad, bad)
	}
	for _, b := range wantBad {
		bad -= c[CounterInvalidKind+b.Kind] // each kind's count, once
		c[CounterInvalidKind+b.Kind] = 0
	}
	if bad != 0 {
		t.Errorf("the invalid_<kind> counters do not add up to the invalid rows: %d off", bad)
	}
}

func apply(n *normalize.Normalizer, op, in string) (string, error) {
	switch op {
	case OpHash:
		return n.Hash(in)
	case OpCanonicalize:
		r, err := n.Canonicalize(in)
		if err != nil {
			return "", err
		}
		b, err := r.MarshalJSON() // = SQLite's canonicalize_url (udf's tests)
		return string(b), err
	}
	return n.Normalize(in)
}

// TestSpecResolve: a spec made from the command line's profile arguments
// — a built-in, a profile file, configuration files on their own base or
// on --profile — rebuilds on a worker the normalizer `urlnorm` uses,
// version included; a built-in travels by name.
func TestSpecResolve(t *testing.T) {
	cfg := func(f string) string { return filepath.Join(beamtest.Root(), "testdata", "config", f) }
	dir := t.TempDir()
	custom := filepath.Join(dir, "custom.json")
	p := normalize.MustLookup("default").Profile()
	p.Version = "1.1.0-test"
	p.Path.TrailingSlash = normalize.SlashKeep
	if err := os.WriteFile(custom, p.JSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	urls := []string{"HTTP://WWW.Example.COM/amp/a/?utm_source=x&b=1#f", "https://example.com/story?src=feed&id=1", "https://www.boe.es/es/buscar?lang=es&page=2"}
	for _, c := range []struct {
		profile   string
		set       bool
		configs   []string
		wantName  string // the spec travels by name (built-in) or as JSON
		wantLabel string // prefix of name@version
	}{
		{"", false, nil, "default", "default@"},                                                 // no flags: default
		{"rfc3986", true, nil, "rfc3986", "rfc3986@"},                                           // a built-in by name
		{custom, true, nil, "", "default@1.1.0-test"},                                           // a profile file
		{"", false, []string{cfg("edge-gateway.yaml"), cfg("hosts.yaml")}, "", "edge-gateway@"}, // Edge Gateway files on edge-gateway
		{"", false, []string{cfg("url_normalization_overrides.v0.json")}, "", "curiousnow-v0@"},
		{"", false, []string{cfg("clara-hosts.json"), cfg("clara-languages.json")}, "", "clara@"},
		{"default", true, []string{cfg("url_normalization_overrides.v0.json")}, "", "default@"}, // on --profile
	} {
		spec, err := Resolve(c.profile, c.set, c.configs)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		if spec.Name != c.wantName || !strings.HasPrefix(spec.Label(), c.wantLabel) {
			t.Errorf("%v: spec %s (name %q)", c, spec.Label(), spec.Name)
		}
		// What the CLI loads, by the same package.
		var want *normalize.Normalizer
		if len(c.configs) == 0 {
			want, err = normalize.Lookup(map[bool]string{true: c.profile, false: "default"}[c.profile != ""])
			if c.profile == custom {
				want, err = normalize.New(p)
			}
		} else {
			base := ""
			if c.set {
				base = c.profile
			}
			want, err = profileload.Select(base, c.configs)
		}
		if err != nil {
			t.Fatal(err)
		}
		normalizers.Clear() // build as a fresh worker would
		got, err := spec.Normalizer()
		if err != nil {
			t.Fatal(err)
		}
		if got.Version() != want.Version() || got.Name() != want.Name() {
			t.Errorf("%v: worker has %s@%s, want %s@%s", c, got.Name(), got.Version(), want.Name(), want.Version())
		}
		for _, u := range urls {
			g, gerr := apply(got, OpCanonicalize, u)
			w, werr := apply(want, OpCanonicalize, u)
			if g != w || normalize.KindOf(gerr) != normalize.KindOf(werr) {
				t.Errorf("%v: %q: worker %s %v, CLI %s %v", c, u, g, gerr, w, werr)
			}
		}
	}
	// A worker with another version of a built-in refuses to run.
	stale := Spec{Name: "default", Version: "0.0.1"}
	if _, err := stale.Normalizer(); err == nil || !strings.Contains(err.Error(), "worker_binary") {
		t.Errorf("stale built-in: %v", err)
	}
}

// TestSameDependencies: the nested module builds normalize with the
// versions the main module pins (x/net's idna and publicsuffix decide
// hosts): a Beam dependency must not upgrade them.
func TestSameDependencies(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(beamtest.Root(), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	var paths []string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line) // "path version" in a require block
		if len(f) >= 2 && strings.HasPrefix(f[1], "v") && strings.Contains(f[0], ".") {
			want[f[0]] = f[1]
			paths = append(paths, f[0])
		}
	}
	cmd := exec.Command("go", append([]string{"list", "-m"}, paths...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m: %v\n%s", err, stderr.String())
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && want[f[0]] != "" {
			checked++
			if f[1] != want[f[0]] {
				t.Errorf("%s: the beam module builds %s, the main module requires %s", f[0], f[1], want[f[0]])
			}
		}
	}
	if want["golang.org/x/net"] == "" || checked != len(want) {
		t.Errorf("checked %d of the main module's requirements %v:\n%s", checked, want, out)
	}
}

// cli runs the urlnorm command built for the tests.
func cli(t *testing.T, args ...string) []byte {
	t.Helper()
	out, err := exec.Command(beamtest.CLI(), args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("urlnorm %v: %v\n%s", args, err, ee.Stderr)
		}
		t.Fatal(err)
	}
	return out
}
