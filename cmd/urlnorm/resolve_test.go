package main

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/resolve"
	"github.com/urlnorm/urlnorm/resolve/resolvetest"
)

// The network commands run in-process against loopback servers that
// answer for Spanish government host names; --connect-to sends each
// name's port 80 and 443 there and --allow-private lets the guard accept
// loopback. No test reaches beyond loopback.

// govServer serves:
//
//	boe.es               → 301 https://www.boe.es/ (any path)
//	www.boe.es           200
//	sepe.es              200 (its own canonical host, unlike the clara table)
//	inclusion.gob.es     → 301 https://www.inclusion.gob.es/…
//	www.inclusion.gob.es 200
//	bit.ly/abc           → 302 http://www.boe.es/buscar/act.php?id=BOE-A-2023-12345&utm_source=tw
//	bit.ly/evil          → 302 https://evil.example/
func govServer(t *testing.T) *resolvetest.Server {
	s := resolvetest.NewServer("boe.es", "*.boe.es", "sepe.es", "inclusion.gob.es", "*.inclusion.gob.es", "bit.ly")
	t.Cleanup(s.Close)
	s.Handle("boe.es", resolvetest.Redirect(301, "https://www.boe.es/"))
	s.Handle("www.boe.es", resolvetest.OK)
	s.Handle("sepe.es", resolvetest.OK)
	s.Handle("inclusion.gob.es", func(w http.ResponseWriter, r *http.Request) {
		resolvetest.Redirect(301, "https://www.inclusion.gob.es"+r.URL.Path)(w, r)
	})
	s.Handle("www.inclusion.gob.es", resolvetest.OK)
	s.Handle("bit.ly", resolvetest.ByPath(map[string]http.HandlerFunc{
		"/abc":  resolvetest.Redirect(302, "http://www.boe.es/buscar/act.php?id=BOE-A-2023-12345&utm_source=tw"),
		"/evil": resolvetest.Redirect(302, "https://evil.example/"),
	}))
	return s
}

// netArgs are the flags that route every served name to the servers.
func netArgs(t *testing.T, s *resolvetest.Server, dir string) []string {
	ca := filepath.Join(dir, "ca.pem")
	writeFile(t, ca, string(s.CAPEM))
	args := []string{"--allow-private", "--cacert", ca, "--rate", "0"}
	var keys []string
	for k := range s.ConnectTo() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		args = append(args, "--connect-to", k+":"+s.ConnectTo()[k])
	}
	// dead.es: a name whose connections are refused (a closed port).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	return append(args, "--connect-to", "dead.es:80:"+closed, "--connect-to", "dead.es:443:"+closed)
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runNet(args []string, stdin string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut})
	return code, out.String(), errOut.String()
}

