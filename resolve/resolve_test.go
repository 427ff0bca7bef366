package resolve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlnorm/urlnorm/resolve/resolvetest"
)

// chainHandler serves /r/{code}/{n}: a redirect with status code to
// /r/{code}/{n-1} while n > 0, then 200. abs makes Location absolute.
func chainHandler(abs bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var code, n int
		if _, err := fmt.Sscanf(r.URL.Path, "/r/%d/%d", &code, &n); err != nil {
			http.NotFound(w, r)
			return
		}
		if n == 0 {
			ok(w, r)
			return
		}
		loc := fmt.Sprintf("/r/%d/%d", code, n-1)
		if abs {
			loc = "https://" + r.Host + loc
		}
		redirect(code, loc)(w, r)
	}
}

// Rule 7: chains of 0, 1 and 5 redirects are followed to the end for
// each redirect status; 6 redirects keep the original URL and flag it, and
// the 7th URL is never requested.
func TestChainLengths(t *testing.T) {
	fx := newFixture(t)
	fx.host("chain.test", chainHandler(false))
	fx.host("abs.chain.test", chainHandler(true))
	r := fx.resolver(Config{})
	for _, code := range []int{301, 302, 303, 307, 308} {
		for _, n := range []int{0, 1, 5, 6} {
			for _, host := range []string{"chain.test", "abs.chain.test"} {
				in := fmt.Sprintf("https://%s/r/%d/%d?utm_source=x#top", host, code, n)
				res, err := r.Resolve(context.Background(), in)
				if err != nil {
					t.Fatalf("%s: %v", in, err)
				}
				if n <= 5 {
					want := fmt.Sprintf("https://%s/r/%d/0", host, code)
					if res.URL != want || res.Flag != "" || len(res.Chain) != n+1 || res.Status != 200 {
						t.Errorf("%s: got url %q flag %q chain %d status %d; want %q, no flag, chain %d, 200",
							in, res.URL, res.Flag, len(res.Chain), res.Status, want, n+1)
					}
				} else {
					// The original, normalized (tracking param and fragment gone).
					want := fmt.Sprintf("https://%s/r/%d/6", host, code)
					if res.URL != want || res.Flag != "too_many_redirects" || len(res.Chain) != 6 {
						t.Errorf("%s: got url %q flag %q chain %d; want %q too_many_redirects 6", in, res.URL, res.Flag, len(res.Chain), want)
					}
				}
				for i, h := range res.Chain {
					wantStatus := code
					if i == n {
						wantStatus = 200
					}
					if h.Status != wantStatus || h.Method != "HEAD" {
						t.Errorf("%s: hop %d = %+v, want HEAD %d", in, i, h, wantStatus)
					}
				}
			}
		}
	}
	// The 6-redirect chains never reached /r/{code}/0: 6 requests each,
	// /6 … /1; count the requests for /r/301/0 — only from the n ≤ 5 runs.
	zero := 0
	for _, q := range fx.requests("chain.test") {
		if q.URI == "/r/301/0" {
			zero++
		}
	}
	if zero != 3 { // n = 0, 1, 5
		t.Errorf("/r/301/0 requested %d times, want 3 (never by the 6-hop chain)", zero)
	}
	// The first request went out normalized: no tracking parameter, no fragment.
	if q := fx.requests("chain.test")[0]; q.URI != "/r/301/0" {
		t.Errorf("first request %q, want /r/301/0", q.URI)
	}
}

// MaxHops is configurable; the Rule 7 default is 5.
func TestMaxHops(t *testing.T) {
	fx := newFixture(t)
	fx.host("chain.test", chainHandler(false))
	r := fx.resolver(Config{MaxHops: 2})
	res, err := r.Resolve(context.Background(), "https://chain.test/r/302/2")
	if err != nil || res.Flag != "" || res.URL != "https://chain.test/r/302/0" {
		t.Errorf("2 hops with MaxHops 2: %+v %v", res, err)
	}
	res, err = r.Resolve(context.Background(), "https://chain.test/r/302/3")
	if err != nil || res.Flag != "too_many_redirects" || res.URL != "https://chain.test/r/302/3" {
		t.Errorf("3 hops with MaxHops 2: %+v %v", res, err)
	}
}

