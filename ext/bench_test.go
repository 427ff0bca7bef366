package ext_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

// The host benchmarks are not unit tests: they run one 10M-row query per
// host and function in a fresh process (to report its peak memory), and
// time count(DISTINCT …) over the web corpus. Run them with
//
//	URLNORM_EXT_BENCH=1 go test ./ext -run TestBenchHosts -v -timeout 60m
//
// URLNORM_EXT_CORPUS (default /work/shared/data/urls) holds kasztp.txt and
// userbait.txt; userbait.txt may not be committed, so the corpus is read
// from where it lies. Results go to the test log; benchmarks/README.md
// records a run.
func TestBenchHosts(t *testing.T) {
	if os.Getenv("URLNORM_EXT_BENCH") == "" {
		t.Skip("benchmark: set URLNORM_EXT_BENCH=1 to run")
	}
	dir := extensions(t, "")
	t.Run("10M", func(t *testing.T) { benchTenMillion(t, dir) })
	t.Run("corpus", func(t *testing.T) { benchCorpus(t, dir) })
}

const tenMillion = 10_000_000

// tenMillionSQL is a 10M-row query over generated URLs (mixed case,
// default port, dot segments, a query and a fragment; 7,000,021 distinct
// values before and after normalization) with fn applied to each.
func tenMillionSQL(duck bool, fn string) string {
	url := "'HTTPS://Example.COM:443/p/' || (i % 1000003) || '/./q/../r?utm_source=x&b=' || (i % 7) || '#f'"
	src := fmt.Sprintf("range(%d) t(i)", tenMillion)
	if !duck {
		src = fmt.Sprintf("(WITH RECURSIVE t(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM t WHERE i < %d) SELECT i FROM t)", tenMillion-1)
	}
	return fmt.Sprintf("SELECT count(*), count(DISTINCT v) FROM (SELECT %s(%s) AS v FROM %s)", fn, url, src)
}

// benchHost starts a host in a fresh process for one measurement.
type benchHost struct {
	label string
	duck  bool
	start func() (*piped, error) // nil for the shell
}

func benchHosts(dir string) []benchHost {
	self, _ := os.Executable()
	return []benchHost{
		{"sqlite3-shell", false, nil},
		{"python-sqlite3", false, func() (*piped, error) {
			return startPython(dir, ":memory:")
		}},
		{"duckdb-go", true, func() (*piped, error) {
			cmd := exec.Command(self, "-test.run=^$")
			cmd.Env = append(os.Environ(), "URLNORM_EXT_SERVE=duckdb-go")
			p, err := startPiped("duckdb", "duckdb-go", cmd)
			if err != nil {
				return nil, err
			}
			return p, loadDuckDB(p, dir)
		}},
		{"node-duckdb", true, func() (*piped, error) {
			p, err := startNode()
			if err != nil {
				return nil, err
			}
			return p, loadDuckDB(p, dir)
		}},
	}
}

func benchTenMillion(t *testing.T, dir string) {
	for _, bh := range benchHosts(dir) {
		for _, fn := range []string{"lower", "normalize_url"} {
			q := tenMillionSQL(bh.duck, fn)
			load := loadavg()
			var rows [][]string
			var tm timing
			var rss int64
			var err error
			if bh.start == nil {
				rows, tm, rss, err = shellOnce(dir, "", q)
			} else {
				rows, tm, rss, err = pipedOnce(bh.start, q)
			}
			if err != nil {
				t.Errorf("%s %s: %v", bh.label, fn, err)
				continue
			}
			if len(rows) != 1 || rows[0][0] != strconv.Itoa(tenMillion) {
				t.Errorf("%s %s: %v, want %d rows counted", bh.label, fn, rows, tenMillion)
			}
			t.Logf("| %s | %s | %s | %.1f s | %.1f s | %d MiB | %s → %s |", bh.label, fn, strings.Join(rows[0], " / "),
				tm.wall.Seconds(), tm.cpu.Seconds(), rss/1024, load, loadavg())
		}
	}
}

// pipedOnce runs one query in a fresh host process and reports its time
// and the process's peak RSS in KiB.
func pipedOnce(start func() (*piped, error), q string) ([][]string, timing, int64, error) {
	p, err := start()
	if err != nil {
		return nil, timing{}, 0, err
	}
	rows, tm, err := timeQuery(p, q)
	if cerr := p.Close(); err == nil {
		err = cerr
	}
	return rows, tm, p.maxRSS(), err
}

var timerRE = regexp.MustCompile(`Run Time: real ([0-9.]+) user ([0-9.]+) sys ([0-9.]+)`)

// shellOnce runs q in a fresh sqlite3 shell process (on db, or in memory)
// and reports q's wall and CPU time as the shell's .timer measures them,
// and the process's peak RSS in KiB.
func shellOnce(dir, db, q string) ([][]string, timing, int64, error) {
	if db == "" {
		db = ":memory:"
	}
	cmd := exec.Command("sqlite3", "-batch", "-bail", "-cmd", ".load "+filepath.Join(dir, "urlnorm"), db)
	cmd.Stdin = strings.NewReader(".timer on\n" + q + ";\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, timing{}, 0, processError(cmd, err, stderr.String())
	}
	m := timerRE.FindStringSubmatch(stdout.String())
	if m == nil {
		return nil, timing{}, 0, fmt.Errorf("no timer in %q", stdout.String())
	}
	var secs [4]float64
	for i := 1; i < 4; i++ {
		secs[i], _ = strconv.ParseFloat(m[i], 64)
	}
	var rows [][]string
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		if !strings.HasPrefix(line, "Run Time") {
			rows = append(rows, strings.Split(line, "|"))
		}
	}
	tm := timing{wall: seconds(secs[1]), cpu: seconds(secs[2] + secs[3])}
	return rows, tm, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss, nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// timing is one query's wall time and the CPU time the host process spent
