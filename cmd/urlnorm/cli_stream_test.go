package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/urlnorm/urlnorm/normalize"
)

// variants are spellings of a few pages, with invalid lines among them.
func variants() []string {
	var in []string
	for i := range 40 {
		in = append(in,
			fmt.Sprintf("HTTP://Shop%d.Example.COM:80/item/?b=2&a=1#top", i%7),
			fmt.Sprintf("http://shop%d.example.com/item?a=1&b=2", i%7),
			fmt.Sprintf("http://shop%d.example.com/item/?utm_source=news&a=1&b=2", i%5),
			fmt.Sprintf("https://blog.example.org/post/%d", i%3),
			"not a url",
		)
	}
	return in
}

func TestDedup(t *testing.T) {
	inputs := variants()
	f := tempFile(t, "v.txt", strings.Join(inputs, "\n")+"\n")
	for _, profile := range []string{"default", "curiousnow-v0"} {
		n := normalize.MustLookup(profile)
		// expected groups, from the library
		type grp struct {
			count    int64
			examples []string
		}
		groups := map[string]*grp{}
		valid := int64(0)
		for _, in := range inputs {
			u, err := n.Normalize(in)
			if err != nil {
				continue
			}
			valid++
			g := groups[u]
			if g == nil {
				g = &grp{}
				groups[u] = g
			}
			g.count++
			if len(g.examples) < 3 && !slices.Contains(g.examples, in) {
				g.examples = append(g.examples, in)
			}
		}
		var rep dedupReport
		r := mustRun(t, 0, "", "dedup", "--profile", profile, "--format", "json", f)
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("dedup --format json: %v\n%s", err, r.stdout)
		}
		if rep.Inputs != int64(len(inputs)) || rep.Distinct != int64(len(groups)) || rep.Duplicates != valid-int64(len(groups)) ||
			rep.Invalid != int64(len(inputs))-valid || rep.Profile != profile+"@"+n.Version() {
			t.Errorf("%s: report %+v; want %d inputs, %d distinct, %d valid", profile, rep, len(inputs), len(groups), valid)
		}
		if len(rep.Groups) != len(groups) {
			t.Fatalf("%s: %d groups, want %d", profile, len(rep.Groups), len(groups))
		}
		for i, g := range rep.Groups {
			w := groups[g.URL]
			if w == nil || g.Count != w.count || !slices.Equal(g.Examples, w.examples) || g.Hash != n.HashCanonical(g.URL) {
				t.Errorf("%s group %d = %+v, want %+v", profile, i, g, w)
			}
			if i > 0 {
				p := rep.Groups[i-1]
				if p.Count < g.Count || (p.Count == g.Count && p.URL >= g.URL) {
					t.Errorf("%s: groups %d and %d out of order: %d %s, %d %s", profile, i-1, i, p.Count, p.URL, g.Count, g.URL)
				}
			}
		}
		if !strings.Contains(r.stderr, fmt.Sprintf("%d distinct canonical URLs", len(groups))) {
			t.Errorf("stderr lacks the summary:\n%s", r.stderr)
		}

		// CSV: same groups, same order, limited by --top and --min-count
		recs := parseRows(t, "csv", mustRun(t, 0, "", "dedup", "--profile", profile, "--format", "csv", "--top", "3", "--min-count", "2", f).stdout)
		if strings.Join(recs[0], ",") != "count,url,hash,example_1,example_2,example_3" || len(recs) != 4 {
			t.Fatalf("%s csv: %q", profile, recs)
		}
		for i, rec := range recs[1:] {
			g := rep.Groups[i]
			if rec[0] != fmt.Sprint(g.Count) || rec[1] != g.URL || rec[2] != g.Hash || rec[3] != g.Examples[0] {
				t.Errorf("%s csv row %d = %q, want %+v", profile, i+1, rec, g)
			}
		}
		// table: the largest group first, with its examples
		table := mustRun(t, 0, "", "dedup", "--profile", profile, f).stdout
		lines := strings.Split(table, "\n")
		if !strings.HasPrefix(lines[0], "COUNT") || !strings.Contains(lines[1], rep.Groups[0].URL) ||
			!strings.Contains(lines[1], fmt.Sprint(rep.Groups[0].Count)) || !strings.Contains(lines[1], rep.Groups[0].Examples[0]) {
			t.Errorf("%s table:\n%s", profile, table)
		}
	}
}