type locCase struct {
	name   string
	loc    string
	want   string // final canonical URL; "" when an error or flag is expected
	flag   string
	errIs  error
	noHost string // a host that must never be looked up
}

// Location values: relative, scheme-relative, malformed, hostile. The
// allowlist holds loc.test, b.test, *.gob.test and bücher.test (given in
// punycode, upper case, with a trailing dot).
func TestLocationValues(t *testing.T) {
	cases := []locCase{
		{name: "relative path", loc: "next", want: "https://loc.test/dir/next"},
		{name: "absolute path", loc: "/final", want: "https://loc.test/final"},
		{name: "dot segments", loc: "../x/./y", want: "https://loc.test/x/y"},
		{name: "query only", loc: "?id=7", want: "https://loc.test/dir/page?id=7"},
		{name: "scheme-relative", loc: "//b.test/x", want: "https://b.test/x"},
		{name: "absolute other host", loc: "https://b.test/x", want: "https://b.test/x"},
		{name: "wildcard subdomain", loc: "https://sede.gob.test/x", want: "https://sede.gob.test/x"},
		{name: "space percent-encoded", loc: "/a b", want: "https://loc.test/a%20b"},
		{name: "tab removed", loc: "/fi\tnal", want: "https://loc.test/final"},
		{name: "encoded CR LF stays encoded", loc: "/a%0d%0aSet-Cookie:%20x=1", want: "https://loc.test/a%0D%0ASet-Cookie:%20x=1"},
		{name: "host case and trailing dot", loc: "https://SEDE.GOB.TEST./x", want: "https://sede.gob.test/x"},
		{name: "unicode host, punycode allowlist entry", loc: "https://bücher.test/x", want: "https://xn--bcher-kva.test/x"},
		{name: "punycode host", loc: "https://xn--bcher-kva.test/y", want: "https://xn--bcher-kva.test/y"},
		{name: "backslash scheme-relative", loc: `\\evil.test\x`, flag: "left_allowlist", errIs: ErrRejected, noHost: "evil.test"},
		{name: "slash backslash", loc: `/\evil.test/`, flag: "left_allowlist", errIs: ErrRejected, noHost: "evil.test"},
		{name: "allowed name as userinfo", loc: "https://loc.test@evil.test/", flag: "left_allowlist", errIs: ErrRejected, noHost: "evil.test"},
		{name: "allowed name as prefix", loc: "https://sede.gob.test.evil.test/", flag: "left_allowlist", errIs: ErrRejected, noHost: "sede.gob.test.evil.test"},
		{name: "wildcard excludes apex", loc: "https://gob.test/", flag: "left_allowlist", errIs: ErrRejected, noHost: "gob.test"},
		{name: "off the allowlist", loc: "https://evil.test/", flag: "left_allowlist", errIs: ErrRejected, noHost: "evil.test"},
		{name: "credentials", loc: "https://user:pw@b.test/", flag: "redirect_credentials", errIs: ErrRejected, noHost: "b.test"},
		{name: "javascript", loc: "javascript:alert(1)", flag: "redirect_scheme", errIs: ErrRejected},
		{name: "file", loc: "file:///etc/passwd", flag: "redirect_scheme", errIs: ErrRejected},
		{name: "ftp", loc: "ftp://b.test/", flag: "redirect_scheme", errIs: ErrRejected, noHost: "b.test"},
		{name: "empty", loc: "", flag: "bad_location", want: "https://loc.test/dir/page"},
		{name: "unparsable", loc: "http://[::1", flag: "bad_location", want: "https://loc.test/dir/page"},
		{name: "undialable host", loc: "https://a!b.test/", flag: "bad_location", want: "https://loc.test/dir/page"},
	}
	fx := newFixture(t)
	fx.host("b.test", ok)
	fx.host("sede.gob.test", ok)
	fx.host("xn--bcher-kva.test", ok)
	fx.host("evil.test", ok)
	fx.host("gob.test", ok)
	var current atomic.Value
	fx.host("loc.test", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/dir/page" && r.URL.RawQuery == "" {
			redirect(302, current.Load().(string))(w, r)
			return
		}
		ok(w, r)
	})
	r := fx.resolver(Config{Allowlist: []string{"loc.test", "B.test", "*.gob.test", "XN--BCHER-KVA.TEST."}})
	for _, c := range cases {
		current.Store(c.loc)
		before := len(fx.requests(""))
		lookups := fx.lookupCount(c.noHost)
		res, err := r.Resolve(context.Background(), "https://loc.test/dir/page")
		if c.errIs != nil {
			if !errors.Is(err, c.errIs) || res.Flag != c.flag || res.URL != "" {
				t.Errorf("%s: Location %q: got %+v, %v; want %s error, flag %s", c.name, c.loc, res, err, KindOf(err), c.flag)
			}
			if n := len(fx.requests("")) - before; n != 1 {
				t.Errorf("%s: %d requests, want 1 (the refused target is never requested)", c.name, n)
			}
		} else if err != nil || res.URL != c.want || res.Flag != c.flag {
			t.Errorf("%s: Location %q: got url %q flag %q err %v; want %q flag %q", c.name, c.loc, res.URL, res.Flag, err, c.want, c.flag)
		}
		if c.noHost != "" && fx.lookupCount(c.noHost) != lookups {
			t.Errorf("%s: %s was looked up", c.name, c.noHost)
		}
	}
	// The punycode and case variants were requested with the canonical
	// ASCII Host (what the allowlist matched).
	for _, h := range []string{"sede.gob.test", "xn--bcher-kva.test"} {
		if len(fx.requests(h)) == 0 {
			t.Errorf("no request with Host %s", h)
		}
	}
	for _, q := range fx.requests("") {
		if strings.HasSuffix(q.Host, ".") || strings.ContainsRune(q.Host, 'ü') || strings.ToLower(q.Host) != q.Host {
			t.Errorf("request with a non-canonical Host %q", q.Host)
		}
		if q.URI == "/a%0d%0aSet-Cookie:%20x=1" && q.Header.Get("Set-Cookie") != "" {
			t.Errorf("header injected")
		}
	}
}

