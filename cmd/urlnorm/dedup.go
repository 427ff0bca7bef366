package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/urlnorm/urlnorm/internal/cliio"
	"github.com/urlnorm/urlnorm/internal/dedup"
	"github.com/urlnorm/urlnorm/internal/profileload"
	"github.com/urlnorm/urlnorm/normalize"
)

func init() {
	register(&command{name: "dedup", summary: "group inputs by canonical URL: counts and example variants", run: runDedup})
}

var dedupHelp = help{
	synopsis: "dedup [flags] [FILE…|-]",
	about: `Groups the inputs by canonical URL and prints each group's size and the
first spellings seen (--examples), largest group first, then by URL — the
same order on every run. Invalid inputs are left out of the groups and
counted on stderr; a summary line (inputs, distinct canonical URLs,
duplicates) goes to stderr too.

Memory: the inputs are streamed, but the groups are kept until the end:
memory grows with the number of distinct canonical URLs (roughly 150
bytes plus the URL and its examples per group), not with the input size.

Output formats (--format):
  table  count, canonical URL, examples (one per line), for reading
  csv    count,url,hash,example_1…example_N
  json   {"profile","inputs","invalid","distinct","duplicates","groups":[
          {"count","url","hash","examples"}…]}`,
	examples: `urlnorm dedup urls.txt
urlnorm dedup --min-count 2 --top 20 crawl.csv
urlnorm dedup --profile rfc3986 --format json urls.txt > groups.json
urlnorm dedup --format csv --examples 1 pages.parquet > groups.csv`,
	exit: exitStatusFiles,
}

// pairsOut is a batch's (canonical URL, input) pairs, packed.
type pairsOut struct {
	data          []byte
	ends          []int // canonical end, input end, canonical end, …
	inputs, nulls int
	is            issues
}

var pairsPool = sync.Pool{New: func() any { return &pairsOut{} }}

func (o *pairsOut) release() {
	o.data, o.ends, o.inputs, o.nulls, o.is = o.data[:0], o.ends[:0], 0, 0, issues{}
	pairsPool.Put(o)
}

func runDedup(args []string, e *env) int {
	fs := newFlags("dedup", dedupHelp)
	var pf profileFlags
	var inf inputFlags
	pf.register(fs)
	inf.register(fs, true)
	format := fs.String("format", "table", "output `format`: table, csv or json")
	examples := fs.Int("examples", 3, "`n` distinct spellings kept per group")
	minCount := fs.Int64("min-count", 1, "only groups with at least `n` inputs (2: only duplicates)")
	top := fs.Int("top", 0, "only the `n` largest groups (0: all)")
	paths, code, ok := parseFlags(fs, args, e)
	if !ok {
		return code
	}
	if !slices.Contains([]string{"table", "csv", "json"}, *format) {
		return usageError(e, "dedup", "unknown --format %q (want table, csv or json)", *format)
	}
	if *examples < 0 || *top < 0 {
		return usageError(e, "dedup", "--examples and --top must not be negative")
	}
	n, err := pf.load(fs)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlnorm dedup: %v\n", err)
		return exitUsage
	}
	s, code, ok := openStream("dedup", e, &inf, paths, n)
	if !ok {
		return code
	}
	groups := dedup.Table{}
	err = streamRun(s, func(b *cliio.Batch) *pairsOut { return canonicalPairs(b, n) },
		func(o *pairsOut) error {
			s.tally(o.inputs, o.nulls, o.is)
			for i := 0; i < len(o.ends); i += 2 {
				start := 0
				if i > 0 {
					start = o.ends[i-1]
				}
				url, in := o.data[start:o.ends[i]], o.data[o.ends[i]:o.ends[i+1]]
				groups.Add(url, in, *examples)
			}
			o.release()
			return nil
		})
	if err == nil {
		list := dedup.Sort(groups, *minCount, *top)
		valid := s.inputs - s.nulls - s.invalidCount()
		r := dedup.Report{Profile: profileload.Label(n), Inputs: s.inputs, Invalid: s.invalidCount(),
			Distinct: int64(len(groups)), Duplicates: valid - int64(len(groups))}
		if err = writeDedup(s.out, *format, r, list, n, *examples); err == nil {
			err = s.out.Flush()
		}
		if err == nil {
			fmt.Fprintf(s.bar, "urlnorm dedup: %s valid inputs, %s distinct canonical URLs, %s duplicates (%s)\n",
				group(valid), group(r.Distinct), group(r.Duplicates), percent(r.Duplicates, valid))
		}
	}
	return s.finish(err)
}

// canonicalPairs normalizes a batch (on a worker).
func canonicalPairs(b *cliio.Batch, n *normalize.Normalizer) *pairsOut {
	o := pairsPool.Get().(*pairsOut)
	o.inputs = b.Len()
	for i := range b.Len() {
		if b.Null(i) {
			o.nulls++
			continue
		}
		in := b.Value(i)
		err := b.Err(i)
		if err == nil {
			mark := len(o.data)
			if o.data, err = n.AppendNormalized(o.data, in); err == nil {
				o.ends = append(o.ends, len(o.data))
				o.data = append(o.data, in...)
				o.ends = append(o.ends, len(o.data))
				continue
			}
			o.data = o.data[:mark]
		}
		o.is.add(b.Pos(i), err)
	}
	b.Release()
	return o
}

// dedupReport is the JSON report (the tests decode it).
type dedupReport = dedup.Report

func writeDedup(w io.Writer, format string, r dedup.Report, list []*dedup.Group, n *normalize.Normalizer, examples int) error {
	switch format {
	case "json":
		return dedup.WriteJSON(w, r, list, n)
	case "csv":
		return dedup.WriteCSV(w, list, n, examples)
	}
	return writeDedupTable(w, list)
}

// writeDedupTable prints the groups for reading: the count and URL on
// the first line of a group, one example per line. Control characters
// are escaped so that each example stays on one line.
func writeDedupTable(w io.Writer, list []*dedup.Group) error {
	cw, uw := len("COUNT"), len("CANONICAL URL")
	for _, g := range list {
		cw = max(cw, len(group(g.Count)))
		uw = max(uw, min(utf8.RuneCountInString(g.URL), 60))
	}
	var buf []byte
	line := func(count, url, example string) {
		buf = fmt.Appendf(buf, "%*s  %-*s  %s", cw, count, uw, url, example)
		buf = append(bytes.TrimRight(buf, " "), '\n')
	}
	line("COUNT", "CANONICAL URL", "EXAMPLES")
	for _, g := range list {
		for i, ex := range g.Examples {
			if i == 0 {
				line(group(g.Count), g.URL, printable(ex))
			} else {
				line("", "", printable(ex))
			}
		}
		var err error
		if buf, err = spill(w, buf); err != nil {
			return err
		}
	}
	_, err := w.Write(buf)
	return err
}

// spill writes buf out once it holds 64 KiB, and returns it emptied.
func spill(w io.Writer, buf []byte) ([]byte, error) {
	if len(buf) < 64<<10 {
		return buf, nil
	}
	_, err := w.Write(buf)
	return buf[:0], err
}

// printable quotes s if it holds control characters or invalid UTF-8.
func printable(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return strconv.Quote(s)
		}
	}
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	return s
}

func percent(part, whole int64) string {
	if whole == 0 {
		return "0%"
	}
	return strconv.FormatFloat(100*float64(part)/float64(whole), 'f', 1, 64) + "%"
}
