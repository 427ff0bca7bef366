package resolve

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/resolve/resolvetest"
)

// The fixture is a small fake Internet on loopback. Test hosts (names
// under .test, RFC 6761) get public-looking addresses from 100.1.0.0/16
// through Config.LookupIP; the resolver's own dial path runs — ConnectTo,
// lookup, the guard — and only the final socket connect is swapped
// (Resolver.connect) for one that routes those public addresses to two
// httptest servers on loopback: port 80 to a plain one, 443 to a TLS one
// with a certificate for *.test. Anything else the resolver tries to
// reach is an error, never a real connection: no test leaves the machine.

type fixture struct {
	*resolvetest.Server
	t       *testing.T
	mu      sync.Mutex
	names   map[string]func(n int) []netip.Addr // DNS: answer to the n-th lookup (0-based)
	lookups map[string]int
	dialed  []string // ip:port connected to (after the guard)
	refused map[string]bool
	routes  map[string]string // ip:port → listener, before the default routes
	nextIP  int
	wrap    func(net.Conn) net.Conn // optional: wraps each connection
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	fx := &fixture{t: t, names: map[string]func(int) []netip.Addr{}, lookups: map[string]int{},
		refused: map[string]bool{}, routes: map[string]string{},
		Server: resolvetest.NewServer("*.test", "*.gob.test", "*.boe.test", "*.agencia.gob.test",
			"*.agencia.test", "*.chain.test", "*.inclusion.gob.test", "boe.es", "*.boe.es", "sepe.es")}
	t.Cleanup(fx.Close)
	return fx
}

// host gives name a fresh public-looking address and a handler.
func (fx *fixture) host(name string, h http.HandlerFunc) netip.Addr {
	fx.mu.Lock()
	defer fx.mu.Unlock()
	fx.nextIP++
	ip := netip.AddrFrom4([4]byte{100, 1, byte(fx.nextIP >> 8), byte(fx.nextIP)})
	fx.names[name] = func(int) []netip.Addr { return []netip.Addr{ip} }
	if h != nil {
		fx.Handle(name, h)
	}
	return ip
}

// dns sets the answers for name: answer(n) for the n-th lookup.
func (fx *fixture) dns(name string, answer func(n int) []netip.Addr) {
	fx.mu.Lock()
	defer fx.mu.Unlock()
	fx.names[name] = answer
}

func (fx *fixture) lookup(_ context.Context, network, host string) ([]netip.Addr, error) {
	fx.mu.Lock()
	n := fx.lookups[host]
	fx.lookups[host]++
	answer := fx.names[host]
	fx.mu.Unlock()
	if answer == nil {
		return nil, &net.DNSError{Err: "no such host (fixture)", Name: host, IsNotFound: true}
	}
	var out []netip.Addr
	for _, ip := range answer(n) {
		if network == "ip" || (network == "ip4") == ip.Unmap().Is4() {
			out = append(out, ip)
		}
	}
	return out, nil
}

// connect stands in for the socket connect, after the guard accepted addr.
func (fx *fixture) connect(ctx context.Context, network, addr string) (net.Conn, error) {
	fx.mu.Lock()
	fx.dialed = append(fx.dialed, addr)
	refused := fx.refused[addr]
	target := fx.routes[addr]
	fx.mu.Unlock()
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return nil, err
	}
	if refused {
		return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
	}
	switch {
	case target != "":
	case !netip.MustParsePrefix("100.1.0.0/16").Contains(ap.Addr()):
		return nil, fmt.Errorf("fixture: refusing to connect to %s, outside the fake Internet", addr)
	case ap.Port() == 80:
		target = fx.Plain.Listener.Addr().String()
	case ap.Port() == 443:
		target = fx.TLS.Listener.Addr().String()
	default:
		return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", target)
	if err == nil && fx.wrap != nil {
		c = fx.wrap(c)
	}
	return c, err
}

// resolver builds a Resolver wired to the fixture. Unless the test sets
// them: no rate limit and a 10s total timeout; the profile is the
// production default, clara.
func (fx *fixture) resolver(cfg Config) *Resolver {
	fx.t.Helper()
	cfg.LookupIP = fx.lookup
	cfg.RootCAs = fx.Pool
	if cfg.HostInterval == 0 {
		cfg.HostInterval = -1
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Second
	}
	r, err := New(cfg)
	if err != nil {
		fx.t.Fatal(err)
	}
	r.connect = fx.connect
	fx.t.Cleanup(r.Close)
	return r
}

// requests returns the requests seen for host ("" for all).
func (fx *fixture) requests(host string) []resolvetest.Request { return fx.Requests(host) }

func (fx *fixture) dialedAddrs() []string {
	fx.mu.Lock()
	defer fx.mu.Unlock()
	return append([]string(nil), fx.dialed...)
}

func (fx *fixture) lookupCount(host string) int {
	fx.mu.Lock()
	defer fx.mu.Unlock()
	return fx.lookups[host]
}

var (
	redirect = resolvetest.Redirect
	ok       = resolvetest.OK
)

// claraWith is the clara profile with hosts loaded as a host map.
func claraWith(t testing.TB, hosts map[string]string) *normalize.Normalizer {
	t.Helper()
	p, err := ApplyHostMap(normalize.MustLookup("clara").Profile(), HostMap{Hosts: hosts})
	if err != nil {
		t.Fatal(err)
	}
	n, err := normalize.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// raw routes name's port 80 to a server that answers resp verbatim.
func (fx *fixture) raw(name, resp string) {
	ip := fx.host(name, nil)
	addr := rawServer(fx.t, resp)
	fx.mu.Lock()
	fx.routes[netip.AddrPortFrom(ip, 80).String()] = addr
	fx.mu.Unlock()
}

// rawServer answers each connection with resp verbatim (for responses
// net/http's server refuses to write) and returns its address.
func rawServer(t *testing.T, resp string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					line, err := br.ReadString('\n')
					if err != nil || line == "\r\n" {
						break
					}
				}
				_, _ = c.Write([]byte(resp))
			}()
		}
	}()
	return ln.Addr().String()
}