// Responses that net/http's server will not write, sent byte for byte.
func TestRawLocations(t *testing.T) {
	fx := newFixture(t)
	fx.host("b.test", ok)
	fx.raw("bare-cr.test", "HTTP/1.1 302 Found\r\nLocation: /a\rSet-Cookie: x=1\r\nContent-Length: 0\r\n\r\n")
	fx.raw("fold.test", "HTTP/1.1 302 Found\r\nLocation: /a\r\n https://evil.test/\r\nContent-Length: 0\r\n\r\n")
	fx.raw("two.test", "HTTP/1.1 302 Found\r\nLocation: https://b.test/\r\nLocation: https://evil.test/\r\nContent-Length: 0\r\n\r\n")
	fx.raw("nul.test", "HTTP/1.1 302 Found\r\nLocation: /a\x00b\r\nContent-Length: 0\r\n\r\n")
	fx.raw("huge.test", "HTTP/1.1 302 Found\r\nLocation: /x\r\nX-Big: "+strings.Repeat("a", 100<<10)+"\r\n\r\n")
	fx.host("start.test", func(w http.ResponseWriter, r *http.Request) {
		redirect(302, "http://"+strings.TrimPrefix(r.URL.Path, "/")+"/")(w, r)
	})
	r := fx.resolver(Config{MaxHeaderBytes: 16 << 10})
	for _, c := range []struct{ host, kind string }{
		{"bare-cr.test", "http"}, // net/http refuses the header line
		// net/http joins an obsolete folded line with a space: the
		// Location "/a https://evil.test/" is a path on fold.test, which
		// redirects to itself again.
		{"fold.test", "loop"},
		{"two.test", "bad_location"},
		{"nul.test", "http"},
		{"huge.test", "http"}, // over MaxHeaderBytes
	} {
		res, err := r.Resolve(context.Background(), "https://start.test/"+c.host)
		got := KindOf(err)
		if got == "" {
			got = res.Flag
		}
		if got != c.kind {
			t.Errorf("%s: got %+v, %v; want %s", c.host, res, err, c.kind)
		}
		if c.kind == "http" && !errors.Is(err, ErrNetwork) {
			t.Errorf("%s: %v is not ErrNetwork", c.host, err)
		}
	}
	if n := fx.lookupCount("evil.test"); n != 0 {
		t.Errorf("evil.test looked up %d times", n)
	}
}

