package main

// The network commands: resolve (clara-policy Rule 7 and URL shorteners)
// and learn-hosts (Rule 5). Everything else in urlnorm is offline; these
// two make HTTP requests, through package resolve's checks.

import (
	"bufio"
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/urlnorm/urlnorm/internal/pipeline"
	"github.com/urlnorm/urlnorm/internal/profileload"
	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/resolve"
)

func init() {
	register(&command{
		name:    "resolve",
		summary: "follow each URL's redirects to its canonical final URL (network; clara Rule 7, shorteners)",
		run:     runResolve,
	})
	register(&command{
		name:    "learn-hosts",
		summary: "discover each domain's canonical host and write a clara host map (network; Rule 5)",
		run:     runLearnHosts,
	})
}

var resolveHelp = help{
	synopsis: "resolve [flags] URL…|FILE…",
	about: `Follows each URL's redirect chain (HEAD, or GET when HEAD is refused) and
writes one JSON line per input, in input order:

  {"url": canonical final URL, "original": input, "final": last URL requested,
   "status": its HTTP status, "chain": [{"url","method","status","location"}…],
   "flag": "" | too_many_redirects | loop | bad_location | http_only
           | left_allowlist | blocked_address | redirect_scheme | redirect_credentials,
   "error": message, "error_kind": kind, "error_class": input | rejected | network}

"url" is the final URL normalized with the profile (clara: https, tracking
and session parameters removed, host map …). With too_many_redirects, loop
or bad_location it is the original URL normalized (clara-policy Rule 7:
store the original and flag it); with http_only the final URL kept on
http (Rule 1's exception); a rejected or failed URL has none.

An argument containing "://" is a URL; any other argument is a file of
URLs, one per line ('-' is stdin; .gz files are decompressed; blank lines
and # comments are skipped), read as the file commands read text. With no
argument, URLs are read from stdin. A line longer than 1 MiB (or the
profile's limits.max_length) is not requested: its record has error_kind
too_long, and stderr names its file and line.

With --allowlist, every hop's host must be on the list (or a shortener,
which may be passed through but not stopped at); a redirect that leaves
it is rejected before it is dialed. Private, loopback, link-local (cloud
metadata) and other non-public addresses are always refused, after DNS.`,
	examples: `urlnorm resolve https://bit.ly/3xYz --allowlist gov-domains.txt
urlnorm resolve --allowlist gov-domains.txt --jobs 8 links.txt > resolved.jsonl
urlnorm resolve --hostmap hostmap.json --allowlist gov-domains.txt links.txt`,
	exit: netExit,
}

var learnHelp = help{
	synopsis: "learn-hosts [flags] [DOMAINS_FILE|-] > hostmap.json",
	about: `For each domain (one per line; a URL stands for its host; blank lines and #
comments are skipped), sends HEAD http://domain/, follows every redirect
and records the final host (clara-policy Rule 5). Writes the host map the
clara profile loads:

  {"hosts": {"boe.es": "www.boe.es", "www.boe.es": "www.boe.es"}}

A domain that is its own canonical host maps to itself (loaded over the
clara profile, that overrides a built-in mapping). Domains that fail are
listed on stderr, quoted, with their file and line, and left out.`,
	examples: `urlnorm learn-hosts --allowlist gov-domains.txt domains.txt > hostmap.json
urlnorm learn-hosts --jobs 8 --rate 1s domains.txt.gz > hostmap.json
urlnorm resolve --hostmap hostmap.json --allowlist gov-domains.txt links.txt`,
	exit: netExit,
}

const netExit = `Exit status: 0 success; 1 some input failed and --strict was given; 2 usage
error (bad flag, bad allowlist entry, unknown profile, bad host map); 3 a
file could not be read completely or the output could not be written.`

// netFlags are the flags both commands share.
type netFlags struct {
	allowlist    string
	maxHops      int
	timeout      time.Duration
	hopTimeout   time.Duration
	interval     time.Duration
	userAgent    string
	allowPrivate bool
	connectTo    connectToFlag
	cacert       string
	jobs         int
	strict       bool
	args         []string // the positional arguments
}

