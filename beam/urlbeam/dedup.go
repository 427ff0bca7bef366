package urlbeam

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

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
	Invalid beam.PCollection // Invalid
	Totals  beam.PCollection // one Totals
	// batches holds the groups, many per element ([]byte, see batch.go).
	batches beam.PCollection
}

// Groups returns the groups, one per element (PCollection<Group>, in no
// order). WriteDedup and WriteGroups do not need it: use it to process
// the groups further.
func (d Deduped) Groups(s beam.Scope) beam.PCollection {
	return beam.ParDo(s.Scope("urlbeam.Groups"), unbatchGroups, d.batches)
}

func unbatchGroups(b []byte, emit func(Group)) error {
	return decodeGroups(b, func(g *Group) { emit(*g) })
}

// dedupShards is the number of keys Dedup shuffles partial groups under:
// all the partial groups of a canonical URL go to the shard its hash
// picks, and one worker merges a shard, holding its groups (about 1/1024
// of all). Each bundle sends one batch per shard (per chunkBytes), not
// one element per URL.
const dedupShards = 1024

// bundleGroups bounds the groups a bundle holds before it sends them on
// (a variable for the tests, like chunkBytes).
var bundleGroups = 1 << 18

// Dedup groups rows (PCollection<Row>) by canonical URL, keeping up to
// examples distinct spellings per group: those that occur first in input
// order (file, then row), as `urlnorm dedup` does reading the files in
// order. Each bundle groups its rows first (a map, as `urlnorm dedup`
// does), then the partial groups are merged by shard of canonical URL
// (dedup.Partial's rule): a worker holds its part of the groups, not all
// of them.
func Dedup(s beam.Scope, spec Spec, rows beam.PCollection, examples int) Deduped {
	s = s.Scope("urlbeam.Dedup")
	if _, err := spec.Normalizer(); err != nil {
		panic("urlbeam: " + err.Error())
	}
	partials, invalid, bundleTotals := beam.ParDo3(s, &groupRowsFn{Spec: spec, Examples: examples}, rows)
	batches, shardTotals := beam.ParDo2(s, &mergeFn{Examples: examples}, beam.GroupByKey(s, partials))
	totals := beam.Flatten(s,
		beam.Create(s, Totals{}), // one element even when nothing was read
		bundleTotals, shardTotals)
	return Deduped{batches: batches, Invalid: invalid, Totals: beam.Combine(s, addTotals, totals)}
}

// groupRowsFn groups a bundle's valid rows by canonical URL, and sends
// the partial groups on keyed by shard, with the bundle's totals.
type groupRowsFn struct {
	Spec     Spec
	Examples int
	worker
	groups map[string]*dedup.Partial
	totals Totals
}

func (f *groupRowsFn) Setup() error { return f.setup(f.Spec) }

func (f *groupRowsFn) StartBundle(context.Context, func(int, []byte), func(Invalid), func(Totals)) {
	f.groups, f.totals = map[string]*dedup.Partial{}, Totals{}
	f.t.reset()
}

func (f *groupRowsFn) ProcessElement(ctx context.Context, r Row, partials func(int, []byte), invalid func(Invalid), _ func(Totals)) {
	if !f.t.check(ctx, r, invalid) {
		if r.Null {
			f.totals.Nulls++
		} else {
			f.totals.Invalid++
		}
		return
	}
	url, err := f.n.Normalize(r.Value)
	if err != nil {
		f.t.fail(ctx, r, err, invalid)
		f.totals.Invalid++
		return
	}
	f.t.valid++
	f.totals.Valid++
	p := f.groups[url]
	if p == nil {
		p = &dedup.Partial{}
		f.groups[url] = p
	}
	p.Add(dedup.Spelling{File: r.File, Seq: r.Seq, Text: r.Value}, f.Examples)
	if len(f.groups) >= bundleGroups {
		f.send(partials)
	}
}

func (f *groupRowsFn) FinishBundle(ctx context.Context, partials func(int, []byte), _ func(Invalid), totals func(Totals)) {
	f.send(partials)
	totals(f.totals)
	f.t.flush(ctx)
}

