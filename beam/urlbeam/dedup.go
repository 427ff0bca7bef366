package urlbeam

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/top"

	"github.com/urlnorm/urlnorm/internal/dedup"
)

// Group is the inputs with one canonical URL: their count and the first
// distinct spellings in input order (as `urlnorm dedup` reports them).
type Group = dedup.Group

// Totals are Dedup's counts: inputs = valid + nulls + invalid; distinct
// is the number of groups.
type Totals struct {
	Valid, Nulls, Invalid, Distinct int64
}

// Inputs is the number of rows read.
func (t Totals) Inputs() int64 { return t.Valid + t.Nulls + t.Invalid }

// Deduped is what Dedup returns.
type Deduped struct {
	Groups  beam.PCollection // Group, in no order (see WriteDedup)
	Invalid beam.PCollection // Invalid
	Totals  beam.PCollection // one Totals
}

// Dedup groups rows (PCollection<Row>) by canonical URL, keeping up to
// examples distinct spellings per group: those that occur first in input
// order (file, then row), as `urlnorm dedup` does reading the files in
// order. The groups are combined on the workers (dedup.Partial), so a
// worker holds its part of the groups, not all of them.
func Dedup(s beam.Scope, spec Spec, rows beam.PCollection, examples int) Deduped {
	s = s.Scope("urlbeam.Dedup")
	if _, err := spec.Normalizer(); err != nil {
		panic("urlbeam: " + err.Error())
	}
	pairs, invalid, nulls := beam.ParDo3(s, &pairFn{Spec: spec}, rows)
	partials := beam.CombinePerKey(s, &groupFn{Examples: examples}, pairs)
	groups := beam.ParDo(s, toGroup, partials)
	totals := beam.Flatten(s,
		beam.Create(s, Totals{}), // one element even when nothing was read
		beam.ParDo(s, groupTotals, groups),
		beam.ParDo(s, invalidTotals, invalid),
		beam.ParDo(s, nullTotals, nulls))
	return Deduped{Groups: groups, Invalid: invalid, Totals: beam.Combine(s, addTotals, totals)}
}

// pairFn keys each valid row by its canonical URL.
type pairFn struct {
	Spec Spec
	worker
}

func (f *pairFn) Setup() error { return f.setup(f.Spec) }

func (f *pairFn) ProcessElement(ctx context.Context, r Row, pairs func(string, dedup.Spelling), invalid func(Invalid), nulls func(int64)) {
	if !f.t.check(ctx, r, invalid) {
		if r.Null {
			nulls(1)
		}
		return
	}
	url, err := f.n.Normalize(r.Value)
	if err != nil {
		f.t.fail(ctx, r, err, invalid)
		return
	}
	f.t.valid.Inc(ctx, 1)
	pairs(url, dedup.Spelling{File: r.File, Seq: r.Seq, Text: r.Value})
}

// groupFn combines the spellings of one canonical URL.
type groupFn struct {
	Examples int
}

func (f *groupFn) CreateAccumulator() dedup.Partial { return dedup.Partial{} }

func (f *groupFn) AddInput(p dedup.Partial, s dedup.Spelling) dedup.Partial {
	p.Add(s, f.Examples)
	return p
}

func (f *groupFn) MergeAccumulators(a, b dedup.Partial) dedup.Partial {
	a.Merge(b, f.Examples)
	return a
}

// toGroup ends a group (and counts it in "distinct").
func toGroup(ctx context.Context, url string, p dedup.Partial) Group {
	distinct.Inc(ctx, 1)
	return *p.Group(url)
}

var distinct = beam.NewCounter(CounterNamespace, CounterDistinct)

func groupTotals(g Group) Totals   { return Totals{Valid: g.Count, Distinct: 1} }
func invalidTotals(Invalid) Totals { return Totals{Invalid: 1} }
func nullTotals(n int64) Totals    { return Totals{Nulls: n} }
func addTotals(a, b Totals) Totals {
	return Totals{a.Valid + b.Valid, a.Nulls + b.Nulls, a.Invalid + b.Invalid, a.Distinct + b.Distinct}
}