func (f *netFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.allowlist, "allowlist", "", "`file` of allowed hosts, one per line: sede.gob.es (that host), *.gob.es (its subdomains); default: any public host")
	fs.IntVar(&f.maxHops, "max-hops", resolve.DefaultMaxHops, "most `n` redirects followed; one more is flagged too_many_redirects")
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "time limit per input, all hops included")
	fs.DurationVar(&f.hopTimeout, "hop-timeout", 10*time.Second, "time limit per request")
	fs.DurationVar(&f.interval, "rate", 200*time.Millisecond, "least time between two requests to one host (0: no limit)")
	fs.StringVar(&f.userAgent, "user-agent", resolve.DefaultUserAgent, "User-Agent header")
	fs.BoolVar(&f.allowPrivate, "allow-private", false, "let requests reach loopback and private networks (tests and intranets only: turns the SSRF guard's main protection off)")
	fs.Var(&f.connectTo, "connect-to", "for `HOST:PORT:ADDR:PORT`, connect to ADDR:PORT instead of HOST:PORT, as curl does (repeatable; the guard still checks ADDR)")
	fs.StringVar(&f.cacert, "cacert", "", "PEM `file` of CA certificates to trust instead of the system's")
	fs.IntVar(&f.jobs, "jobs", 4, "`n` inputs in flight at once")
	fs.BoolVar(&f.strict, "strict", false, "exit with status 1 if any input failed")
}

// config builds the resolver configuration; a file error is exitIO.
func (f *netFlags) config() (resolve.Config, int, error) {
	c := resolve.Config{
		MaxHops: f.maxHops, Timeout: f.timeout, HopTimeout: f.hopTimeout, HostInterval: f.interval,
		UserAgent: f.userAgent, AllowPrivate: f.allowPrivate, ConnectTo: f.connectTo.m,
	}
	if f.maxHops <= 0 || f.timeout <= 0 || f.hopTimeout <= 0 || f.jobs <= 0 {
		return c, exitUsage, errors.New("--max-hops, --timeout, --hop-timeout and --jobs must be positive")
	}
	if f.interval <= 0 {
		c.HostInterval = -1 // Config's 0 means the default
	}
	if f.cacert != "" {
		pem, err := os.ReadFile(f.cacert)
		if err != nil {
			return c, exitIO, err
		}
		c.RootCAs = x509.NewCertPool()
		if !c.RootCAs.AppendCertsFromPEM(pem) {
			return c, exitUsage, fmt.Errorf("%s: no PEM certificate found", f.cacert)
		}
	}
	if f.allowlist != "" {
		list, err := readListFile(f.allowlist)
		if err != nil {
			return c, exitIO, err
		}
		if len(list) == 0 {
			return c, exitUsage, fmt.Errorf("%s: the allowlist is empty (without --allowlist any public host is allowed)", f.allowlist)
		}
		c.Allowlist = list
	}
	return c, exitOK, nil
}

