package udf

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/sqltype"

	"github.com/urlnorm/urlnorm/normalize"
)

// The parts functions in Text form (SQLite's): one row per rule of
// docs/sql.md. want "NULL" is a NULL result, "!kind" an error.
func TestPartsText(t *testing.T) {
	for _, c := range []struct {
		fn   string
		args []string
		want string
	}{
		{"url_host", []string{"HTTP://WWW.Example.COM:8080/"}, "www.example.com"},                                // issue 13's example
		{"url_registrable_domain", []string{"https://a.b.example.co.uk/x"}, "example.co.uk"},                     // issue 13's example
		{"url_registrable_domain", []string{"http://192.168.0.1/"}, "NULL"},                                      // issue 13: an IP host has none
		{"url_public_suffix", []string{"https://a.b.example.co.uk/x"}, "co.uk"},                                  // two-label suffix
		{"url_subdomain", []string{"https://a.b.example.co.uk/x"}, "a.b"},                                        // the rest
		{"url_subdomain", []string{"https://example.co.uk/x"}, "NULL"},                                           // no subdomain: NULL, not ''
		{"url_registrable_domain", []string{"https://alice.github.io/"}, "alice.github.io"},                      // private section by default
		{"url_registrable_domain_icann", []string{"https://alice.github.io/"}, "github.io"},                      // ICANN only
		{"url_subdomain_icann", []string{"https://alice.github.io/"}, "alice"},                                   // ICANN only
		{"url_public_suffix_icann", []string{"https://alice.github.io/"}, "io"},                                  // ICANN only
		{"url_scheme", []string{"HTTP://example.com/"}, "http"},                                                  // lowercase
		{"url_port", []string{"https://example.com:8443/"}, "8443"},                                              // explicit
		{"url_port", []string{"https://example.com:443/"}, "NULL"},                                               // the default: NULL
		{"url_path", []string{"https://example.com/a/./b/../c?x"}, "/a/c"},                                       // dot segments resolved
		{"url_query", []string{"https://example.com/"}, "NULL"},                                                  // no query
		{"url_query", []string{"https://example.com/?"}, ""},                                                     // an empty query is a query
		{"url_fragment", []string{"https://example.com/#top"}, "top"},                                            // without '#'
		{"url_host", []string{"mailto:a@example.com"}, "NULL"},                                                   // no host
		{"url_host", []string{"file:///etc/hosts"}, ""},                                                          // the empty host
		{"url_extension", []string{"https://example.com/a/report.tar.gz?x=1"}, "gz"},                             // last dot of the last segment
		{"url_extension", []string{"https://example.com/a/"}, "NULL"},                                            // none
		{"url_path_segments", []string{"https://example.com/a/b/"}, `["a","b",""]`},                              // the URL Standard's list
		{"url_path_segments", []string{"mailto:x@y.z"}, "NULL"},                                                  // an opaque path
		{"url_query_param", []string{"https://e.com/?q=caf%C3%A9+au+lait", "q"}, "café au lait"},                 // form-decoded
		{"url_query_param", []string{"https://e.com/?q=1", "x"}, "NULL"},                                         // absent
		{"url_query_param", []string{"https://e.com/?utm_source=x&id=7", "utm_source", "curiousnow-v0"}, "NULL"}, // the profile removed it
		{"url_query_params", []string{"https://e.com/?a=1&b=2&a=3"}, `{"a":["1","3"],"b":["2"]}`},                // repeated names keep every value
		{"url_query_params", []string{"https://e.com/?"}, `{}`},                                                  // an empty query
		{"url_query_params", []string{"https://e.com/"}, "NULL"},                                                 // no query
		{"parse_url", []string{"HTTPS://user@www.Example.co.uk:8443/a/b.html?q=1#top"},
			`{"scheme":"https","username":"user","password":null,"host":"www.example.co.uk","host_type":"domain","port":8443,` +
				`"path":"/a/b.html","query":"q=1","fragment":"top","registrable_domain":"example.co.uk","public_suffix":"co.uk","subdomain":"www"}`}, // every key
		{"parse_url", []string{"http://sepe.es/HomeSepe/?utm_source=x", "clara"},
			`{"scheme":"https","username":null,"password":null,"host":"www.sepe.es","host_type":"domain","port":null,` +
				`"path":"/HomeSepe","query":null,"fragment":null,"registrable_domain":"sepe.es","public_suffix":"es","subdomain":"www"}`}, // clara's canonical URL
		{"url_host", []string{"www.example.com/page"}, "!missing_scheme"},                  // the parser's error
		{"url_host", []string{"www.example.com/page", "default+https"}, "www.example.com"}, // scheme-less with NAME+https
		{"try_url_host", []string{"www.example.com/page"}, "NULL"},                         // try_
		{"try_url_host", []string{"https://a.b/", "nosuch"}, "!unknown_profile"},           // an unknown profile raises in try_ too
		{"is_valid_url", []string{"https://exa mple.com/"}, "false"},                       // never raises
		{"is_valid_url", []string{"https://example.com/"}, "true"},                         // accepted
		{"is_valid_url", []string{"example.com/page", "edge-gateway"}, "true"},             // the profile's rules
		{"is_valid_url", []string{"example.com/page", "nosuch"}, "!unknown_profile"},       // a query bug still raises
	} {
		got, null, err := overload(t, c.fn, len(c.args)).Text(nil, c.args, nil)
		s := string(got)
		switch {
		case err != nil:
			s = "!" + normalize.KindOf(err)
		case null:
			s = "NULL"
		}
		if s != c.want {
			t.Errorf("%s%q = %s, want %s (err %v)", c.fn, c.args, s, c.want, err)
		}
	}
}

