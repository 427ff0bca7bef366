package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"
	"github.com/urlnorm/urlnorm/internal/cliio"
	"github.com/urlnorm/urlnorm/internal/profileload"
	"github.com/urlnorm/urlnorm/normalize"
)

func init() {
	register(&command{name: "diff", summary: "migration impact: which inputs change canonical URL or hash between two profiles", run: runDiff})
}

var diffHelp = help{
	synopsis: "diff --from P1 --to P2 [flags] [FILE…|-]",
	about: `Measures what switching from one profile to another does to your URLs:
how many inputs get a different canonical URL or hash, become invalid or
valid, how the number of distinct canonical URLs changes, which query
parameters are removed by only one of the two, and examples of each kind
of change. --from and --to take a built-in profile name or a profile file
(JSON or YAML), so two versions of one profile compare the same way: run
it before editing a tracking-parameter list (curious-now-v0 §2: "changing
it affects idempotency; treat edits as a migration").

Each input falls in one class:
  unchanged        same canonical URL and hash
  url_changed      a different canonical URL (so a different hash)
  hash_changed     same URL, different hash (the hash function changed)
  newly_invalid    valid under --from, an error under --to
  newly_valid      an error under --from, valid under --to
  invalid_both     an error under both

Memory: inputs are streamed; counting distinct canonical URLs keeps 8
bytes per distinct URL and profile.

Output formats (--format):
  text   a report (default)
  json   the same report as one JSON object
  jsonl  one line per input that changed (url_changed, hash_changed,
         newly_invalid, newly_valid):
         {"input","change","from","to","from_hash","to_hash","from_error","to_error"}
         (the counts go to stderr)`,
	examples: `urlnorm diff --from default --to rfc3986 urls.txt
urlnorm profiles show --yaml default > v2.yaml   # edit, bump the version
urlnorm diff --from default --to v2.yaml --examples 10 urls.txt
urlnorm diff --from default --to whatwg --format jsonl urls.txt | head`,
	exit: `Exit status: 0 success; 1 --exit-code was given and some input changed;
2 usage error (bad flag, unknown profile, missing column); 3 a file could
not be read or written.`,
}

// Change classes, in report order.
var changeClasses = []string{"unchanged", "url_changed", "hash_changed", "newly_invalid", "newly_valid", "invalid_both"}

const (
	unchanged = iota
	urlChanged
	hashChanged
	newlyInvalid
	newlyValid
	invalidBoth
)

// diffExample is one input and its two outcomes.
type diffExample struct {
	Input     string `json:"input"`
	From      string `json:"from,omitempty"`
	To        string `json:"to,omitempty"`
	FromError string `json:"from_error,omitempty"`
	ToError   string `json:"to_error,omitempty"`
}

// diffOut is a batch's share of the report.
type diffOut struct {
	inputs, nulls int
	counts        [6]int64
	examples      [6][]diffExample
	fromIDs       []uint64 // ids of the canonical URLs, for distinct counts
	toIDs         []uint64
	added         map[string]int64 // params removed by --to only
	dropped       map[string]int64 // params removed by --from only
	lines         []byte           // --format jsonl
	is            issues
}

var diffPool = sync.Pool{New: func() any { return &diffOut{} }}

func (o *diffOut) release() {
	*o = diffOut{fromIDs: o.fromIDs[:0], toIDs: o.toIDs[:0], lines: o.lines[:0]}
	diffPool.Put(o)
}

// diffRun holds the two normalizers and the options of one run.
type diffRun struct {
	from, to *normalize.Normalizer
	examples int
	jsonl    bool
}

func runDiff(args []string, e *env) int {
	fs := newFlags("diff", diffHelp)
	var inf inputFlags
	inf.register(fs, false)
	exitCode := fs.Bool("exit-code", false, "exit with status 1 if any input changes (like git diff --exit-code)")
	fromArg := fs.String("from", "", "the current profile: a `name` or a profile file")
	toArg := fs.String("to", "", "the new profile: a `name` or a profile file")
	format := fs.String("format", "text", "output `format`: text, json or jsonl")
	examples := fs.Int("examples", 3, "`n` examples kept per class of change")
	paths, code, ok := parseFlags(fs, args, e)
	if !ok {
		return code
	}
	if *fromArg == "" || *toArg == "" {
		fmt.Fprintln(e.stderr, "urlnorm diff: give both --from and --to (profile names or files); run 'urlnorm diff --help'")
		return exitUsage
	}
	if !slices.Contains([]string{"text", "json", "jsonl"}, *format) || *examples < 0 {
		fmt.Fprintf(e.stderr, "urlnorm diff: want --format text, json or jsonl and --examples ≥ 0\n")
		return exitUsage
	}
	d := diffRun{examples: *examples, jsonl: *format == "jsonl"}
	var err error
	for _, p := range []struct {
		arg string
		n   **normalize.Normalizer
	}{{*fromArg, &d.from}, {*toArg, &d.to}} {
		if *p.n, err = profileload.Load(p.arg); err != nil {
			fmt.Fprintf(e.stderr, "urlnorm diff: %v\n", err)
			return exitUsage
		}
	}
	s, code, ok := openStream("diff", e, &inf, paths, d.from, d.to)
	if !ok {
		return code
	}
	var rep diffReport
	fromSet, toSet := map[uint64]struct{}{}, map[uint64]struct{}{}
	rep.init(d)
	err = streamRun(s, func(b *cliio.Batch) *diffOut { return d.batch(b) },
		func(o *diffOut) error {
			s.tally(o.inputs, o.nulls, o.is)
			rep.add(o, d.examples)
			for _, id := range o.fromIDs {
				fromSet[id] = struct{}{}
			}
			for _, id := range o.toIDs {
				toSet[id] = struct{}{}
			}
			_, err := s.out.Write(o.lines)
			o.release()
			return err
		})
	if err == nil {
		rep.Inputs, rep.Nulls = s.inputs, s.nulls
		rep.DistinctFrom, rep.DistinctTo = int64(len(fromSet)), int64(len(toSet))
		err = rep.write(s.out, s.bar, *format)
		if ferr := s.out.Flush(); err == nil {
			err = ferr
		}
	}
	code = s.finish(err)
	if code == exitOK && *exitCode && rep.Changed > 0 {
		return exitData
	}
	return code
}