// DedupReport says how WriteDedup writes the groups.
type DedupReport struct {
	Format   string // "csv" or "json": `urlnorm dedup --format csv|json`
	Examples int    // example columns (csv)
	MinCount int64  // only groups of at least MinCount inputs
	Top      int    // only the Top largest groups (0: all)
}

// WriteDedup writes the groups to one file, byte for byte what `urlnorm
// dedup --format csv|json` prints for the same inputs: largest group
// first, then by URL. The groups that pass MinCount and Top are sorted
// by one worker, which holds them all (with Top, the largest are picked
// on every worker first); for more groups than a worker holds, write
// them sharded with WriteGroups instead.
func WriteDedup(s beam.Scope, spec Spec, d Deduped, path string, r DedupReport) {
	s = s.Scope("urlbeam.WriteDedup")
	filesystem.ValidateScheme(path)
	groups := d.Groups
	if r.MinCount > 1 {
		groups = beam.ParDo(s, &minCountFn{Min: r.MinCount}, groups)
	}
	if r.Top > 0 {
		groups = beam.ParDo(s, flattenGroups, top.Largest(s, groups, r.Top, groupLess))
	}
	gathered := beam.GroupByKey(s, beam.AddFixedKey(s, groups))
	beam.ParDo0(s, &writeDedupFn{Spec: spec, Path: path, Report: r}, gathered, beam.SideInput{Input: d.Totals})
}

type minCountFn struct{ Min int64 }

func (f *minCountFn) ProcessElement(g Group, emit func(Group)) {
	if g.Count >= f.Min {
		emit(g)
	}
}

// groupLess orders groups for top.Largest: the larger is the one listed
// first.
func groupLess(a, b Group) bool { return dedup.Compare(&a, &b) > 0 }

func flattenGroups(list []Group, emit func(Group)) {
	for _, g := range list {
		emit(g)
	}
}

type writeDedupFn struct {
	Spec   Spec
	Path   string
	Report DedupReport
}

func (f *writeDedupFn) ProcessElement(ctx context.Context, _ int, groups func(*Group) bool, t Totals) error {
	n, err := f.Spec.Normalizer()
	if err != nil {
		return err
	}
	all := map[string]*Group{}
	var g Group
	for groups(&g) {
		all[g.URL] = &Group{URL: g.URL, Count: g.Count, Examples: g.Examples}
	}
	list := dedup.Sort(all, f.Report.MinCount, f.Report.Top)
	return writeFile(ctx, f.Path, func(w writer) error {
		if f.Report.Format == "json" {
			rep := dedup.Report{Profile: f.Spec.Label(), Inputs: t.Inputs(), Invalid: t.Invalid,
				Distinct: t.Distinct, Duplicates: t.Valid - t.Distinct}
			return dedup.WriteJSON(w, rep, list, n)
		}
		return dedup.WriteCSV(w, list, n, f.Report.Examples)
	})
}

// writer is where a file's content goes.
type writer interface{ Write([]byte) (int, error) }

// writeFile writes a file on Beam's file systems (a local path, gs://…).
func writeFile(ctx context.Context, path string, write func(writer) error) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	err = write(w)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

func init() {
	register.DoFn5x0[context.Context, Row, func(string, dedup.Spelling), func(Invalid), func(int64)](&pairFn{})
	register.Emitter2[string, dedup.Spelling]()
	register.Emitter1[int64]()
	register.Combiner2[dedup.Partial, dedup.Spelling](&groupFn{})
	register.Function3x1(toGroup)
	register.Function1x1(groupTotals)
	register.Function1x1(invalidTotals)
	register.Function1x1(nullTotals)
	register.Function2x1(addTotals)
	register.Function2x1(groupLess)
	register.Function2x0(flattenGroups)
	register.DoFn2x0[Group, func(Group)](&minCountFn{})
	register.Emitter1[Group]()
	register.DoFn4x1[context.Context, int, func(*Group) bool, Totals, error](&writeDedupFn{})
	register.Iter1[Group]()
}