func TestLoops(t *testing.T) {
	fx := newFixture(t)
	fx.host("loop.test", resolvetest.ByPath(map[string]http.HandlerFunc{
		"/a":    redirect(301, "/b"),
		"/b":    redirect(302, "https://loop.test/a#frag"),
		"/self": redirect(307, "/self"),
		"/x":    redirect(301, "https://other.test/y"),
	}))
	fx.host("other.test", redirect(301, "https://loop.test/x"))
	r := fx.resolver(Config{})
	for in, chain := range map[string]int{
		"https://loop.test/a":    2, // A → B → A
		"https://loop.test/self": 1, // A → A
		"https://loop.test/x":    2, // across hosts
	} {
		res, err := r.Resolve(context.Background(), in)
		if err != nil || res.Flag != "loop" || res.URL != in || len(res.Chain) != chain {
			t.Errorf("%s: got %+v, %v; want flag loop, the original, %d hops", in, res, err, chain)
		}
	}
}

// Shorteners may be passed through, not stopped at (clara-policy "URL
// shorteners").
func TestShorteners(t *testing.T) {
	fx := newFixture(t)
	fx.host("sede.gob.test", ok)
	fx.host("evil.test", ok)
	fx.host("short.test", resolvetest.ByPath(map[string]http.HandlerFunc{
		"/good":  redirect(301, "https://sede.gob.test/tramite?utm_medium=x&id=3"),
		"/bad":   redirect(301, "https://evil.test/"),
		"/chain": redirect(301, "/good"),
	}))
	r := fx.resolver(Config{Allowlist: []string{"*.gob.test"}, Shorteners: []string{"short.test"}})
	res, err := r.Resolve(context.Background(), "https://short.test/chain")
	if err != nil || res.URL != "https://sede.gob.test/tramite?id=3" || len(res.Chain) != 3 {
		t.Errorf("good shortened link: %+v, %v", res, err)
	}
	for _, in := range []string{"https://short.test/bad", "https://short.test/missing"} {
		res, err := r.Resolve(context.Background(), in)
		if !errors.Is(err, KindLeftAllowlist) || res.Flag != "left_allowlist" || res.URL != "" {
			t.Errorf("%s: got %+v, %v; want left_allowlist", in, res, err)
		}
	}
	if n := fx.lookupCount("evil.test"); n != 0 {
		t.Errorf("evil.test looked up %d times", n)
	}
	// Without the shortener list, the shortener itself is off the list.
	r2 := fx.resolver(Config{Allowlist: []string{"*.gob.test"}})
	before := len(fx.requests("short.test"))
	if _, err := r2.Resolve(context.Background(), "https://short.test/good"); !errors.Is(err, KindLeftAllowlist) {
		t.Errorf("shortener not listed: %v", err)
	}
	if len(fx.requests("short.test")) != before {
		t.Errorf("a host off the allowlist was requested")
	}
}

// HEAD first; GET when HEAD gets 405 or 501.
func TestHeadFallback(t *testing.T) {
	for _, status := range []int{405, 501} {
		fx := newFixture(t)
		fx.host("nohead.test", func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodHead {
				w.WriteHeader(status)
				return
			}
			if r.URL.Path == "/start" {
				redirect(302, "/end")(w, r)
				return
			}
			ok(w, r)
		})
		r := fx.resolver(Config{})
		res, err := r.Resolve(context.Background(), "https://nohead.test/start")
		if err != nil || res.URL != "https://nohead.test/end" {
			t.Fatalf("%d: %+v, %v", status, res, err)
		}
		var methods []string
		for _, q := range fx.requests("nohead.test") {
			methods = append(methods, q.Method+" "+q.URI)
		}
		if got, want := strings.Join(methods, ", "), "HEAD /start, GET /start, HEAD /end, GET /end"; got != want {
			t.Errorf("%d: requests %s, want %s", status, got, want)
		}
		if res.Chain[0].Method != "GET" || res.Chain[0].Status != 302 || res.Chain[1].Method != "GET" {
			t.Errorf("%d: chain %+v", status, res.Chain)
		}
	}
}