// batch compares the two profiles on a batch (on a worker).
func (d *diffRun) batch(b *cliio.Batch) *diffOut {
	o := diffPool.Get().(*diffOut)
	o.inputs = b.Len()
	for i := range b.Len() {
		if b.Null(i) {
			o.nulls++
			continue
		}
		in := b.Value(i)
		var fr, tr normalize.Result
		ferr := b.Err(i)
		terr := ferr
		if ferr == nil {
			fr, ferr = d.from.Canonicalize(in)
			tr, terr = d.to.Canonicalize(in)
		}
		if ferr == nil {
			o.fromIDs = append(o.fromIDs, urlID(fr.URL))
		}
		if terr == nil {
			o.toIDs = append(o.toIDs, urlID(tr.URL))
		}
		c := classify(fr, tr, ferr, terr)
		o.counts[c]++
		if c == urlChanged {
			o.tallyParams(fr.Removed, tr.Removed)
		}
		if c == unchanged {
			continue
		}
		if len(o.examples[c]) < d.examples || d.jsonl {
			ex := diffExample{Input: strings.Clone(in), From: fr.URL, To: tr.URL,
				FromError: normalize.KindOf(ferr), ToError: normalize.KindOf(terr)}
			if len(o.examples[c]) < d.examples {
				o.examples[c] = append(o.examples[c], ex)
			}
			if d.jsonl && c != invalidBoth {
				o.lines = appendDiffLine(o.lines, c, ex, fr.Hash, tr.Hash)
			}
		}
	}
	b.Release()
	return o
}

func classify(fr, tr normalize.Result, ferr, terr error) int {
	switch {
	case ferr != nil && terr != nil:
		return invalidBoth
	case ferr != nil:
		return newlyValid
	case terr != nil:
		return newlyInvalid
	case fr.URL != tr.URL:
		return urlChanged
	case fr.Hash != tr.Hash:
		return hashChanged
	}
	return unchanged
}

// urlID identifies a canonical URL for counting distinct ones (64 bits:
// a collision among a billion URLs has odds of about 3%, and costs one
// in the count).
func urlID(url string) uint64 {
	return xxhash.Sum64String(url)
}

// tallyParams counts the parameters one profile removes and the other
// keeps (by name and reason), once per input.
func (o *diffOut) tallyParams(from, to []normalize.Param) {
	name := func(p normalize.Param) string { return p.Key + " (" + p.Reason + ")" }
	in := func(list []normalize.Param, p normalize.Param) bool {
		return slices.ContainsFunc(list, func(q normalize.Param) bool { return q.Key == p.Key })
	}
	for _, p := range to {
		if !in(from, p) {
			if o.added == nil {
				o.added = map[string]int64{}
			}
			o.added[name(p)]++
		}
	}
	for _, p := range from {
		if !in(to, p) {
			if o.dropped == nil {
				o.dropped = map[string]int64{}
			}
			o.dropped[name(p)]++
		}
	}
}

func appendDiffLine(dst []byte, c int, ex diffExample, fromHash, toHash string) []byte {
	field := func(name, v string) {
		dst = append(dst, `,"`+name+`":`...)
		if v == "" {
			dst = append(dst, "null"...)
		} else {
			dst = cliio.AppendJSON(dst, v)
		}
	}
	dst = append(dst, `{"input":`...)
	dst = cliio.AppendJSON(dst, ex.Input)
	dst = append(dst, `,"change":"`+changeClasses[c]+`"`...)
	field("from", ex.From)
	field("to", ex.To)
	field("from_hash", fromHash)
	field("to_hash", toHash)
	field("from_error", ex.FromError)
	field("to_error", ex.ToError)
	return append(dst, "}\n"...)
}

// maxParams bounds the parameter tallies (distinct names), so that a file
// where every URL has its own parameter name cannot exhaust memory.
const maxParams = 10000