func TestDiff(t *testing.T) {
	inputs := variants()
	inputs = append(inputs, "example.com/no-scheme", "https://example.com/a//b/")
	f := tempFile(t, "v.txt", strings.Join(inputs, "\n")+"\n")
	from, to := normalize.MustLookup("default"), normalize.MustLookup("edge-gateway")
	var counts [6]int64
	fromSet, toSet := map[string]bool{}, map[string]bool{}
	for _, in := range inputs {
		fr, ferr := from.Canonicalize(in)
		tr, terr := to.Canonicalize(in)
		counts[classify(fr, tr, ferr, terr)]++
		if ferr == nil {
			fromSet[fr.URL] = true
		}
		if terr == nil {
			toSet[tr.URL] = true
		}
	}
	var rep diffReport
	r := mustRun(t, 0, "", "diff", "--from", "default", "--to", "edge-gateway", "--format", "json", f)
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("diff --format json: %v\n%s", err, r.stdout)
	}
	for c, name := range changeClasses {
		if rep.Counts[name] != counts[c] {
			t.Errorf("%s: %d, want %d", name, rep.Counts[name], counts[c])
		}
		if want := min(counts[c], 3); c != unchanged && int64(len(rep.Examples[name])) != want {
			t.Errorf("%s: %d examples, want %d", name, len(rep.Examples[name]), want)
		}
	}
	if counts[newlyValid] == 0 || counts[urlChanged] == 0 {
		t.Fatalf("the test inputs should exercise newly_valid and url_changed: %v", counts)
	}
	if rep.DistinctFrom != int64(len(fromSet)) || rep.DistinctTo != int64(len(toSet)) || rep.HashChange != "sha256 → xxhash64" {
		t.Errorf("distinct %d → %d, hash change %q; want %d → %d", rep.DistinctFrom, rep.DistinctTo, rep.HashChange, len(fromSet), len(toSet))
	}
	// every example's outcomes are the library's
	for _, exs := range rep.Examples {
		for _, ex := range exs {
			if u, _ := from.Normalize(ex.Input); u != ex.From {
				t.Errorf("example %q: from %q, want %q", ex.Input, ex.From, u)
			}
			if u, _ := to.Normalize(ex.Input); u != ex.To {
				t.Errorf("example %q: to %q, want %q", ex.Input, ex.To, u)
			}
		}
	}
	// edge-gateway drops utm_source: the tally says so
	if rep.RemovedOnly["utm_source (tracking)"] == 0 {
		t.Errorf("utm_source is not reported as removed only by edge-gateway: %v", rep.RemovedOnly)
	}

	// jsonl: one line per input that changed
	lines := mustRun(t, 0, "", "diff", "--from", "default", "--to", "edge-gateway", "--format", "jsonl", f).stdout
	if got, want := int64(strings.Count(lines, "\n")), int64(len(inputs))-counts[unchanged]-counts[invalidBoth]; got != want || rep.Changed != want {
		t.Errorf("jsonl: %d lines, want %d", got, want)
	}
	// text report
	text := mustRun(t, 0, "", "diff", "--from", "default", "--to", "edge-gateway", f).stdout
	for _, part := range []string{"default@", "edge-gateway@", "url_changed", "distinct canonical URLs", "every hash changes", "examples: newly_valid"} {
		if !strings.Contains(text, part) {
			t.Errorf("text report lacks %q:\n%s", part, text)
		}
	}
	// --exit-code: 1 when something changes, 0 when nothing does
	mustRun(t, exitData, "", "diff", "--exit-code", "--from", "default", "--to", "edge-gateway", f)
	mustRun(t, 0, "", "diff", "--exit-code", "--from", "default", "--to", "default", f)

	// two versions of one profile: a file against the built-in
	v2 := tempFile(t, "v2.yaml", strings.Replace(mustRun(t, 0, "", "profiles", "show", "--yaml", "curiousnow-v0").stdout,
		"version: "+normalize.MustLookup("curiousnow-v0").Version(), "version: 9.9.9", 1))
	same := mustRun(t, 0, "", "diff", "--exit-code", "--from", "curiousnow-v0", "--to", v2, f).stdout
	if !strings.Contains(same, "curiousnow-v0@9.9.9") {
		t.Errorf("diff against a profile file:\n%s", same)
	}
}

// lines writes n URL lines (one in 1000 invalid) to a file.
func linesFile(t *testing.T, n int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), fmt.Sprintf("urls-%d.txt", n))
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := range n {
		if i%1000 == 999 {
			fmt.Fprintf(w, "http://bad host %d/\n", i)
			continue
		}
		fmt.Fprintf(w, "HTTP://Host%d.Example.COM:80/a/%d/../b/?z=%d&utm_source=x&a=%d#frag\n", i%997, i, i%13, i)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

// TestConstantMemory normalizes 100k and 1M lines: peak RSS stays small
// and does not grow with the input (the 1M file is 80 MB).
func TestConstantMemory(t *testing.T) {
	rss := map[int]int64{}
	for _, n := range []int{100_000, 1_000_000} {
		in := linesFile(t, n)
		outPath := filepath.Join(t.TempDir(), "out.txt")
		out, err := os.Create(outPath)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "normalize", "-q", in)
		cmd.Stdout = out
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
		out.Close()
		rss[n] = cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
		st, _ := os.Stat(in)
		t.Logf("normalize %d lines (%d MB): peak RSS %d MB", n, st.Size()>>20, rss[n]>>10)
		// every line is there, in order
		f, _ := os.Open(outPath)
		sc := bufio.NewScanner(f)
		d := normalize.MustLookup("default")
		i := 0
		for ; sc.Scan(); i++ {
			if i%9973 != 0 {
				continue
			}
			want, _ := d.Normalize(fmt.Sprintf("HTTP://Host%d.Example.COM:80/a/%d/../b/?z=%d&utm_source=x&a=%d#frag", i%997, i, i%13, i))
			if sc.Text() != want {
				t.Fatalf("line %d: %q, want %q", i+1, sc.Text(), want)
			}
		}
		f.Close()
		if i != n {
			t.Fatalf("%d output lines for %d inputs", i, n)
		}
	}
	if rss[1_000_000] > 200<<10 {
		t.Errorf("peak RSS %d MB on 1M lines, want < 200 MB", rss[1_000_000]>>10)
	}
	if rss[1_000_000] > rss[100_000]*3/2+16<<10 {
		t.Errorf("peak RSS grows with the input: %d MB for 100k lines, %d MB for 1M", rss[100_000]>>10, rss[1_000_000]>>10)
	}
}