// countConn counts the bytes the client reads from the socket.
type countConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// A GET fallback's body is read up to MaxBodyBytes, never further, even
// when the server would send a gigabyte.
func TestHugeBodyNotRead(t *testing.T) {
	fx := newFixture(t)
	var written atomic.Int64
	fx.host("huge.test", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.WriteHeader(405)
			return
		}
		buf := make([]byte, 32<<10)
		for written.Load() < 1<<30 {
			n, err := w.Write(buf)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	var read atomic.Int64
	fx.wrap = func(c net.Conn) net.Conn { return countConn{c, &read} }
	r := fx.resolver(Config{MaxBodyBytes: 4 << 10})
	res, err := r.Resolve(context.Background(), "https://huge.test/")
	if err != nil || res.Status != 200 {
		t.Fatalf("%+v, %v", res, err)
	}
	// Headers, 4 KiB of body, and what TLS and bufio read ahead (one TLS
	// record of up to 16 KiB): far below the gigabyte on offer.
	if n := read.Load(); n > 64<<10 {
		t.Errorf("client read %d bytes from the socket, want ≤ 64 KiB", n)
	}
	if written.Load() >= 1<<30 {
		t.Errorf("server wrote the whole gigabyte")
	}
}

// Every timeout is bounded: a server that never answers costs HopTimeout.
func TestSlowServer(t *testing.T) {
	fx := newFixture(t)
	release := make(chan struct{})
	defer close(release)
	fx.host("slow.test", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	fx.host("trickle.test", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.WriteHeader(405)
			return
		}
		w.WriteHeader(200)
		for i := 0; i < 1000; i++ {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-release:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
	r := fx.resolver(Config{HopTimeout: 300 * time.Millisecond})
	res, err := r.Resolve(context.Background(), "https://slow.test/")
	if !errors.Is(err, KindTimeout) || !errors.Is(err, ErrNetwork) || res.URL != "" {
		t.Errorf("slow headers: %+v, %v; want a timeout", res, err)
	}
	// A body that trickles in: the hop ends at HopTimeout with the
	// status already received.
	r = fx.resolver(Config{HopTimeout: time.Second})
	res, err = r.Resolve(context.Background(), "https://trickle.test/")
	if err != nil || res.Status != 200 {
		t.Errorf("trickling body: %+v, %v", res, err)
	}
	// The total timeout bounds the whole chain.
	fx.host("steps.test", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(150 * time.Millisecond)
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		redirect(302, "/"+strconv.Itoa(n+1))(w, r)
	})
	r = fx.resolver(Config{Timeout: 400 * time.Millisecond, MaxHops: 20})
	if _, err := r.Resolve(context.Background(), "https://steps.test/0"); !errors.Is(err, KindTimeout) {
		t.Errorf("total timeout: %v", err)
	}
	// A caller's cancellation is reported as such.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Resolve(ctx, "https://steps.test/0"); !errors.Is(err, KindCanceled) {
		t.Errorf("canceled: %v", err)
	}
}

// No credentials, cookies, Authorization or Referer are ever sent, even
// when a server sets a cookie or the input carries credentials.
func TestHeaderHygiene(t *testing.T) {
	fx := newFixture(t)
	fx.host("cookie.test", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "s", Value: "1", Path: "/"})
		w.Header().Set("WWW-Authenticate", `Basic realm="x"`)
		switch r.URL.Path {
		case "/1":
			redirect(302, "/2")(w, r)
		case "/2":
			redirect(302, "https://b.test/3")(w, r)
		}
	})
	fx.host("b.test", ok)
	r := fx.resolver(Config{UserAgent: "test-agent/1"})
	if _, err := r.Resolve(context.Background(), "https://cookie.test/1"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resolve(context.Background(), "https://user:secret@cookie.test/1"); !errors.Is(err, KindCredentials) || !errors.Is(err, ErrInput) {
		t.Errorf("credentials in the input: %v", err)
	}
	reqs := fx.requests("")
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for _, q := range reqs {
		for _, h := range []string{"Authorization", "Proxy-Authorization", "Cookie", "Referer"} {
			if v := q.Header.Get(h); v != "" {
				t.Errorf("%s %s sent %s: %q", q.Method, q.URI, h, v)
			}
		}
		if ua := q.Header.Get("User-Agent"); ua != "test-agent/1" {
			t.Errorf("User-Agent %q", ua)
		}
	}
}