// Values (DuckDB's forms): INTEGER an int64, BOOLEAN a bool, LIST []any,
// MAP []Entry of string keys and []any values, STRUCT []any; none aliases
// the pooled parser's buffer.
func TestPartsValue(t *testing.T) {
	v, err := overload(t, "url_port", 1).Value([]string{"http://e.com:8080/"}, nil)
	if err != nil || v != int64(8080) {
		t.Errorf("url_port = %#v, %v", v, err)
	}
	v, _ = overload(t, "is_valid_url", 1).Value([]string{"http://e.com/"}, nil)
	if v != true {
		t.Errorf("is_valid_url = %#v", v)
	}
	m, _ := overload(t, "url_query_params", 1).Value([]string{"https://e.com/?a=1&b=2&a=3"}, nil)
	segs, _ := overload(t, "url_path_segments", 1).Value([]string{"https://e.com/x/y"}, nil)
	// parse other URLs through the same pool: the values must not change
	for i := 0; i < 10; i++ {
		overload(t, "parse_url", 1).Value([]string{"https://zzzzzzzzzzzzzz.example/zzzz/zzzz?zz=zz&zz=zz"}, nil)
	}
	es, ok := m.([]Entry)
	if !ok || len(es) != 2 || es[0].Key != "a" || len(es[0].Value.([]any)) != 2 || es[0].Value.([]any)[1] != "3" || es[1].Key != "b" {
		t.Errorf("url_query_params = %#v", m)
	}
	if l, ok := segs.([]any); !ok || len(l) != 2 || l[0] != "x" || l[1] != "y" {
		t.Errorf("url_path_segments = %#v", segs)
	}
}

// urlnorm_load_profile: by path and by text, JSON and YAML, a profile or a
// configuration file; same content again is a no-op, different content
// raises; errors name the file and the field. It runs in a child process:
// loaded profiles are process-wide and would show in the other tests'
// lists of known profiles.
func TestLoadProfile(t *testing.T) {
	if os.Getenv("URLNORM_UDF_LOAD_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestLoadProfile$", "-test.count", "1")
		cmd.Env = append(os.Environ(), "URLNORM_UDF_LOAD_CHILD=1")
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "PASS") {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	load := overload(t, "urlnorm_load_profile", 2)
	if !load.Volatile || !load.NoTry || Overload("try_urlnorm_load_profile", 2) != nil {
		t.Fatal("urlnorm_load_profile must be volatile, without a try_ twin")
	}
	dir := t.TempDir()
	yaml := filepath.Join(dir, "news.yaml")
	os.WriteFile(yaml, []byte("name: news\nversion: 2.0.0\nhash: sha256\npath: {trailing_slash: remove}\nfragment: {remove: true}\n"), 0o644)
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: bad\nversion: \"1\"\nhash: sha256\nquery: {order: sorted}\n"), 0o644)
	for _, c := range []struct{ name, arg, want string }{
		{"ut-news", yaml, "2.0.0"}, // a profile file by path
		{"ut-news", yaml, "2.0.0"}, // again: a no-op
		{"ut-news", "name: other\nversion: 2.0.0\nhash: sha256\npath: {trailing_slash: remove}\nfragment: {remove: true}\n", "2.0.0"}, // the same profile as text: still a no-op
		{"ut-news", `{"name": "news", "version": "3", "hash": "sha256"}`, "!config"},                                                  // different content under the name
		{"ut-gw", `{"tracking_params": {"params_add": ["ref2"]}}`, "1.0.2+config."},                                                   // an Edge Gateway configuration as text
		{"default", `{"name": "d", "version": "1", "hash": "sha256"}`, "!config"},                                                     // a built-in name
		{"ut-bad", bad, "!config"},                                 // a bad field
		{"ut-missing", filepath.Join(dir, "nope.yaml"), "!config"}, // no such file
	} {
		out, null, err := load.Text(nil, []string{c.name, c.arg}, nil)
		got := string(out)
		if err != nil {
			got = "!" + normalize.KindOf(err)
		}
		if null || !strings.HasPrefix(got, c.want) {
			t.Errorf("urlnorm_load_profile(%q, %q) = %q (%v), want %q", c.name, c.arg, got, err, c.want)
		}
	}
	if got, _ := normalize.MustLookup("ut-news").Normalize("HTTP://E.com/a/#x"); got != "http://e.com/a" {
		t.Errorf("ut-news: %q", got)
	}
	if got, _ := normalize.MustLookup("ut-gw").Normalize("example.com/?ref2=1&b=2"); got != "https://example.com/?b=2" {
		t.Errorf("ut-gw: %q", got)
	}
	_, _, err := load.Text(nil, []string{"ut-bad", bad}, nil)
	if msg := err.Error(); !strings.Contains(msg, "bad.yaml") || !strings.Contains(msg, "query.order") {
		t.Errorf("error does not name the file and the field: %s", msg)
	}
	_, _, err = load.Text(nil, []string{"ut-news", `{"name": "news", "version": "3", "hash": "sha256"}`}, nil)
	if !errors.Is(err, normalize.ErrConfig) || !strings.Contains(err.Error(), "already loaded") {
		t.Errorf("redefinition error: %v", err)
	}
}