// diffReport is the result of a diff (also its JSON form).
type diffReport struct {
	From         string                   `json:"from"`
	To           string                   `json:"to"`
	Inputs       int64                    `json:"inputs"`
	Nulls        int64                    `json:"nulls,omitempty"`
	Counts       map[string]int64         `json:"counts"`
	Changed      int64                    `json:"changed"` // URL or hash differs, or validity
	DistinctFrom int64                    `json:"distinct_from"`
	DistinctTo   int64                    `json:"distinct_to"`
	HashChange   string                   `json:"hash_function_change,omitempty"`
	RemovedOnly  map[string]int64         `json:"params_removed_only_by_to"`
	KeptOnly     map[string]int64         `json:"params_removed_only_by_from"`
	Examples     map[string][]diffExample `json:"examples"`
	counts       [6]int64
}

func (r *diffReport) init(d diffRun) {
	r.From, r.To = profileload.Label(d.from), profileload.Label(d.to)
	if fh, th := d.from.Profile().Hash, d.to.Profile().Hash; fh != th {
		r.HashChange = fh + " → " + th
	}
	r.RemovedOnly, r.KeptOnly = map[string]int64{}, map[string]int64{}
	r.Examples = map[string][]diffExample{}
}

func (r *diffReport) add(o *diffOut, examples int) {
	for c, n := range o.counts {
		r.counts[c] += n
		if need := examples - len(r.Examples[changeClasses[c]]); need > 0 && len(o.examples[c]) > 0 {
			r.Examples[changeClasses[c]] = append(r.Examples[changeClasses[c]], o.examples[c][:min(need, len(o.examples[c]))]...)
		}
	}
	addCapped(r.RemovedOnly, o.added)
	addCapped(r.KeptOnly, o.dropped)
}

func addCapped(dst, src map[string]int64) {
	for k, n := range src {
		if _, ok := dst[k]; !ok && len(dst) >= maxParams {
			k = "(other parameters)"
		}
		dst[k] += n
	}
}

func (r *diffReport) finish() {
	r.Counts = map[string]int64{}
	for c, n := range r.counts {
		r.Counts[changeClasses[c]] = n
		if c != unchanged && c != invalidBoth {
			r.Changed += n
		}
	}
}

func (r *diffReport) write(w, stderr io.Writer, format string) error {
	r.finish()
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "jsonl":
		fmt.Fprintf(stderr, "urlnorm diff: %s → %s: %s of %s inputs changed (%s)\n",
			r.From, r.To, group(r.Changed), group(r.Inputs), r.countList())
		return nil
	}
	return r.writeText(w)
}

func (r *diffReport) countList() string {
	var parts []string
	for c, name := range changeClasses {
		if r.counts[c] > 0 {
			parts = append(parts, group(r.counts[c])+" "+name)
		}
	}
	return strings.Join(parts, ", ")
}

func (r *diffReport) writeText(w io.Writer) error {
	valid := r.Inputs - r.Nulls
	var b strings.Builder
	fmt.Fprintf(&b, "urlnorm diff: %s → %s over %s inputs\n\n", r.From, r.To, group(r.Inputs))
	for c, name := range changeClasses {
		fmt.Fprintf(&b, "  %-14s %12s  %6s\n", name, group(r.counts[c]), percent(r.counts[c], valid))
	}
	fmt.Fprintf(&b, "\n  inputs whose canonical URL, hash or validity changes: %s (%s)\n", group(r.Changed), percent(r.Changed, valid))
	fmt.Fprintf(&b, "  distinct canonical URLs: %s → %s (%+d)\n", group(r.DistinctFrom), group(r.DistinctTo), r.DistinctTo-r.DistinctFrom)
	if r.HashChange != "" {
		fmt.Fprintf(&b, "  the hash function changes (%s): every hash changes\n", r.HashChange)
	}
	writeParams(&b, "query/path parameters removed only by "+r.To, r.RemovedOnly)
	writeParams(&b, "query/path parameters removed only by "+r.From, r.KeptOnly)
	for _, name := range changeClasses[1:] {
		exs := r.Examples[name]
		if len(exs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\nexamples: %s\n", name)
		for _, ex := range exs {
			fmt.Fprintf(&b, "  input %s\n", printable(ex.Input))
			fmt.Fprintf(&b, "   from %s\n", outcome(ex.From, ex.FromError))
			fmt.Fprintf(&b, "     to %s\n", outcome(ex.To, ex.ToError))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func outcome(url, kind string) string {
	if kind != "" {
		return "error: " + kind
	}
	return url
}

// writeParams lists a parameter tally, most frequent first (20 at most).
func writeParams(b *strings.Builder, title string, m map[string]int64) {
	if len(m) == 0 {
		return
	}
	keys := slices.Sorted(maps.Keys(m))
	slices.SortStableFunc(keys, func(x, y string) int { return int(m[y] - m[x]) })
	fmt.Fprintf(b, "\n%s (inputs):\n", title)
	for i, k := range keys {
		if i == 20 {
			fmt.Fprintf(b, "  … and %d more (--format json lists all)\n", len(keys)-20)
			break
		}
		fmt.Fprintf(b, "  %12s  %s\n", group(m[k]), k)
	}
}