// Rule 5 end to end: learn-hosts discovers the hosts from the servers and
// writes the host map; loaded over the clara profile it changes clara's
// output offline.
func TestLearnHostsCommand(t *testing.T) {
	s := govServer(t)
	dir := t.TempDir()
	domains := filepath.Join(dir, "domains.txt")
	writeFile(t, domains, "# Clara's domains\nboe.es\nwww.boe.es\nSEPE.ES.\n\nhttps://Inclusion.gob.es/some/page\ndead.es\nboe.es\n")
	args := append([]string{"learn-hosts"}, netArgs(t, s, dir)...)
	code, out, errOut := runNet(append(args, domains), "")
	if code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	want := `{
  "hosts": {
    "boe.es": "www.boe.es",
    "inclusion.gob.es": "www.inclusion.gob.es",
    "sepe.es": "sepe.es",
    "www.boe.es": "www.boe.es"
  }
}
`
	if out != want {
		t.Errorf("host map:\n%s\nwant:\n%s", out, want)
	}
	if !strings.Contains(errOut, `domains.txt:7: dial: urlnorm: discover host "dead.es": dial at "http://dead.es/"`) || !strings.Contains(errOut, "6 domains: 4 in the host map, 1 failed") {
		t.Errorf("stderr:\n%s", errOut)
	}
	// Rule 5 discovery is HEAD http://domain/.
	for _, q := range s.Requests("boe.es") {
		if q.Method != "HEAD" || q.URI != "/" || q.TLS {
			t.Errorf("discovery request %s %s (TLS %v), want HEAD http://boe.es/", q.Method, q.URI, q.TLS)
		}
	}
	// --strict turns the failed domain into exit status 1; the map is
	// still written.
	code, out2, _ := runNet(append(args, "--strict", domains), "")
	if code != exitData || out2 != want {
		t.Errorf("--strict: exit %d, output %q", code, out2)
	}

	// The host map loaded over clara.
	hostmap := filepath.Join(dir, "hostmap.json")
	writeFile(t, hostmap, out)
	base := normalize.MustLookup("clara")
	learned, _, err := loadProfile("clara", hostmap)
	if err != nil {
		t.Fatal(err)
	}
	for in, w := range map[string][2]string{ // clara, clara with the learned map
		"https://inclusion.gob.es/x":                 {"https://inclusion.gob.es/x", "https://www.inclusion.gob.es/x"},
		"https://sepe.es/x":                          {"https://www.sepe.es/x", "https://sepe.es/x"},
		"https://boe.es/x":                           {"https://www.boe.es/x", "https://www.boe.es/x"},
		"http://boe.es/buscar/?id=BOE-A-1#p":         {"https://www.boe.es/buscar?id=BOE-A-1", "https://www.boe.es/buscar?id=BOE-A-1"},
		"https://agenciatributaria.es/Sede/tramites": {"https://sede.agenciatributaria.gob.es/Sede/tramites", "https://sede.agenciatributaria.gob.es/Sede/tramites"},
	} {
		b, _ := base.Normalize(in)
		a, _ := learned.Normalize(in)
		if b != w[0] || a != w[1] {
			t.Errorf("%s: clara %q, with the host map %q; want %q, %q", in, b, a, w[0], w[1])
		}
	}

	// The same map through resolve --hostmap: sepe.es answers without a
	// redirect; the learned map keeps it, the built-in table would not.
	rargs := append([]string{"resolve"}, netArgs(t, s, dir)...)
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{nil, "https://www.sepe.es/x"},
		{[]string{"--hostmap", hostmap}, "https://sepe.es/x"},
	} {
		code, out, errOut := runNet(append(append(rargs, c.extra...), "https://sepe.es/x"), "")
		var rec resolveRecord
		if err := json.Unmarshal([]byte(out), &rec); err != nil || code != exitOK || rec.URL != c.want {
			t.Errorf("resolve %v: exit %d, %+v (%v), stderr %s; want url %s", c.extra, code, rec, err, errOut, c.want)
		}
	}
}

func TestResolveCommand(t *testing.T) {
	s := govServer(t)
	dir := t.TempDir()
	allow := filepath.Join(dir, "allow.txt")
	writeFile(t, allow, "# gov\nboe.es\n*.boe.es\n*.inclusion.gob.es\ninclusion.gob.es\nsepe.es\ndead.es\n")
	urls := filepath.Join(dir, "urls.txt")
	writeFile(t, urls, "https://inclusion.gob.es/extranjeria#requisitos\n\n# shortened\nhttps://bit.ly/evil\nhttp://0x7f.1/\n")
	args := append([]string{"resolve", "--allowlist", allow}, netArgs(t, s, dir)...)
	code, out, errOut := runNet(append(args, "https://bit.ly/abc", urls, "-", "--strict"), "https://u:p@boe.es/\nhttps://dead.es/x\n")
	if code != exitData {
		t.Errorf("exit %d, want 1 (--strict, some failed)", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []struct{ original, url, flag, kind, class string }{
		// A shortener passed through to an allowlisted page, normalized.
		{"https://bit.ly/abc", "https://www.boe.es/buscar/act.php?id=BOE-A-2023-12345", "", "", ""},
		{"https://inclusion.gob.es/extranjeria#requisitos", "https://www.inclusion.gob.es/extranjeria", "", "", ""},
		{"https://bit.ly/evil", "", "left_allowlist", "left_allowlist", "rejected"},
		{"http://0x7f.1/", "", "left_allowlist", "left_allowlist", "rejected"}, // 127.0.0.1, not on the list
		{"https://u:p@boe.es/", "", "", "credentials", "input"},
		{"https://dead.es/x", "", "", "dial", "network"},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s\nstderr:\n%s", len(lines), len(want), out, errOut)
	}
	for i, w := range want {
		var rec resolveRecord
		if err := json.Unmarshal([]byte(lines[i]), &rec); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, lines[i])
		}
		if rec.Original != w.original || rec.URL != w.url || rec.Flag != w.flag || rec.Kind != w.kind || rec.Class != w.class {
			t.Errorf("line %d: %s\nwant %+v", i+1, lines[i], w)
		}
		if (rec.Error != "") != (w.kind != "") {
			t.Errorf("line %d: error %q", i+1, rec.Error)
		}
	}
	if !strings.Contains(errOut, "6 URLs: 2 resolved, 0 flagged, 4 failed") {
		t.Errorf("stderr:\n%s", errOut)
	}
	if n := len(s.Requests("evil.example")); n != 0 {
		t.Errorf("evil.example requested %d times", n)
	}
	// The chain of the first line: bit.ly (302) → www.boe.es over http,
	// as the Location says → 200; then the https form is probed (200), so
	// the URL is stored as https.
	var first resolveRecord
	_ = json.Unmarshal([]byte(lines[0]), &first)
	if len(first.Chain) != 2 || first.Chain[0].Status != 302 || first.Chain[1].URL != "http://www.boe.es/buscar/act.php?id=BOE-A-2023-12345&utm_source=tw" ||
		first.Probe == nil || first.Probe.URL != "https://www.boe.es/buscar/act.php?id=BOE-A-2023-12345" || first.Probe.Status != 200 {
		t.Errorf("chain %+v, probe %+v", first.Chain, first.Probe)
	}
}

