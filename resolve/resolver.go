package resolve

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/urlnorm/urlnorm/normalize"
)

// Config configures a Resolver. The zero value is usable: no allowlist (any
// public host), 5 hops, the guard on, the clara profile and the defaults
// below. Durations and sizes of 0 take the default; negative values are an
// error except where a field says otherwise. No timeout is ever unbounded.
type Config struct {
	// Allowlist restricts the hosts the resolver may contact and stop at.
	// Entries are hosts compared after CanonicalHost (so case, a trailing
	// dot and Unicode vs punycode do not matter): "sede.gob.es" matches
	// only that host; "*.gob.es" matches every subdomain of gob.es but not
	// gob.es itself (list both for both). Empty: any public host.
	Allowlist []string
	// Shorteners may be passed through but not stopped at when an
	// Allowlist is set (clara-policy "URL shorteners": keep the result
	// only if it is on the allowlist). Same syntax as Allowlist. See
	// DefaultShorteners.
	Shorteners []string
	// MaxHops is the most redirects followed (clara-policy Rule 7); 0
	// means DefaultMaxHops. One more is a too_many_redirects flag.
	MaxHops int
	// AllowPrivate lets the dialer reach loopback and private-use
	// networks (127/8, ::1, RFC 1918, CGNAT, fc00::/7). For tests and
	// internal deployments only: it turns the SSRF guard's main protection
	// off. Link-local (cloud metadata), multicast, documentation and
	// reserved ranges stay refused.
	AllowPrivate bool

	// Normalizer gives Result.URL its canonical form; nil means the
	// built-in "clara" profile. Its host map (Host.Map, clara-policy Rule
	// 5) is applied to the final URL only, never to a URL before it is
	// fetched (the pipeline's step 9 comes after step 8).
	Normalizer *normalize.Normalizer
	// UserAgent is sent with every request; "" means DefaultUserAgent.
	UserAgent string

	DialTimeout   time.Duration // TCP connect, per address; default 5s
	TLSTimeout    time.Duration // TLS handshake; default 5s
	HeaderTimeout time.Duration // request sent → response headers; default 10s
	HopTimeout    time.Duration // one hop, HEAD and its GET fallback; default 10s
	Timeout       time.Duration // one Resolve or DiscoverHost, all hops and waits; default 30s

	MaxHeaderBytes int64 // response header bytes; default 32 KiB
	MaxBodyBytes   int64 // body bytes read after a GET fallback; default 4 KiB

	// HostInterval is the least time between the starts of two requests
	// to one host (a per-host rate limit); 0 means 200ms, negative means
	// no limit.
	HostInterval time.Duration
	// CacheTTL is how long DiscoverHost remembers a domain's host; 0 means
	// 24h, negative disables the cache. CacheSize bounds the number of
	// domains remembered; 0 means 10000.
	CacheTTL  time.Duration
	CacheSize int

	// ConnectTo sends connections for "host:port" to another "addr:port"
	// (curl's --connect-to): the URL, Host header, TLS name and allowlist
	// check keep the original host; the guard checks the address actually
	// dialed.
	ConnectTo map[string]string
	// LookupIP resolves host names; nil means net.DefaultResolver.
	// Whatever it returns still passes the guard.
	LookupIP func(ctx context.Context, network, host string) ([]netip.Addr, error)
	// RootCAs verifies servers' certificates; nil means the system pool.
	RootCAs *x509.CertPool
}

// Defaults.
const (
	DefaultMaxHops   = 5
	DefaultUserAgent = "urlnorm-resolve/1 (+https://github.com/urlnorm/urlnorm)"
)

// Resolver follows redirects and discovers canonical hosts under Config's
// policy. It is safe for concurrent use.
type Resolver struct {
	cfg       Config
	allow     *hostSet // nil: any host
	short     *hostSet
	canon     *normalize.Normalizer // Config.Normalizer: Result.URL
	canonHTTP *normalize.Normalizer // canon without the http → https upgrade (http_only)
	fetch     *normalize.Normalizer // canon without the host map: the first request
	fetchHTTP *normalize.Normalizer // fetch without the upgrade: the http fallback
	transport *http.Transport
	limit     *limiter
	cache     *hostCache
	lookup    func(ctx context.Context, network, host string) ([]netip.Addr, error)
	// connect opens a connection to an IP:port the guard has accepted. In
	// production it is a net.Dialer whose Control hook runs the guard
	// again on the socket's address; tests replace it to reach a loopback
	// listener from a public-looking address.
	connect func(ctx context.Context, network, addr string) (net.Conn, error)
}

