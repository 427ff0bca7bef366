package resolve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestCheckIP(t *testing.T) {
	for _, c := range []struct {
		ip      string
		blocked string // substring of the reason; "" when allowed
		private bool   // allowed with AllowPrivate
	}{
		{"8.8.8.8", "", false},
		{"2606:4700:4700::1111", "", false},
		{"64:ff9b::808:808", "", false}, // NAT64 of a public address
		{"127.0.0.1", "loopback", true},
		{"127.255.255.254", "loopback", true},
		{"::1", "loopback", true},
		{"::ffff:127.0.0.1", "loopback", true}, // IPv4-mapped
		{"64:ff9b::7f00:1", "loopback", true},  // NAT64 of loopback
		{"10.1.2.3", "private-use", true},
		{"172.31.255.255", "private-use", true},
		{"192.168.1.1", "private-use", true},
		{"::ffff:192.168.1.1", "private-use", true},
		{"100.64.0.1", "CGNAT", true},
		{"fd12:3456::1", "unique local", true},
		{"169.254.169.254", "metadata", false}, // AWS, GCP, Azure IMDS
		{"::ffff:169.254.169.254", "metadata", false},
		{"fd00:ec2::254", "metadata", false},   // AWS IMDS over IPv6
		{"100.100.100.200", "metadata", false}, // Alibaba Cloud
		{"168.63.129.16", "Azure", false},      // Azure wireserver
		{"fe80::1%eth0", "link-local", false},  // a zone must not hide the range
		{"0.0.0.0", "this network", false},
		{"::", "unspecified", false},
		{"::127.0.0.1", "IPv4-compatible", false},
		{"192.0.0.8", "IETF", false},
		{"192.0.2.1", "documentation", false},
		{"198.51.100.7", "documentation", false},
		{"203.0.113.9", "documentation", false},
		{"2001:db8::1", "documentation", false},
		{"3fff::1", "documentation", false},
		{"198.18.0.1", "benchmarking", false},
		{"192.88.99.1", "6to4", false},
		{"2002:7f00:1::1", "6to4", false},
		{"2001::1", "Teredo", false},
		{"224.0.0.1", "multicast", false},
		{"ff02::1", "multicast", false},
		{"240.0.0.1", "reserved", false},
		{"255.255.255.255", "broadcast", false},
		{"100::1", "discard", false},
		{"fec0::1", "site-local", false},
		{"4000::1", "not global unicast", false},
	} {
		ip := netip.MustParseAddr(c.ip)
		err := checkIP(ip, false)
		switch {
		case c.blocked == "" && err != nil:
			t.Errorf("%s: refused: %v", c.ip, err)
		case c.blocked != "" && (err == nil || !strings.Contains(err.Error(), c.blocked)):
			t.Errorf("%s: got %v, want refused as %q", c.ip, err, c.blocked)
		}
		if err := checkIP(ip, true); (err == nil) != (c.blocked == "" || c.private) {
			t.Errorf("%s with AllowPrivate: %v", c.ip, err)
		}
	}
	if checkIP(netip.Addr{}, true) == nil {
		t.Error("the zero Addr must be refused")
	}
}

// Redirects to internal addresses, however spelled, are refused with the
// guard on, before any connection.
func TestGuardRefusesRedirects(t *testing.T) {
	fx := newFixture(t)
	ip := fx.host("start.test", func(w http.ResponseWriter, r *http.Request) {
		redirect(302, r.URL.Query().Get("to"))(w, r)
	})
	fx.dns("internal.test", func(int) []netip.Addr { return []netip.Addr{netip.MustParseAddr("127.0.0.1")} })
	fx.dns("meta.test", func(int) []netip.Addr { return []netip.Addr{netip.MustParseAddr("::ffff:169.254.169.254")} })
	r := fx.resolver(Config{})
	for _, to := range []string{
		"http://127.0.0.1/",
		"http://[::1]/",
		"http://[::ffff:127.0.0.1]/",
		"http://169.254.169.254/latest/meta-data/",
		"http://0x7f.1/",
		"http://2130706433/",
		"http://0177.0.0.1/",
		"http://127.1/",
		"http://0.0.0.0/",
		"http://10.0.0.1/",
		"http://[fc00::1]/",
		"http://[64:ff9b::7f00:1]/",
		"https://internal.test/",
		"https://meta.test/",
	} {
		res, err := r.Resolve(context.Background(), "https://start.test/?to="+to)
		var b *blockedError
		if !errors.Is(err, KindBlocked) || !errors.Is(err, ErrRejected) || res.Flag != "blocked_address" || !errors.As(err, &b) {
			t.Errorf("%s: got %+v, %v; want blocked_address", to, res, err)
			continue
		}
		if len(res.Chain) != 2 || res.Chain[1].Status != 0 {
			t.Errorf("%s: chain %+v", to, res.Chain)
		}
	}
	// Only start.test was ever connected to.
	for _, a := range fx.dialedAddrs() {
		if a != ip.String()+":443" {
			t.Errorf("connected to %s", a)
		}
	}
}