// With the guard on, --connect-to to loopback is refused after DNS.
func TestResolveCommandGuard(t *testing.T) {
	s := govServer(t)
	dir := t.TempDir()
	args := []string{"resolve"}
	for _, a := range netArgs(t, s, dir) {
		if a != "--allow-private" {
			args = append(args, a)
		}
	}
	code, out, _ := runNet(append(args, "https://www.boe.es/", "http://0x7f.1/", "http://2130706433/"), "")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines {
		var rec resolveRecord
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Kind != "blocked_address" || rec.Flag != "blocked_address" {
			t.Errorf("%s: %v", l, err)
		}
	}
	if code != exitOK || len(lines) != 3 {
		t.Errorf("exit %d, %d lines", code, len(lines))
	}
	if n := len(s.Requests("")); n != 0 {
		t.Errorf("%d requests reached the loopback server", n)
	}
}

func TestNetCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	writeFile(t, bad, "sede.gob.es/path\n")
	empty := filepath.Join(dir, "empty.txt")
	writeFile(t, empty, "# nothing\n")
	badmap := filepath.Join(dir, "map.json")
	writeFile(t, badmap, `{"hosts": {"a.es": "b es"}}`)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"resolve", "--allowlist", bad, "https://a.es/"}, exitUsage, "allowlist entry"},
		{[]string{"resolve", "--allowlist", empty, "https://a.es/"}, exitUsage, "the allowlist is empty"},
		{[]string{"resolve", "--allowlist", filepath.Join(dir, "missing")}, exitIO, "no such file"},
		{[]string{"resolve", filepath.Join(dir, "missing.txt")}, exitIO, "no such file"},
		{[]string{"resolve", "--profile", "nope", "https://a.es/"}, exitUsage, "unknown profile"},
		{[]string{"resolve", "--hostmap", badmap, "https://a.es/"}, exitUsage, "is not a host name"},
		{[]string{"resolve", "--max-hops", "0", "https://a.es/"}, exitUsage, "must be positive"},
		{[]string{"resolve", "--connect-to", "a.es", "https://a.es/"}, exitUsage, "HOST:PORT:ADDR:PORT"},
		{[]string{"resolve", "--cacert", bad, "https://a.es/"}, exitUsage, "no PEM certificate"},
		{[]string{"resolve", "--bogus"}, exitUsage, "--help"},
		{[]string{"learn-hosts", "a.txt", "b.txt"}, exitUsage, "one domains file"},
		{[]string{"learn-hosts", filepath.Join(dir, "missing.txt")}, exitIO, "no such file"},
	} {
		code, _, errOut := runNet(c.args, "")
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errOut, c.code, c.msg)
		}
	}
	code, out, _ := runNet([]string{"resolve", "--help"}, "")
	if code != exitOK || !strings.Contains(out, "Usage: urlnorm resolve") || !strings.Contains(out, "--allowlist") && !strings.Contains(out, "-allowlist") {
		t.Errorf("help: %d %q", code, out)
	}
}

// The JSON record keeps resolve.Result's field names.
func TestResolveRecordJSON(t *testing.T) {
	b, _ := json.Marshal(resolveRecord{Result: resolve.Result{URL: "u", Original: "o", Chain: []resolve.Hop{{URL: "o", Method: "HEAD", Status: 301, Location: "u"}}}})
	if got, want := string(b), `{"url":"u","original":"o","chain":[{"url":"o","method":"HEAD","status":301,"location":"u"}]}`; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}