// Rule 1's exception: a site that does not answer on https is fetched
// over http and flagged; so is a chain that ends on http.
func TestHTTPOnly(t *testing.T) {
	fx := newFixture(t)
	ip := fx.host("plain.test", ok)
	fx.refused[ip.String()+":443"] = true
	fx.host("down.test", func(w http.ResponseWriter, r *http.Request) {
		if r.TLS != nil {
			redirect(301, "http://down.test/x/")(w, r)
			return
		}
		ok(w, r)
	})
	fx.host("both.test", ok)
	fx.host("up.test", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			redirect(301, "http://up.test/y?utm_source=z")(w, r)
			return
		}
		ok(w, r)
	})
	r := fx.resolver(Config{})
	for in, want := range map[string]Result{
		// A redirect to http, but https works: probed, stored as https.
		"https://up.test/":                  {URL: "https://up.test/y", Final: "http://up.test/y?utm_source=z"},
		"http://plain.test/a/?utm_source=x": {URL: "http://plain.test/a", Flag: FlagHTTPOnly, Final: "http://plain.test/a"},
		"https://down.test/":                {URL: "http://down.test/x", Flag: FlagHTTPOnly, Final: "http://down.test/x/"},
		"http://both.test/a":                {URL: "https://both.test/a", Final: "https://both.test/a"},
	} {
		res, err := r.Resolve(context.Background(), in)
		if err != nil || res.URL != want.URL || res.Flag != want.Flag || res.Final != want.Final {
			t.Errorf("%s: got %+v, %v; want %+v", in, res, err, want)
		}
	}
	if n := len(fx.requests("both.test")); n != 1 {
		t.Errorf("both.test: %d requests, want 1 (https only)", n)
	}
	// plain.test: the failed https attempt is the probe; no second try.
	res, _ := r.Resolve(context.Background(), "http://plain.test/a")
	if res.Probe == nil || res.Probe.URL != "https://plain.test/a" || res.Probe.Status != 0 {
		t.Errorf("plain.test probe %+v", res.Probe)
	}
	if n := len(fx.dialedAddrs()); n == 0 {
		t.Error("no dials recorded")
	}
	https := 0
	for _, a := range fx.dialedAddrs() {
		if a == ip.String()+":443" {
			https++
		}
	}
	if https != 2 { // one per Resolve of plain.test
		t.Errorf("%d https dials to plain.test, want 2", https)
	}
	// The probe went to the https form without the tracking parameter.
	if q := fx.requests("up.test"); len(q) != 3 || !q[2].TLS || q[2].URI != "/y" {
		t.Errorf("up.test requests %+v", q)
	}
}

// Rule 5 is applied to the final URL, after the redirects, not before
// the first request (pipeline step 9 after step 8).
func TestHostMapAppliedLast(t *testing.T) {
	fx := newFixture(t)
	fx.host("boe.test", ok)
	r := fx.resolver(Config{Normalizer: claraWith(t, map[string]string{"boe.test": "www.boe.test"})})
	res, err := r.Resolve(context.Background(), "http://BOE.test/buscar/?id=BOE-A-1&utm_campaign=x")
	if err != nil || res.URL != "https://www.boe.test/buscar?id=BOE-A-1" {
		t.Errorf("got %+v, %v", res, err)
	}
	if q := fx.requests("boe.test"); len(q) != 1 || q[0].URI != "/buscar?id=BOE-A-1" || q[0].Host != "boe.test" {
		t.Errorf("requests %+v", q)
	}
}

