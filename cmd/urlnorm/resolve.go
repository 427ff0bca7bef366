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
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/urlnorm/urlnorm/internal/cliio"
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
	inputs, err := openNetInputs(nf.args, e.stdin, true, maxValue(cfg.Normalizer))
	if err != nil {
		return fileError(e, "resolve", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	out := bufio.NewWriter(outWriter{e.stdout})
	var n, flagged, failed, shown int
	stage := pipeline.Stage[netInput, resolveRecord]{
		Workers: nf.jobs,
		Work: func(in netInput) resolveRecord {
			if in.err != nil { // not requested: the file commands' too_long
				return resolveRecord{Result: resolve.Result{Original: in.value}, Error: in.pos + ": " + describe(in.err),
					Kind: normalize.KindOf(in.err), Class: "input", pos: in.pos}
			}
			res, err := r.Resolve(ctx, in.value)
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
			if rec.pos != "" && shown < maxShown {
				shown++
				fmt.Fprintf(e.stderr, "urlnorm resolve: %s\n", safeText(rec.Error))
			}
			b, _ := json.Marshal(rec)
			_, err := out.Write(append(b, '\n'))
			return err
		},
	}
	runErr := stage.Run(inputs.each)
	if ferr := out.Flush(); runErr == nil {
		runErr = ferr
	}
	fmt.Fprintf(e.stderr, "urlnorm resolve: %d URLs: %d resolved, %d flagged, %d failed\n", n, n-flagged-failed, flagged, failed)
	if runErr != nil {
		fmt.Fprintf(e.stderr, "urlnorm resolve: %v\n", runErr)
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
	pos   string // an input the reader refused (too_long): listed on stderr
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
	inputs, err := openNetInputs(nf.args, e.stdin, false, cliio.DefaultMaxValue)
	if err != nil {
		return fileError(e, "learn-hosts", err)
	}
	// The domains are read whole: the host map is built from all of them.
	var domains, pos []string
	refused := 0 // lines the reader refused (too_long)
	report := func(pos, msg string) {
		fmt.Fprintf(e.stderr, "urlnorm learn-hosts: %s: %s\n", pos, safeText(msg))
	}
	err = inputs.each(func(in netInput) bool {
		if in.err != nil {
			refused++
			report(in.pos, describe(in.err))
			return true
		}
		d := in.value
		if strings.Contains(d, "://") {
			if u, err := normalize.Parse(d); err == nil {
				d = u.Host()
			}
		}
		domains, pos = append(domains, d), append(pos, in.pos)
		return true
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "urlnorm learn-hosts: %v\n", err)
		return exitIO
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	learned := r.LearnHosts(ctx, domains, nf.jobs)
	m, dropped := resolve.BuildHostMap(learned)
	failed := refused + len(dropped)
	for i, l := range learned {
		if l.Err != nil {
			failed++
			report(pos[i], resolve.KindOf(l.Err)+": "+l.Err.Error())
		}
	}
	for _, l := range dropped {
		report(normalize.Quote(l.Domain), "left out: "+l.Err.Error())
	}
	if _, err := e.stdout.Write(m.JSON()); err != nil {
		fmt.Fprintf(e.stderr, "urlnorm learn-hosts: writing the output: %v\n", err)
		return exitIO
	}
	fmt.Fprintf(e.stderr, "urlnorm learn-hosts: %d domains: %d in the host map, %d failed\n", len(domains)+refused, len(m.Hosts), failed)
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

// fileError reports an input that cannot be opened: a usage error (a
// flag that does not apply to it) or an I/O error.
func fileError(e *env, cmd string, err error) int {
	if cliio.IsUsage(err) {
		return usageError(e, cmd, "%v", err)
	}
	fmt.Fprintf(e.stderr, "urlnorm %s: %v\n", cmd, err)
	return exitIO
}