// New checks cfg and builds a Resolver.
func New(cfg Config) (*Resolver, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	r := &Resolver{cfg: cfg, lookup: cfg.LookupIP}
	var err error
	if len(cfg.Allowlist) > 0 {
		if r.allow, err = newHostSet("allowlist", cfg.Allowlist); err != nil {
			return nil, configErr(err)
		}
	}
	if r.short, err = newHostSet("shorteners", cfg.Shorteners); err != nil {
		return nil, configErr(err)
	}
	if err := r.profiles(cfg.Normalizer); err != nil {
		return nil, err
	}
	if r.lookup == nil {
		r.lookup = net.DefaultResolver.LookupNetIP
	}
	if r.cfg.ConnectTo, err = canonicalConnectTo(cfg.ConnectTo); err != nil {
		return nil, configErr(err)
	}
	d := &net.Dialer{Timeout: cfg.DialTimeout, KeepAlive: 30 * time.Second, Control: r.control}
	r.connect = d.DialContext
	r.transport = &http.Transport{
		Proxy:                  nil, // never a proxy: the guard must see the target's address
		DialContext:            r.dial,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: cfg.RootCAs},
		TLSHandshakeTimeout:    cfg.TLSTimeout,
		ResponseHeaderTimeout:  cfg.HeaderTimeout,
		MaxResponseHeaderBytes: cfg.MaxHeaderBytes,
		DisableCompression:     true, // bodies are never used
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        30 * time.Second,
	}
	r.limit = newLimiter(cfg.HostInterval)
	r.cache = newHostCache(cfg.CacheTTL, cfg.CacheSize, time.Now)
	return r, nil
}

// canonicalConnectTo writes each "host:port" key as the dialer sees it
// (canonical host, IPv6 without brackets inside JoinHostPort's).
func canonicalConnectTo(m map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(m))
	for from, to := range m {
		host, port, err := net.SplitHostPort(from)
		if err != nil {
			return nil, fmt.Errorf("connect-to %q: %v", from, err)
		}
		h, reason := canonicalHost(bracketIPv6(host))
		if reason != "" {
			return nil, fmt.Errorf("connect-to %q: %s", from, reason)
		}
		host = strings.Trim(h, "[]")
		if _, _, err := net.SplitHostPort(to); err != nil {
			return nil, fmt.Errorf("connect-to %q → %q: %v", from, to, err)
		}
		out[net.JoinHostPort(host, port)] = to
	}
	return out, nil
}

func bracketIPv6(host string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]"
	}
	return host
}

// Close releases idle connections.
func (r *Resolver) Close() { r.transport.CloseIdleConnections() }

func configErr(err error) error {
	return &normalize.Error{Op: "resolve config", Kind: normalize.KindConfig, Err: err}
}

func (c *Config) defaults() error {
	durations := []struct {
		p    *time.Duration
		def  time.Duration
		name string
	}{
		{&c.DialTimeout, 5 * time.Second, "DialTimeout"},
		{&c.TLSTimeout, 5 * time.Second, "TLSTimeout"},
		{&c.HeaderTimeout, 10 * time.Second, "HeaderTimeout"},
		{&c.HopTimeout, 10 * time.Second, "HopTimeout"},
		{&c.Timeout, 30 * time.Second, "Timeout"},
	}
	for _, d := range durations {
		if *d.p < 0 {
			return configErr(fmt.Errorf("%s must not be negative", d.name))
		}
		if *d.p == 0 {
			*d.p = d.def
		}
	}
	if c.MaxHops < 0 || c.MaxHeaderBytes < 0 || c.MaxBodyBytes < 0 || c.CacheSize < 0 {
		return configErr(errors.New("MaxHops, MaxHeaderBytes, MaxBodyBytes and CacheSize must not be negative"))
	}
	setDefault(&c.MaxHops, DefaultMaxHops)
	setDefault(&c.MaxHeaderBytes, 32<<10)
	setDefault(&c.MaxBodyBytes, 4<<10)
	setDefault(&c.CacheSize, 10000)
	setDefault(&c.HostInterval, 200*time.Millisecond)
	setDefault(&c.CacheTTL, 24*time.Hour)
	if c.UserAgent == "" {
		c.UserAgent = DefaultUserAgent
	}
	if strings.ContainsAny(c.UserAgent, "\r\n\x00") {
		return configErr(errors.New("UserAgent must not contain CR, LF or NUL"))
	}
	return nil
}

func setDefault[T int | int64 | time.Duration](p *T, def T) {
	if *p == 0 {
		*p = def
	}
}