// on it (all threads), which the other users of a shared machine disturb
// less than the wall time.
type timing struct{ wall, cpu time.Duration }

// timeQuery runs q on a piped host, timing it.
func timeQuery(p *piped, q string) ([][]string, timing, error) {
	c0 := procCPU(p.cmd.Process.Pid)
	t0 := time.Now()
	rows, err := p.Query(q)
	return rows, timing{wall: time.Since(t0), cpu: procCPU(p.cmd.Process.Pid) - c0}, err
}

// procCPU is a process's user+system time so far, from /proc.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the parenthesised command name; utime and stime are
	// fields 14 and 15, in clock ticks (100 per second on Linux).
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// corpusRepeat repeats the corpus so each query runs long enough to time
// (the distinct count does not change).
const corpusRepeat = 10

func benchCorpus(t *testing.T, dir string) {
	urls := readCorpus(t)
	setup := corpusSetup(urls)
	for _, bh := range benchHosts(dir) {
		// One session per host: load the table, then alternate lower and
		// normalize_url three times, keeping each one's best.
		var h host
		var err error
		if bh.start == nil {
			h, err = openShell(t, dir)
		} else {
			var p *piped
			p, err = bh.start()
			h = p
			if p != nil {
				defer p.Close()
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range setup(bh.duck) {
			if err := h.Exec(s); err != nil {
				t.Fatalf("%s: %v", bh.label, err)
			}
		}
		rows, err := h.Query("SELECT count(*), (SELECT count(*) FROM web), (SELECT count(*) FROM raw) FROM big")
		if err != nil {
			t.Fatal(err)
		}
		best := map[string]timing{}
		result := map[string]string{}
		load := loadavg()
		for range 3 {
			for _, fn := range []string{"lower", "normalize_url"} {
				q := "SELECT count(DISTINCT " + fn + "(url)) FROM big"
				var got [][]string
				var tm timing
				if sh, ok := h.(*shell); ok {
					got, tm, _, err = shellOnce(dir, sh.db, q)
				} else {
					got, tm, err = timeQuery(h.(*piped), q)
				}
				if err != nil {
					t.Fatalf("%s: %s: %v", bh.label, q, err)
				}
				result[fn] = got[0][0]
				if b, ok := best[fn]; !ok || tm.wall < b.wall {
					best[fn] = tm
				}
			}
		}
		n, _ := strconv.Atoi(rows[0][0])
		l, u := best["lower"], best["normalize_url"]
		t.Logf("| %s | %s of %s × %d = %s | %s | %.3f s (cpu %.3f s) %.2f M/s | %s | %.3f s (cpu %.3f s) %.2f M/s | %s → %s |",
			bh.label, rows[0][1], rows[0][2], corpusRepeat, rows[0][0],
			result["lower"], l.wall.Seconds(), l.cpu.Seconds(), float64(n)/l.wall.Seconds()/1e6,
			result["normalize_url"], u.wall.Seconds(), u.cpu.Seconds(), float64(n)/u.wall.Seconds()/1e6,
			load, loadavg())
	}
}

// readCorpus reads kasztp.txt and userbait.txt as the corpus notes build
// "web": BOM and CR stripped, empty lines dropped.
func readCorpus(t *testing.T) []string {
	dir := os.Getenv("URLNORM_EXT_CORPUS")
	if dir == "" {
		dir = "/work/shared/data/urls"
	}
	var urls []string
	for _, name := range []string{"kasztp.txt", "userbait.txt"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSuffix(strings.TrimPrefix(sc.Text(), "\uFEFF"), "\r")
			// SQL literals cannot carry NUL, DuckDB's no invalid UTF-8.
			if line != "" && utf8.ValidString(line) && !strings.ContainsRune(line, 0) {
				urls = append(urls, line)
			}
		}
		f.Close()
	}
	return urls
}

// corpusSetup returns the statements that load the corpus as table raw,
// keep in web the URLs normalize_url accepts (it raises on the others),
// and repeat web corpusRepeat times as big.
func corpusSetup(urls []string) func(duck bool) []string {
	return func(duck bool) []string {
		s := []string{"CREATE TABLE raw (url VARCHAR)"}
		for i := 0; i < len(urls); i += 2000 {
			var vals []string
			for _, u := range urls[i:min(i+2000, len(urls))] {
				vals = append(vals, "("+literal(&u)+")")
			}
			s = append(s, "INSERT INTO raw VALUES "+strings.Join(vals, ","))
		}
		rep := fmt.Sprintf("range(%d)", corpusRepeat)
		if !duck {
			rep = fmt.Sprintf("(WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r WHERE i < %d) SELECT i FROM r)", corpusRepeat)
		}
		return append(s,
			"CREATE TABLE web AS SELECT url FROM raw WHERE try_normalize_url(url) IS NOT NULL",
			"CREATE TABLE big AS SELECT url FROM web, "+rep+" AS rep")
	}
}
