package urlbeam

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/urlnorm/urlnorm/normalize"
)

// Result is a row's result: what normalize_url, canonical_hash or
// canonicalize_url returns for it.
type Result struct {
	File  int32 // input order, as in Row
	Seq   int64
	Input string
	// Null: the input was NULL (Parquet), and so is the result.
	Null bool
	// Value is the canonical URL (Normalize), its hex digest (Hash), or
	// canonicalize_url's record as JSON (Canonicalize), the text SQLite's
	// canonicalize_url returns.
	Value string
}

// Invalid is a row that has no result, and why.
type Invalid struct {
	File  int32
	Seq   int64
	Where string // "urls.txt:12"
	Input string
	Kind  string // the error kind: missing_scheme, invalid_host, too_long, csv_syntax …
	Error string // the error's message
}

// Counter names (namespace "urlnorm"): every row counts in inputs, and
// in one of valid, nulls or invalid; an invalid row also counts in
// "invalid_" + its kind.
const (
	CounterNamespace = "urlnorm"
	CounterInputs    = "inputs"
	CounterValid     = "valid"
	CounterNulls     = "nulls"
	CounterInvalid   = "invalid"
	// CounterDistinct counts Dedup's groups.
	CounterDistinct = "distinct"
	// CounterInvalidKind prefixes the counters by error kind.
	CounterInvalidKind = "invalid_"
)

// Functions of Apply.
const (
	OpNormalize    = "normalize"    // canonical URL
	OpHash         = "hash"         // hex digest of the canonical URL
	OpCanonicalize = "canonicalize" // canonicalize_url's record (JSON)
)

// Normalize returns each row's canonical URL, and on a second output the
// rows that have none (nothing is dropped silently).
func Normalize(s beam.Scope, spec Spec, rows beam.PCollection) (results, invalid beam.PCollection) {
	return Apply(s.Scope("urlbeam.Normalize"), spec, OpNormalize, rows)
}

// Hash returns each row's canonical hash (sha256, or xxHash64 for
// edge-gateway, in hex), and the invalid rows.
func Hash(s beam.Scope, spec Spec, rows beam.PCollection) (results, invalid beam.PCollection) {
	return Apply(s.Scope("urlbeam.Hash"), spec, OpHash, rows)
}

// Canonicalize returns each row's canonicalize_url record (JSON), and the
// invalid rows.
func Canonicalize(s beam.Scope, spec Spec, rows beam.PCollection) (results, invalid beam.PCollection) {
	return Apply(s.Scope("urlbeam.Canonicalize"), spec, OpCanonicalize, rows)
}

// Apply runs the function op (OpNormalize, OpHash, OpCanonicalize) over
// rows (PCollection<Row>): PCollection<Result>, PCollection<Invalid>.
func Apply(s beam.Scope, spec Spec, op string, rows beam.PCollection) (results, invalid beam.PCollection) {
	if _, err := spec.Normalizer(); err != nil {
		panic("urlbeam: " + err.Error()) // a construction error, like Beam's own
	}
	return beam.ParDo2(s, &rowFn{Spec: spec, Op: op}, rows)
}

// tally counts rows in the Beam counters. The common counts are kept in
// the DoFn and added to the counters once per bundle (flush): a counter's
// Inc costs a lookup in the bundle's metrics.
type tally struct {
	inputs, valid, nulls          int64
	cInputs, cValid, cNulls, cBad beam.Counter
	kinds                         map[string]beam.Counter
}

func newTally() *tally {
	c := func(name string) beam.Counter { return beam.NewCounter(CounterNamespace, name) }
	return &tally{cInputs: c(CounterInputs), cValid: c(CounterValid), cNulls: c(CounterNulls), cBad: c(CounterInvalid),
		kinds: map[string]beam.Counter{}}
}

// reset forgets counts of a bundle that did not finish (at StartBundle).
func (t *tally) reset() { t.inputs, t.valid, t.nulls = 0, 0, 0 }

// flush adds the bundle's counts to the counters (at FinishBundle).
func (t *tally) flush(ctx context.Context) {
	for _, c := range []struct {
		n *int64
		c beam.Counter
	}{{&t.inputs, t.cInputs}, {&t.valid, t.cValid}, {&t.nulls, t.cNulls}} {
		if *c.n != 0 {
			c.c.Inc(ctx, *c.n)
		}
	}
	t.reset()
}

func (t *tally) bad(ctx context.Context, kind string) {
	t.cBad.Inc(ctx, 1)
	c, ok := t.kinds[kind]
	if !ok {
		c = beam.NewCounter(CounterNamespace, CounterInvalidKind+kind)
		t.kinds[kind] = c
	}
	c.Inc(ctx, 1)
}

// check counts a row and returns the reason it cannot be used: its
// reading problem. Nulls are counted, not invalid.
func (t *tally) check(ctx context.Context, r Row, invalid func(Invalid)) bool {
	t.inputs++
	if r.Null {
		t.nulls++
		return false
	}
	if r.Err != "" {
		t.bad(ctx, r.Err)
		invalid(Invalid{File: r.File, Seq: r.Seq, Where: r.Where, Input: r.Value, Kind: r.Err, Error: r.ErrText})
		return false
	}
	return true
}

func (t *tally) fail(ctx context.Context, r Row, err error, invalid func(Invalid)) {
	kind := normalize.KindOf(err)
	t.bad(ctx, kind)
	invalid(Invalid{File: r.File, Seq: r.Seq, Where: r.Where, Input: r.Value, Kind: kind, Error: err.Error()})
}

// worker is the state a DoFn builds on a worker: the normalizer and the
// counters.
type worker struct {
	n *normalize.Normalizer
	t *tally
}

func (w *worker) setup(spec Spec) (err error) {
	w.n, err = spec.Normalizer()
	w.t = newTally()
	return err
}

type rowFn struct {
	Spec Spec
	Op   string
	worker
}

func (f *rowFn) Setup() error { return f.setup(f.Spec) }

func (f *rowFn) ProcessElement(ctx context.Context, r Row, results func(Result), invalid func(Invalid)) {
	if !f.t.check(ctx, r, invalid) {
		if r.Null {
			results(Result{File: r.File, Seq: r.Seq, Null: true})
		}
		return
	}
	var v string
	var err error
	switch f.Op {
	case OpHash:
		v, err = f.n.Hash(r.Value)
	case OpCanonicalize:
		var res normalize.Result
		if res, err = f.n.Canonicalize(r.Value); err == nil {
			// canonicalize_url's record as SQLite's JSON text (called
			// directly: json.Marshal would escape '&' in URLs).
			var b []byte
			if b, err = res.MarshalJSON(); err == nil {
				v = string(b)
			}
		}
	default:
		v, err = f.n.Normalize(r.Value)
	}
	if err != nil {
		f.t.fail(ctx, r, err, invalid)
		return
	}
	f.t.valid++
	results(Result{File: r.File, Seq: r.Seq, Input: r.Value, Value: v})
}

func (f *rowFn) StartBundle(context.Context, func(Result), func(Invalid)) { f.t.reset() }

func (f *rowFn) FinishBundle(ctx context.Context, _ func(Result), _ func(Invalid)) { f.t.flush(ctx) }

func init() {
	register.DoFn4x0[context.Context, Row, func(Result), func(Invalid)](&rowFn{})
	register.Emitter1[Result]()
	register.Emitter1[Invalid]()
}