// DNS rebinding: the name answers a public address first and loopback
// afterwards. The guard judges each dial's own answer, so the second
// connection is refused.
func TestGuardDNSRebinding(t *testing.T) {
	fx := newFixture(t)
	public := fx.host("rebind.test", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close") // the next hop must dial again
		if r.URL.Path == "/a" {
			redirect(302, "/b")(w, r)
			return
		}
		ok(w, r)
	})
	fx.dns("rebind.test", func(n int) []netip.Addr {
		if n == 0 {
			return []netip.Addr{public}
		}
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}
	})
	r := fx.resolver(Config{})
	res, err := r.Resolve(context.Background(), "https://rebind.test/a")
	var b *blockedError
	if !errors.Is(err, KindBlocked) || !errors.As(err, &b) || b.IP != netip.MustParseAddr("127.0.0.1") {
		t.Fatalf("got %+v, %v; want the second dial refused for 127.0.0.1", res, err)
	}
	if got := fx.dialedAddrs(); !slices.Equal(got, []string{public.String() + ":443"}) {
		t.Errorf("connected to %v, want only the public address", got)
	}
	if fx.lookupCount("rebind.test") != 2 || len(fx.requests("rebind.test")) != 1 {
		t.Errorf("lookups %d, requests %d; want 2 and 1", fx.lookupCount("rebind.test"), len(fx.requests("rebind.test")))
	}
}

// A name with a private and a public answer is dialed on the public one.
func TestGuardSkipsBlockedAnswers(t *testing.T) {
	fx := newFixture(t)
	public := fx.host("mixed.test", ok)
	fx.dns("mixed.test", func(int) []netip.Addr {
		return []netip.Addr{netip.MustParseAddr("10.0.0.1"), public}
	})
	r := fx.resolver(Config{})
	if _, err := r.Resolve(context.Background(), "https://mixed.test/"); err != nil {
		t.Fatal(err)
	}
	if got := fx.dialedAddrs(); !slices.Equal(got, []string{public.String() + ":443"}) {
		t.Errorf("connected to %v", got)
	}
}

// The production connect runs the guard again in the socket's Control
// hook, on the address the kernel is about to connect to: a loopback
// listener receives nothing with the guard on, and is reached with
// AllowPrivate.
func TestGuardControlHook(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	}()
	guarded, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = guarded.connect(context.Background(), "tcp", ln.Addr().String())
	var b *blockedError
	if !errors.As(err, &b) || classify(err) != KindBlocked {
		t.Fatalf("production connect to loopback: %v; want refused by Control", err)
	}
	open, err := New(Config{AllowPrivate: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := open.connect(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("AllowPrivate connect: %v", err)
	}
	c.Close()
	select {
	case <-accepted:
	case <-time.After(5 * time.Second):
		t.Fatal("AllowPrivate connection not accepted")
	}
	select {
	case <-accepted:
		t.Fatal("the guarded dial reached the listener")
	default:
	}
}

// With AllowPrivate, ConnectTo sends a name to a loopback server through
// the production dial path (what the CLI's --connect-to does); without
// it the same mapping is refused.
func TestConnectTo(t *testing.T) {
	fx := newFixture(t)
	fx.host("www.boe.test", ok)
	// The key is written as a user might: upper case, a trailing dot.
	mapping := map[string]string{"WWW.BOE.TEST.:80": fx.Plain.Listener.Addr().String()}
	for _, allow := range []bool{true, false} {
		r, err := New(Config{AllowPrivate: allow, ConnectTo: mapping,
			HostInterval: -1, LookupIP: fx.lookup})
		if err != nil {
			t.Fatal(err)
		}
		host, err := r.DiscoverHost(context.Background(), "www.boe.test")
		if allow && (err != nil || host != "www.boe.test") {
			t.Errorf("AllowPrivate: %q, %v", host, err)
		}
		if !allow && !errors.Is(err, KindBlocked) {
			t.Errorf("guard on: %q, %v; want blocked_address", host, err)
		}
		r.Close()
	}
	if n := len(fx.requests("www.boe.test")); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// The dialer refuses a host other than the one the request was checked
// for (a defence against any remapping between check and dial).
func TestDialHostMismatch(t *testing.T) {
	fx := newFixture(t)
	r := fx.resolver(Config{})
	ctx := context.WithValue(context.Background(), hostKey{}, "a.test")
	if _, err := r.dial(ctx, "tcp", "b.test:443"); classify(err) != KindBlocked {
		t.Errorf("mismatch: %v", err)
	}
	if _, err := r.dial(context.Background(), "tcp", "b.test:443"); classify(err) != KindBlocked {
		t.Errorf("no checked host: %v", err)
	}
	if len(fx.dialedAddrs()) != 0 || fx.lookupCount("b.test") != 0 {
		t.Error("the refused host was looked up or dialed")
	}
}