// send emits the partial groups held, batched by shard.
func (f *groupRowsFn) send(partials func(int, []byte)) {
	shards := make([][]byte, dedupShards)
	for url, p := range f.groups {
		i := shardOf(url, dedupShards)
		shards[i] = appendPartial(shards[i], url, p)
		if len(shards[i]) >= chunkBytes {
			partials(i, shards[i])
			shards[i] = nil
		}
	}
	for i, b := range shards {
		if len(b) > 0 {
			partials(i, b)
		}
	}
	clear(f.groups)
}

// mergeFn merges the partial groups of a shard into its groups (and
// counts them in "distinct").
type mergeFn struct {
	Examples int
}

func (f *mergeFn) ProcessElement(ctx context.Context, _ int, batches func(*[]byte) bool, groups func([]byte), totals func(Totals)) error {
	all := map[string]*dedup.Partial{}
	var b []byte
	var p dedup.Partial
	for batches(&b) {
		r := reader{b: b}
		for r.more() {
			url := r.partial(&p)
			if r.err != nil {
				break
			}
			if q := all[string(url)]; q != nil {
				q.Merge(p, f.Examples)
			} else {
				all[string(url)] = &dedup.Partial{Count: p.Count, Examples: slices.Clone(p.Examples)}
			}
		}
		if r.err != nil {
			return r.err
		}
	}
	var out []byte
	for url, p := range all {
		out = appendGroup(out, p.Group(url))
		if len(out) >= chunkBytes {
			groups(out)
			out = nil
		}
	}
	if len(out) > 0 {
		groups(out)
	}
	distinct.Inc(ctx, int64(len(all)))
	totals(Totals{Distinct: int64(len(all))})
	return nil
}

var distinct = beam.NewCounter(CounterNamespace, CounterDistinct)

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
// by one worker, which holds them all (with Top, each batch keeps only
// its largest first); for more groups than a worker holds, write them
// sharded with WriteGroups instead.
func WriteDedup(s beam.Scope, spec Spec, d Deduped, path string, r DedupReport) {
	s = s.Scope("urlbeam.WriteDedup")
	filesystem.ValidateScheme(path)
	batches := d.batches
	if r.MinCount > 1 || r.Top > 0 {
		batches = beam.ParDo(s, &pickFn{MinCount: r.MinCount, Top: r.Top}, batches)
	}
	gathered := beam.GroupByKey(s, beam.AddFixedKey(s, batches))
	beam.ParDo0(s, &writeDedupFn{Spec: spec, Path: path, Report: r}, gathered, beam.SideInput{Input: d.Totals})
}

// pickFn keeps the groups of a batch with at least MinCount inputs, and
// of those the Top largest (all when 0): the Top largest overall are
// among them.
type pickFn struct {
	MinCount int64
	Top      int
}

func (f *pickFn) ProcessElement(b []byte, emit func([]byte)) error {
	list, err := groupList(b, nil)
	if err != nil {
		return err
	}
	var out []byte
	for _, g := range dedup.Pick(list, f.MinCount, f.Top) {
		out = appendGroup(out, g)
	}
	if len(out) > 0 {
		emit(out)
	}
	return nil
}

// groupList appends the groups of batch b to list.
func groupList(b []byte, list []*Group) ([]*Group, error) {
	err := decodeGroups(b, func(g *Group) { list = append(list, g) })
	return list, err
}

type writeDedupFn struct {
	Spec   Spec
	Path   string
	Report DedupReport
}

func (f *writeDedupFn) ProcessElement(ctx context.Context, _ int, batches func(*[]byte) bool, t Totals) error {
	n, err := f.Spec.Normalizer()
	if err != nil {
		return err
	}
	var list []*Group
	var b []byte
	for batches(&b) {
		if list, err = groupList(b, list); err != nil {
			return err
		}
	}
	list = dedup.Pick(list, f.Report.MinCount, f.Report.Top)
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
	register.Function2x1(unbatchGroups)
	register.DoFn5x0[context.Context, Row, func(int, []byte), func(Invalid), func(Totals)](&groupRowsFn{})
	register.Emitter2[int, []byte]()
	register.Emitter1[Totals]()
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func([]byte), func(Totals), error](&mergeFn{})
	register.Iter1[[]byte]()
	register.Emitter1[[]byte]()
	register.Function2x1(addTotals)
	register.DoFn2x1[[]byte, func([]byte), error](&pickFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, Totals, error](&writeDedupFn{})
	register.Emitter1[Group]()
}