// profiles derives the four normalizers from the configured profile.
func (r *Resolver) profiles(n *normalize.Normalizer) error {
	if n == nil {
		var err error
		if n, err = normalize.Lookup("clara"); err != nil {
			return err
		}
	}
	derive := func(suffix string, noMap, noUpgrade bool) (*normalize.Normalizer, error) {
		p := n.Profile()
		if !noMap && !noUpgrade {
			return n, nil
		}
		p.Name += suffix
		if noMap {
			p.Host.Map = nil
		}
		if noUpgrade {
			up := map[string]string{}
			for k, v := range p.Scheme.Upgrade {
				if k != "http" {
					up[k] = v
				}
			}
			p.Scheme.Upgrade = up
		}
		return normalize.New(p)
	}
	var err error
	r.canon = n
	if r.canonHTTP, err = derive("-http", false, true); err != nil {
		return err
	}
	if r.fetch, err = derive("-fetch", true, false); err != nil {
		return err
	}
	r.fetchHTTP, err = derive("-fetch-http", true, true)
	return err
}

// hostKey carries the host a request was checked for to the dialer.
type hostKey struct{}

// dial is the transport's DialContext. It refuses a host other than the
// one the hop was checked for, applies ConnectTo, resolves the name and
// connects to the first address the guard accepts.
func (r *Resolver) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if want, _ := ctx.Value(hostKey{}).(string); strings.Trim(want, "[]") != host {
		return nil, &blockedError{Reason: fmt.Sprintf("dial of %q for a request checked for %q", host, want)}
	}
	if to, ok := r.cfg.ConnectTo[addr]; ok {
		host, port, _ = net.SplitHostPort(to)
	}
	// The transport detaches dials from the request's deadline (it cancels
	// them when the request ends); bound the lookup on its own.
	lctx, cancel := context.WithTimeout(ctx, r.cfg.DialTimeout)
	ips, err := r.addrs(lctx, network, host)
	cancel()
	if err != nil {
		return nil, err
	}
	var first error
	for _, ip := range ips {
		if err := checkIP(ip, r.cfg.AllowPrivate); err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		c, err := r.connect(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return c, nil
		}
		if first == nil || isBlocked(first) {
			first = err
		}
	}
	if first == nil {
		first = &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	return nil, first
}

func isBlocked(err error) bool {
	var b *blockedError
	return errors.As(err, &b)
}

// addrs returns host's addresses: itself for an IP literal, else a lookup
// restricted to network's family.
func (r *Resolver) addrs(ctx context.Context, network, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip}, nil
	}
	family := "ip"
	switch network {
	case "tcp4":
		family = "ip4"
	case "tcp6":
		family = "ip6"
	}
	return r.lookup(ctx, family, host)
}

// request makes one hop: HEAD, and GET when the server answers HEAD with
// 405 or 501. Only status and headers are kept; a GET body is read up to
// MaxBodyBytes (so a small one frees the connection for reuse) and
// dropped.
func (r *Resolver) request(ctx context.Context, u *normalize.URL, host string) (*http.Response, string, error) {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.HopTimeout)
	defer cancel()
	ctx = context.WithValue(ctx, hostKey{}, host)
	var resp *http.Response
	for _, method := range [...]string{http.MethodHead, http.MethodGet} {
		if err := r.limit.wait(ctx, host); err != nil {
			return nil, method, err
		}
		req, err := r.newRequest(ctx, method, u, host)
		if err != nil {
			return nil, method, err
		}
		if resp, err = r.transport.RoundTrip(req); err != nil {
			return nil, method, err
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, r.cfg.MaxBodyBytes))
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed && resp.StatusCode != http.StatusNotImplemented {
			return resp, method, nil
		}
	}
	return resp, http.MethodGet, nil
}

// newRequest builds the request by hand rather than from a URL string, so
// no second URL parser (net/url) reinterprets what the guard checked: the
// host is the checked one, and path and query go out as the WHATWG
// serializer wrote them. Only User-Agent and Accept are sent — no cookies,
// credentials or Referer.
func (r *Resolver) newRequest(ctx context.Context, method string, u *normalize.URL, host string) (*http.Request, error) {
	hostport := host
	if p := u.Port(); p >= 0 {
		hostport = net.JoinHostPort(strings.Trim(host, "[]"), strconv.Itoa(p))
	}
	path := u.Path()
	if path == "" {
		path = "/"
	}
	q, hasQuery := u.Query()
	target := path
	if strings.HasPrefix(path, "//") {
		// url.URL.RequestURI would read "//x" as an authority; send the
		// absolute form instead (RFC 9112 §3.2.2).
		target = "//" + hostport + path
	}
	if strings.ContainsFunc(target+q, func(c rune) bool { return c <= ' ' || c == 0x7f }) {
		return nil, errors.New("control character or space in the request target")
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://placeholder.invalid/", nil)
	if err != nil {
		return nil, err
	}
	req.URL = &url.URL{Scheme: u.Scheme(), Host: hostport, Opaque: target, RawQuery: q, ForceQuery: hasQuery && q == ""}
	req.Host = hostport
	req.Header = http.Header{"User-Agent": {r.cfg.UserAgent}, "Accept": {"*/*"}}
	return req, nil
}