// openPTY returns a pseudo-terminal pair.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("opening a pseudo-terminal: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatal(e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatal(e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

// TestProgressBar: the bar is drawn when stderr is a terminal, and never
// when it is a pipe or a file.
func TestProgressBar(t *testing.T) {
	in := linesFile(t, 300_000)
	run := func(stderr *os.File, extra ...string) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"normalize", "-q", in}, extra...)...)
		cmd.Env = append(os.Environ(), "URLNORM_PROGRESS_DELAY=0s")
		cmd.Stderr = stderr
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
	}
	master, slave := openPTY(t)
	got := make(chan string)
	go func() {
		b, _ := io.ReadAll(master) // ends with EIO when the slave closes
		got <- string(b)
	}()
	run(slave)
	slave.Close()
	tty := <-got
	master.Close()
	for _, part := range []string{"urlnorm normalize", "%", "rows", "\r", "\x1b[K"} {
		if !strings.Contains(tty, part) {
			t.Errorf("terminal output lacks %q: %q", part, tty)
		}
	}
	if !strings.HasSuffix(tty, "\r\x1b[K") {
		t.Errorf("the bar is not erased at the end: %q", tty[max(0, len(tty)-80):])
	}

	// a pipe and a file: nothing
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { b, _ := io.ReadAll(pr); got <- string(b) }()
	run(pw)
	pw.Close()
	if s := <-got; s != "" {
		t.Errorf("progress on a pipe: %q", s)
	}
	f, _ := os.Create(filepath.Join(t.TempDir(), "stderr"))
	run(f)
	if b, _ := os.ReadFile(f.Name()); len(b) != 0 {
		t.Errorf("progress in a file: %q", b)
	}
	f.Close()
	// --no-progress on a terminal: nothing
	master, slave = openPTY(t)
	go func() { b, _ := io.ReadAll(master); got <- string(b) }()
	run(slave, "--no-progress")
	slave.Close()
	if s := <-got; s != "" {
		t.Errorf("--no-progress drew %q", s)
	}
	master.Close()
}

// ttyRecorder collects what a pseudo-terminal shows.
type ttyRecorder struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (r *ttyRecorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

func (r *ttyRecorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.String()
}

// TestProgressInterrupt: Ctrl-C erases the bar before the program dies
// of the signal, so the prompt does not land inside it.
func TestProgressInterrupt(t *testing.T) {
	master, slave := openPTY(t)
	defer master.Close()
	var tty ttyRecorder
	copied := make(chan struct{})
	go func() { io.Copy(&tty, master); close(copied) }()
	cmd := exec.Command(bin, "normalize")
	cmd.Env = append(os.Environ(), "URLNORM_PROGRESS_DELAY=0s")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = io.Discard, slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, "https://example.com/a\nhttps://example.com/b\n") // and then nothing: a slow pipe
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(tty.String(), "2 rows") {
		if time.Now().After(deadline) {
			t.Fatalf("no progress bar with 2 rows: %q", tty.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	err = cmd.Wait()
	slave.Close()
	<-copied
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("after Ctrl-C: %v (%v), want death by SIGINT", err, ws)
	}
	if out := tty.String(); !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("the bar was not erased: %q", out[max(0, len(out)-100):])
	}
}

// TestInteractive: each line typed on stdin is answered at once, before
// the next one is typed (no waiting for a full buffer).
func TestInteractive(t *testing.T) {
	cmd := exec.Command(bin, "normalize")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	answers := bufio.NewReader(stdout)
	for _, in := range []string{"HTTP://A.com/x/../y", "https://b.org/?z=1&a=2", "nope"} {
		io.WriteString(stdin, in+"\n")
		got, err := answers.ReadString('\n')
		if want := expect(t, "default", in).url + "\n"; err != nil || got != want {
			t.Fatalf("typed %q: answer %q, %v; want %q", in, got, err, want)
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}