// url_query_params groups the pairs by name, in the order of each name's
// first pair, the values in order: the same answer with few pairs (a
// scan) and many (a map), checked against a plain grouping for random
// queries over a few names.
func TestQueryParamsGrouping(t *testing.T) {
	f := overload(t, "url_query_params", 1)
	rnd := rand.New(rand.NewPCG(1, 2))
	for n := range 60 {
		var q []string
		var names []string
		values := map[string][]any{}
		for i := range n {
			name := string(rune('a' + rnd.IntN(1+n/3)))
			q = append(q, name+"="+strconv.Itoa(i))
			if _, ok := values[name]; !ok {
				names = append(names, name)
			}
			values[name] = append(values[name], strconv.Itoa(i))
		}
		want := []sqltype.Entry{}
		for _, name := range names {
			want = append(want, sqltype.Entry{Key: name, Value: values[name]})
		}
		url := "https://e.com/?" + strings.Join(q, "&")
		got, err := f.Value([]string{url}, nil)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%d pairs: url_query_params(%q) = %#v, %v; want %#v", n, url, got, err, want)
		}
	}
}

// BenchmarkPartRows is a row of a part function as the hosts without a
// column builder take it, next to normalize_url's: Text (SQLite's JSON of
// a LIST or STRUCT) and Value (the boxed form embedded DuckDB sets), over
// the shipped web URLs:
//
//	go test ./udf -run '^$' -bench PartRows -benchmem
func BenchmarkPartRows(b *testing.B) {
	data, err := os.ReadFile("../testdata/urls/kasztp.txt")
	if err != nil {
		b.Fatal(err)
	}
	urls := strings.Fields(string(data))
	nulls := []bool{false}
	for _, name := range []string{"normalize_url", "url_host", "url_path_segments", "parse_url"} {
		f := Overload(name, 1)
		b.Run("Text/"+name, func(b *testing.B) {
			var dst []byte
			for i := 0; b.Loop(); i++ {
				dst, _, _ = f.Text(dst[:0], urls[i%len(urls):][:1], nulls)
			}
		})
		b.Run("Value/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				_, _ = f.Value(urls[i%len(urls):][:1], nulls)
			}
		})
	}
}

// A host's Scratch, reused across rows of every part function, gives each
// row exactly what Text (a pooled parser per row) gives, whatever the row
// before left in its parser: rows whose URL is the input itself (the
// parser aliases it) alternate with rows it must rewrite, rows it
// rejects, NULL rows and profile overloads. And the Scratch is the one
// used: a part left it zero only if it took a parser from the pool.
func TestScratchReusedAcrossRows(t *testing.T) {
	urls := []string{"https://example.com/a/b.html?q=1#f", "HTTP://WWW.Example.COM:80/a/../b/?b=2&a=1", "not a url",
		"https://[::1]:8443/x", "http://sepe.es/HomeSepe/?utm_source=x", "mailto:a@example.com", "https://é.example/%zz?",
		"https://example.com/a/b.html?q=1#f", "https://null.example/"}
	isPart := map[string]bool{"url_query_param": true, "is_valid_url": true}
	for _, p := range partFuncs() {
		isPart[p.name] = true
	}
	parts := 0
	for _, f := range Funcs {
		if !isPart[strings.TrimPrefix(f.Name, "try_")] {
			continue
		}
		parts++
		var s Scratch
		for i, u := range urls {
			args := []string{u}
			for _, a := range f.Args[1:] {
				args = append(args, map[bool]string{true: "clara", false: "q"}[a.Profile]) // a profile, or url_query_param's name
			}
			nulls := make([]bool, len(args))
			nulls[0] = i == len(urls)-1 // a NULL row
			want, wantNull, wantErr := f.Text(nil, args, nulls)
			got, gotNull, gotErr := f.TextUnguarded(&s, nil, args, nulls)
			if string(got) != string(want) || gotNull != wantNull || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("%s%q with a reused Scratch: %q %v %v; Text: %q %v %v", f.Name, args, got, gotNull, gotErr, want, wantNull, wantErr)
			}
		}
		if reflect.ValueOf(s).IsZero() {
			t.Errorf("%s/%d did not parse with the host's Scratch", f.Name, len(f.Args))
		}
	}
	if parts < 70 {
		t.Errorf("%d part functions compared, want every overload and try_ twin (74)", parts)
	}
}
