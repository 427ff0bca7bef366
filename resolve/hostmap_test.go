package resolve

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlnorm/urlnorm/normalize"
)

func TestCanonicalHost(t *testing.T) {
	for in, want := range map[string]string{
		"sede.gob.es":        "sede.gob.es",
		"SEDE.Gob.ES.":       "sede.gob.es",      // Rule 6 case, DNS root dot
		"bücher.de":          "xn--bcher-kva.de", // IDNA, as the client dials it
		"XN--BCHER-KVA.DE":   "xn--bcher-kva.de",
		"0x7f.1":             "127.0.0.1", // IPv4 number forms
		"2130706433":         "127.0.0.1",
		"[::FFFF:127.0.0.1]": "[::ffff:7f00:1]",
		"under_score.es":     "under_score.es",
	} {
		if got, err := CanonicalHost(in); err != nil || got != want {
			t.Errorf("CanonicalHost(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{
		"", "sede.gob.es/x", "sede.gob.es:443", "user@sede.gob.es", "https://sede.gob.es",
		"sede gob.es", "a..b", ".a.b", "a!b.es", `a\b`, "a%2eb", "[::1", "1.2.3.256",
	} {
		if got, err := CanonicalHost(in); err == nil || !errors.Is(err, KindInvalidHost) {
			t.Errorf("CanonicalHost(%q) = %q, %v; want invalid_host", in, got, err)
		}
	}
}

func TestHostSet(t *testing.T) {
	s, err := newHostSet("allowlist", []string{"sede.gob.es", "*.seg-social.es", "BÜCHER.de."})
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]bool{
		"sede.gob.es":            true,
		"www.sede.gob.es":        false, // exact entries do not cover subdomains
		"gob.es":                 false,
		"www.seg-social.es":      true,
		"a.b.seg-social.es":      true,
		"seg-social.es":          false, // a wildcard does not cover its apex
		"xseg-social.es":         false, // label boundary
		"seg-social.es.evil.com": false,
		"sede.gob.es.evil.com":   false,
		"xn--bcher-kva.de":       true,
		"evil.com":               false,
	} {
		if got := s.has(host); got != want {
			t.Errorf("has(%q) = %v, want %v", host, got, want)
		}
	}
	for _, bad := range [][]string{{"*.es"}, {"*.1.2.3.4"}, {"sede.gob.es/"}, {"*"}, {".gob.es"}, {"gob.es:80"}} {
		if _, err := newHostSet("allowlist", bad); err == nil {
			t.Errorf("newHostSet(%q) accepted", bad)
		}
	}
	if _, err := New(Config{Allowlist: []string{"sede.gob.es@evil.com"}}); !errors.Is(err, normalize.ErrConfig) {
		t.Errorf("New with a bad allowlist entry: %v", err)
	}
}

func TestReadList(t *testing.T) {
	got, err := ReadList(strings.NewReader("# gov\nsede.gob.es\n\n  *.seg-social.es  \r\n#x\n"))
	if err != nil || strings.Join(got, ",") != "sede.gob.es,*.seg-social.es" {
		t.Errorf("ReadList = %q, %v", got, err)
	}
	// issue 16.5: a line over 1 MiB is an error naming the line, not a
	// bare "token too long"
	long := "a.example\n" + strings.Repeat("b", maxListLine+1) + "\n"
	if got, err := ReadList(strings.NewReader(long)); err == nil || !strings.Contains(err.Error(), "line 2: longer than") {
		t.Errorf("ReadList(long line) = %d entries, %v; want an error naming line 2", len(got), err)
	}
}

func TestConfigErrors(t *testing.T) {
	for name, c := range map[string]Config{
		"negative timeout": {Timeout: -1},
		"negative hops":    {MaxHops: -1},
		"negative body":    {MaxBodyBytes: -1},
		"agent with CRLF":  {UserAgent: "a\r\nCookie: x"},
		"bad connect-to":   {ConnectTo: map[string]string{"a.test": "127.0.0.1:1"}},
		"bad shortener":    {Shorteners: []string{"bit.ly/x"}},
	} {
		if _, err := New(c); !errors.Is(err, normalize.ErrConfig) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Rule 5: HEAD http://domain, follow every redirect, keep the final host.
func TestDiscoverHost(t *testing.T) {
	fx := newFixture(t)
	fx.host("boe.test", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodHead || r.URL.Path != "/" || r.TLS != nil {
			t.Errorf("discovery request %s %s (tls %v), want HEAD http://boe.test/", r.Method, r.URL, r.TLS != nil)
		}
		redirect(301, "https://www.boe.test/")(w, r)
	})
	fx.host("www.boe.test", ok)
	fx.host("agencia.test", redirect(302, "https://www.agencia.test/"))
	fx.host("www.agencia.test", redirect(302, "https://sede.agencia.gob.test/portal"))
	fx.host("sede.agencia.gob.test", ok)
	fx.host("loop.test", redirect(301, "http://loop.test/"))
	fx.host("evil.test", ok)
	fx.host("leaves.test", redirect(301, "https://evil.test/"))
	r := fx.resolver(Config{Allowlist: []string{"boe.test", "*.boe.test", "agencia.test", "*.agencia.test", "*.gob.test", "loop.test", "nxdomain.test"}})
	for in, want := range map[string]string{
		"boe.test":     "www.boe.test",
		"BOE.TEST.":    "www.boe.test",
		"www.boe.test": "www.boe.test",
		"agencia.test": "sede.agencia.gob.test",
	} {
		if got, err := r.DiscoverHost(context.Background(), in); err != nil || got != want {
			t.Errorf("DiscoverHost(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	// Cached: boe.test was asked once although discovered twice.
	if n := len(fx.requests("boe.test")); n != 1 {
		t.Errorf("boe.test requested %d times, want 1", n)
	}
	for in, kind := range map[string]*Kind{
		"loop.test":        KindLoop,
		"nxdomain.test":    KindDNS,
		"boe.test/x":       KindInvalidHost,
		"https://boe.test": KindInvalidHost,
	} {
		if got, err := r.DiscoverHost(context.Background(), in); !errors.Is(err, kind) || got != "" {
			t.Errorf("DiscoverHost(%q) = %q, %v; want %s", in, got, err, kind.Code)
		}
	}
	strict := fx.resolver(Config{Allowlist: []string{"leaves.test"}})
	if got, err := strict.DiscoverHost(context.Background(), "leaves.test"); !errors.Is(err, KindLeftAllowlist) {
		t.Errorf("leaving the allowlist: %q, %v", got, err)
	}
	if len(fx.requests("evil.test")) != 0 {
		t.Error("evil.test was requested")
	}
}

// The cache: concurrent lookups share one chain; entries expire after
// CacheTTL; failures are not cached; CacheTTL < 0 turns it off.
func TestDiscoverCache(t *testing.T) {
	fx := newFixture(t)
	release := make(chan struct{})
	fx.host("slow.test", func(w http.ResponseWriter, r *http.Request) {
		<-release
		redirect(301, "http://www.slow.test/")(w, r)
	})
	fx.host("www.slow.test", ok)
	r := fx.resolver(Config{CacheTTL: time.Hour})
	now := time.Now()
	var clock sync.Mutex
	r.cache.now = func() time.Time { clock.Lock(); defer clock.Unlock(); return now }
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if h, err := r.DiscoverHost(context.Background(), "slow.test"); err != nil || h != "www.slow.test" {
				t.Errorf("%q, %v", h, err)
			}
		}()
	}
	time.Sleep(50 * time.Millisecond) // let the eight callers queue up
	close(release)
	wg.Wait()
	if n := len(fx.requests("slow.test")); n != 1 {
		t.Errorf("8 concurrent lookups made %d requests, want 1", n)
	}
	clock.Lock()
	now = now.Add(2 * time.Hour)
	clock.Unlock()
	if _, err := r.DiscoverHost(context.Background(), "slow.test"); err != nil {
		t.Fatal(err)
	}
	if n := len(fx.requests("slow.test")); n != 2 {
		t.Errorf("after the TTL: %d requests, want 2", n)
	}
	// A caller that gives up gets its context's error, classified.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.DiscoverHost(ctx, "www.slow.test"); !errors.Is(err, KindCanceled) {
		t.Errorf("canceled: %v", err)
	}
	nocache := fx.resolver(Config{CacheTTL: -1})
	for range 2 {
		if _, err := nocache.DiscoverHost(context.Background(), "www.slow.test"); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(fx.requests("www.slow.test")); n < 3 {
		t.Errorf("without a cache: %d requests to www.slow.test, want ≥ 3", n)
	}
}

func TestCacheBound(t *testing.T) {
	c := newHostCache(time.Hour, 3, time.Now)
	for _, d := range []string{"a", "b", "c", "d", "e"} {
		if _, err := c.get(context.Background(), d, func() (string, error) { return "www." + d, nil }); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(c.entries); n != 3 {
		t.Errorf("%d entries, want 3", n)
	}
	if _, err := c.get(context.Background(), "f", func() (string, error) { return "", errors.New("down") }); err == nil {
		t.Error("error lost")
	}
	if _, ok := c.entries["f"]; ok {
		t.Error("a failure was cached")
	}
}

func TestLearnHosts(t *testing.T) {
	fx := newFixture(t)
	fx.host("boe.test", redirect(301, "https://www.boe.test/"))
	fx.host("www.boe.test", ok)
	fx.host("sepe.test", redirect(301, "http://WWW.SEPE.TEST./"))
	fx.host("www.sepe.test", ok)
	r := fx.resolver(Config{})
	learned := r.LearnHosts(context.Background(),
		[]string{"boe.test", "www.boe.test", "Sepe.Test", "nxdomain.test", "bad/domain", "boe.test"}, 3)
	if len(learned) != 6 || learned[2].Key != "sepe.test" || learned[2].Host != "www.sepe.test" ||
		!errors.Is(learned[3].Err, KindDNS) || !errors.Is(learned[4].Err, KindInvalidHost) {
		t.Fatalf("learned %+v", learned)
	}
	m, dropped := BuildHostMap(learned)
	if len(dropped) != 0 {
		t.Errorf("dropped %+v", dropped)
	}
	want := `{
  "hosts": {
    "boe.test": "www.boe.test",
    "sepe.test": "www.sepe.test",
    "www.boe.test": "www.boe.test"
  }
}
`
	if got := string(m.JSON()); got != want {
		t.Errorf("host map:\n%s\nwant:\n%s", got, want)
	}
	var back HostMap
	if err := json.Unmarshal(m.JSON(), &back); err != nil || len(back.Hosts) != 3 {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}

func TestBuildHostMap(t *testing.T) {
	l := func(k, h string) Learned { return Learned{Domain: k, Key: k, Host: h} }
	m, dropped := BuildHostMap([]Learned{
		l("a.es", "b.es"), l("b.es", "c.es"), // chain: a → c, b → c
		l("x.es", "y.es"), l("y.es", "x.es"), // cycle: both dropped
		l("p.es", "q.es"), l("p.es", "r.es"), // contradiction: second dropped
		l("same.es", "same.es"),                          // its own canonical host
		l("w.es", "www.w.es"), l("www.w.es", "www.w.es"), // a chain ending on a canonical host
		{Domain: "err.es", Key: "err.es", Err: errors.New("down")},
	})
	want := map[string]string{"a.es": "c.es", "b.es": "c.es", "p.es": "q.es", "same.es": "same.es",
		"w.es": "www.w.es", "www.w.es": "www.w.es"}
	if len(m.Hosts) != len(want) {
		t.Errorf("map %v, want %v", m.Hosts, want)
	}
	for k, v := range want {
		if m.Hosts[k] != v {
			t.Errorf("%s → %q, want %q", k, m.Hosts[k], v)
		}
	}
	var names []string
	for _, d := range dropped {
		names = append(names, d.Domain)
	}
	if got := strings.Join(names, ","); got != "p.es,x.es,y.es" {
		t.Errorf("dropped %s, want p.es,x.es,y.es", got)
	}
	if m, _ := BuildHostMap(nil); string(m.JSON()) != "{\n  \"hosts\": {}\n}\n" {
		t.Errorf("empty map: %s", m.JSON())
	}
}

// Rule 5 end to end: hosts learned from (loopback) servers, written as a
// host-map file, read back and loaded over the clara profile change what
// clara gives offline.
func TestLearnedMapChangesClara(t *testing.T) {
	fx := newFixture(t)
	fx.host("inclusion.gob.test", redirect(301, "https://www.inclusion.gob.test/"))
	fx.host("www.inclusion.gob.test", ok)
	fx.host("sepe.es", ok) // no longer redirects: its own canonical host
	fx.host("boe.es", redirect(301, "https://www.boe.es/"))
	fx.host("www.boe.es", ok)
	r := fx.resolver(Config{})
	learned := r.LearnHosts(context.Background(), []string{"inclusion.gob.test", "sepe.es", "boe.es"}, 2)
	for _, l := range learned {
		if l.Err != nil {
			t.Fatal(l.Err)
		}
	}
	m, dropped := BuildHostMap(learned)
	if len(dropped) != 0 {
		t.Fatalf("dropped %+v", dropped)
	}
	file, err := ReadHostMap("hostmap.json", m.JSON())
	if err != nil {
		t.Fatal(err)
	}
	base := normalize.MustLookup("clara")
	p, err := ApplyHostMap(base.Profile(), file)
	if err != nil {
		t.Fatal(err)
	}
	learnedClara, err := normalize.New(p)
	if err != nil {
		t.Fatal(err)
	}
	if v := learnedClara.Version(); !strings.HasPrefix(v, base.Version()+"+config.") {
		t.Errorf("version %q does not mark the learned map", v)
	}
	for in, want := range map[string][2]string{ // built-in clara, clara with the learned map
		"https://inclusion.gob.test/x":   {"https://inclusion.gob.test/x", "https://www.inclusion.gob.test/x"},
		"https://sepe.es/x":              {"https://www.sepe.es/x", "https://sepe.es/x"}, // learned overrides the table
		"https://boe.es/x":               {"https://www.boe.es/x", "https://www.boe.es/x"},
		"http://BOE.ES./x/?utm_source=a": {"https://www.boe.es/x", "https://www.boe.es/x"},
		"https://agenciatributaria.es/":  {"https://sede.agenciatributaria.gob.es", "https://sede.agenciatributaria.gob.es"}, // untouched entry
	} {
		before, err1 := base.Normalize(in)
		after, err2 := learnedClara.Normalize(in)
		if err1 != nil || err2 != nil || before != want[0] || after != want[1] {
			t.Errorf("%s: clara %q (%v), with the learned map %q (%v); want %q, %q", in, before, err1, after, err2, want[0], want[1])
		}
	}
}

func TestApplyHostMap(t *testing.T) {
	p := normalize.MustLookup("clara").Profile()
	// A learned entry whose target the table maps further is followed.
	q, err := ApplyHostMap(p, HostMap{Hosts: map[string]string{"old.es": "boe.es"}})
	if err != nil || q.Host.Map["old.es"] != "www.boe.es" {
		t.Errorf("chain through the table: %v, %v", q.Host.Map, err)
	}
	if _, err := ApplyHostMap(p, HostMap{Hosts: map[string]string{"www.boe.es": "boe.es"}}); !errors.Is(err, normalize.ErrConfig) {
		t.Errorf("cycle with the table: %v", err)
	}
	for _, bad := range []string{
		`{"hosts": {"BOE.es": "www.boe.es"}}`,
		`{"hosts": {"boe.es": "www.boe.es/x"}}`,
		`{"hosts": {"boe.es": "www.boe.es"}, "extra": 1}`,
		`{"hosts": ["boe.es"]}`,
		`not json`,
	} {
		if _, err := ReadHostMap("f.json", []byte(bad)); !errors.Is(err, normalize.ErrConfig) || !strings.Contains(err.Error(), "f.json") {
			t.Errorf("ReadHostMap(%s) = %v", bad, err)
		}
	}
}