func readListFile(path string) ([]string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	list, err := resolve.ReadList(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return list, nil
}

// connectToFlag collects --connect-to HOST:PORT:ADDR:PORT.
type connectToFlag struct{ m map[string]string }

func (c *connectToFlag) String() string { return "" }

func (c *connectToFlag) Set(v string) error {
	// The address may be an IPv6 literal in brackets.
	from, to, ok := cutAfterPort(v)
	if !ok {
		return fmt.Errorf("want HOST:PORT:ADDR:PORT, got %q", v)
	}
	if c.m == nil {
		c.m = map[string]string{}
	}
	c.m[from] = to
	return nil
}

// cutAfterPort splits "host:port:addr:port" after the first port.
func cutAfterPort(v string) (string, string, bool) {
	i := strings.IndexByte(v, ':')
	if i <= 0 {
		return "", "", false
	}
	j := strings.IndexByte(v[i+1:], ':')
	if j <= 0 || i+1+j+1 >= len(v) {
		return "", "", false
	}
	return v[:i+1+j], v[i+1+j+1:], true
}

// netCommand parses the flags of a network command.
func netCommand(name string, h help, e *env, args []string, extra func(*flag.FlagSet)) (*netFlags, int, bool) {
	fs := newFlags(name, h)
	var nf netFlags
	nf.register(fs)
	if extra != nil {
		extra(fs)
	}
	pos, code, ok := parseFlags(fs, args, e)
	nf.args = pos
	return &nf, code, ok
}

func runResolve(args []string, e *env) int {
	var profile, shorteners, hostmap string
	nf, code, ok := netCommand("resolve", resolveHelp, e, args, func(fs *flag.FlagSet) {
		fs.StringVar(&profile, "profile", "clara", "profile `name` or profile file (JSON/YAML) giving the canonical form of the final URL")
		fs.StringVar(&hostmap, "hostmap", "", "host-map `file` written by learn-hosts, loaded over the profile's host map (Rule 5)")
		fs.StringVar(&shorteners, "shorteners", "", "`file` of URL-shortener hosts that may be passed through when --allowlist is set (default: bit.ly, goo.gl, t.co and other well-known ones)")
	})
	if !ok {
		return code
	}
	cfg, code, err := nf.config()
	if err != nil {
		fmt.Fprintf(e.stderr, "urlnorm resolve: %v\n", err)
		return code
	}
	cfg.Shorteners = resolve.DefaultShorteners
	if shorteners != "" {
		if cfg.Shorteners, err = readListFile(shorteners); err != nil {
			fmt.Fprintf(e.stderr, "urlnorm resolve: %v\n", err)
			return exitIO
		}
	}
	if cfg.Normalizer, code, err = loadProfile(profile, hostmap); err != nil {
		fmt.Fprintf(e.stderr, "urlnorm resolve: %v\n", err)
		return code
	}
	r, err := resolve.New(cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlnorm resolve: %v\n", err)
		return exitUsage
	}
	defer r.Close()
	inputs, readErr, code, err := resolveInputs(nf.args, e.stdin)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlnorm resolve: %v\n", err)
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	out := bufio.NewWriter(e.stdout)
	var n, flagged, failed int
	stage := pipeline.Stage[string, resolveRecord]{
		Workers: nf.jobs,
		Work: func(in string) resolveRecord {
			res, err := r.Resolve(ctx, in)
			return resolveRecord{Result: res, Error: errText(err), Kind: resolve.KindOf(err), Class: resolve.ClassOf(err)}
		},
		Sink: func(rec resolveRecord) error {
			n++
			switch {
			case rec.Error != "":
				failed++
			case rec.Flag != "":
				flagged++
			}
			b, _ := json.Marshal(rec)
			_, err := out.Write(append(b, '\n'))
			return err
		},
	}
	sinkErr := stage.Run(func(emit func(string) bool) error {
		for in := range inputs {
			if !emit(in) {
				for range inputs { // let the reader finish
				}
			}
		}
		return nil
	})
	if sinkErr != nil {
		fmt.Fprintf(e.stderr, "urlnorm resolve: %v\n", sinkErr)
		return exitIO
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(e.stderr, "urlnorm resolve: %v\n", err)
		return exitIO
	}
	fmt.Fprintf(e.stderr, "urlnorm resolve: %d URLs: %d resolved, %d flagged, %d failed\n", n, n-flagged-failed, flagged, failed)
	if err := readErr(); err != nil {
		fmt.Fprintf(e.stderr, "urlnorm resolve: %v\n", err)
		return exitIO
	}
	if nf.strict && failed > 0 {
		return exitData
	}
	return exitOK
}

// resolveRecord is one output line of resolve.
type resolveRecord struct {
	resolve.Result
	Error string `json:"error,omitempty"`
	Kind  string `json:"error_kind,omitempty"`
	Class string `json:"error_class,omitempty"`
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func runLearnHosts(args []string, e *env) int {
	nf, code, ok := netCommand("learn-hosts", learnHelp, e, args, nil)
	if !ok {
		return code
	}
	if len(nf.args) > 1 {
		return usageError(e, "learn-hosts", "give one domains file (or - or nothing for stdin)")
	}
	cfg, code, err := nf.config()
	if err != nil {
		fmt.Fprintf(e.stderr, "urlnorm learn-hosts: %v\n", err)
		return code
	}
	// The host map is about hosts: the profile only matters to Resolve.
	cfg.Normalizer = normalize.MustLookup("clara")
	r, err := resolve.New(cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlnorm learn-hosts: %v\n", err)
		return exitUsage
	}
	defer r.Close()
	src, name := e.stdin, "stdin"
	if len(nf.args) == 1 && nf.args[0] != "-" {
		fh, err := os.Open(nf.args[0])
		if err != nil {
			fmt.Fprintf(e.stderr, "urlnorm learn-hosts: %v\n", err)
			return exitIO
		}
		defer fh.Close()
		src, name = fh, nf.args[0]
	}
	domains, err := resolve.ReadList(src)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlnorm learn-hosts: %s: %v\n", name, err)
		return exitIO
	}
	for i, d := range domains {
		if !strings.Contains(d, "://") {
			continue
		}
		if u, err := normalize.Parse(d); err == nil {
			domains[i] = u.Host()
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	learned := r.LearnHosts(ctx, domains, nf.jobs)
	m, dropped := resolve.BuildHostMap(learned)
	failed := len(dropped)
	for _, l := range learned {
		if l.Err != nil {
			failed++
			fmt.Fprintf(e.stderr, "urlnorm learn-hosts: %s: %s: %v\n", l.Domain, resolve.KindOf(l.Err), l.Err)
		}
	}
	for _, l := range dropped {
		fmt.Fprintf(e.stderr, "urlnorm learn-hosts: %s: left out: %v\n", l.Domain, l.Err)
	}
	if _, err := e.stdout.Write(m.JSON()); err != nil {
		fmt.Fprintf(e.stderr, "urlnorm learn-hosts: %v\n", err)
		return exitIO
	}
	fmt.Fprintf(e.stderr, "urlnorm learn-hosts: %d domains: %d in the host map, %d failed\n", len(domains), len(m.Hosts), failed)
	if nf.strict && failed > 0 {
		return exitData
	}
	return exitOK
}

// loadProfile returns the profile (a name, a profile file or a
// configuration file; see internal/profileload) with a host-map file, when
// given, loaded over it as a clara configuration file.
func loadProfile(arg, hostmap string) (*normalize.Normalizer, int, error) {
	var configs []string
	if hostmap != "" {
		configs = []string{hostmap}
	}
	n, err := profileload.Select(arg, configs)
	switch {
	case err == nil:
		return n, exitOK, nil
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return nil, exitIO, err
	}
	return nil, exitUsage, err
}

// resolveInputs turns the arguments into a stream of URLs: an argument
// with "://" is a URL, any other a file of URLs ('-' is stdin); none
// means stdin. Files are opened up front so a missing one is reported
// before any request; readErr reports a read error once the channel is
// drained.
func resolveInputs(args []string, stdin io.Reader) (urls <-chan string, readErr func() error, code int, err error) {
	if len(args) == 0 {
		args = []string{"-"}
	}
	var srcs []io.Reader
	var closers []io.Closer
	for _, a := range args {
		switch {
		case strings.Contains(a, "://"):
			srcs = append(srcs, strings.NewReader(a+"\n"))
		case a == "-":
			srcs = append(srcs, stdin)
		default:
			fh, err := os.Open(a)
			if err != nil {
				for _, c := range closers {
					c.Close()
				}
				return nil, nil, exitIO, err
			}
			srcs, closers = append(srcs, fh), append(closers, fh)
		}
	}
	ch := make(chan string)
	var scanErr error
	go func() {
		defer close(ch)
		for _, c := range closers {
			defer c.Close()
		}
		sc := bufio.NewScanner(io.MultiReader(srcs...))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line != "" && line[0] != '#' {
				ch <- line
			}
		}
		scanErr = sc.Err()
	}()
	// scanErr is written before close(ch), which happens before the
	// caller's last receive returns.
	return ch, func() error { return scanErr }, exitOK, nil
}