func TestInputErrors(t *testing.T) {
	fx := newFixture(t)
	r := fx.resolver(Config{Allowlist: []string{"sede.gob.test"}})
	for in, kind := range map[string]*Kind{
		"":                                KindInvalidURL,
		"not a url":                       KindInvalidURL,
		"ftp://sede.gob.test/":            KindScheme,
		"mailto:x@sede.gob.test":          KindScheme,
		"https://u:p@sede.gob.test/":      KindCredentials,
		"https://sede.gob.test@evil.test": KindCredentials,
		"https://sede.gob.test.evil.test": KindLeftAllowlist,
		"https://[::1/":                   KindInvalidURL,
	} {
		res, err := r.Resolve(context.Background(), in)
		if !errors.Is(err, kind) || res.URL != "" {
			t.Errorf("%q: got %+v, %v; want %s", in, res, err, kind.Code)
		}
	}
	if n := len(fx.requests("")) + len(fx.dialedAddrs()); n != 0 {
		t.Errorf("%d requests or dials for refused input", n)
	}
}

// The rate limit spaces the starts of requests to one host by
// HostInterval, so a 4-request chain takes at least 3 intervals.
func TestHostInterval(t *testing.T) {
	fx := newFixture(t)
	fx.host("chain.test", chainHandler(false))
	const gap = 100 * time.Millisecond
	r := fx.resolver(Config{HostInterval: gap})
	start := time.Now()
	if _, err := r.Resolve(context.Background(), "https://chain.test/r/301/3"); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 3*gap {
		t.Errorf("4 requests in %v, want ≥ %v", d, 3*gap)
	}
	if n := len(fx.requests("chain.test")); n != 4 {
		t.Errorf("%d requests, want 4", n)
	}
}

// Concurrent waiters for one host get slots gap apart; other hosts do not
// wait for them.
func TestLimiter(t *testing.T) {
	const gap = 50 * time.Millisecond
	l := newLimiter(gap)
	start := time.Now()
	var mu sync.Mutex
	var done []time.Duration
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := l.wait(context.Background(), "a.test"); err != nil {
				t.Error(err)
			}
			mu.Lock()
			done = append(done, time.Since(start))
			mu.Unlock()
		}()
	}
	wg.Wait()
	slices.Sort(done)
	for i, d := range done {
		// A timer never fires early: the i-th waiter is released no
		// sooner than i gaps after the first.
		if d < time.Duration(i)*gap {
			t.Errorf("waiter %d released after %v, want ≥ %v", i, d, time.Duration(i)*gap)
		}
	}
	other := time.Now()
	if err := l.wait(context.Background(), "b.test"); err != nil || time.Since(other) >= gap {
		t.Errorf("another host waited %v (%v)", time.Since(other), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = l.wait(context.Background(), "c.test")
	if err := l.wait(ctx, "c.test"); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled wait: %v", err)
	}
	if newLimiter(-1) != nil || newLimiter(-1).wait(context.Background(), "x") != nil {
		t.Error("a negative interval must disable the limiter")
	}
}

// Concurrent Resolves share one Resolver safely (run with -race).
func TestConcurrentResolve(t *testing.T) {
	fx := newFixture(t)
	fx.host("chain.test", chainHandler(false))
	r := fx.resolver(Config{})
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code := []int{301, 302, 303, 307, 308}[i%5]
			in := fmt.Sprintf("https://chain.test/r/%d/%d", code, i%6)
			res, err := r.Resolve(context.Background(), in)
			if want := fmt.Sprintf("https://chain.test/r/%d/0", code); err != nil || res.URL != want {
				t.Errorf("%s: %+v, %v", in, res, err)
			}
		}()
	}
	wg.Wait()
}
