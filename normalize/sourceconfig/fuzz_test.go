package sourceconfig_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/normalize/sourceconfig"
	"go.yaml.in/yaml/v3"
)

// FuzzLoad checks configuration loading on documents within the schema:
// a built-in profile or one of testdata/config's files (each format),
// changed by a few mutations drawn from the fuzz input — a key of the
// schema added, replaced or deleted, a list item added, dropped or
// doubled — each value drawn from the values the fields take (hosts,
// patterns, prefixes, enum names, numbers, wrong types), and written as
// JSON or YAML. For every document:
//
//   - no panic; sourceconfig.Load either fails with an ErrConfig (kind
//     config) or returns a profile;
//
//   - that profile either fails normalize.New with an ErrConfig, or
//     compiles; it survives Profile.JSON and ParseProfile unchanged;
//
//   - its normalizer is idempotent on a few URLs made to meet its rules
//     (hosts, paths, parameters, languages, rewrites), and an error on
//     one of them is ErrInvalid or ErrLimit.
//
//     go test ./normalize/sourceconfig -run '^$' -fuzz FuzzLoad -fuzztime 15m -parallel 2
func FuzzLoad(f *testing.F) {
	docs := fuzzDocs(f)
	for i := range docs {
		f.Add(uint8(i), false, []byte{})
		f.Add(uint8(i), true, []byte{0, 1, 2, 3})
	}
	f.Fuzz(func(t *testing.T, doc uint8, asYAML bool, ops []byte) {
		var v any
		if err := json.Unmarshal(docs[int(doc)%len(docs)], &v); err != nil {
			t.Fatal(err)
		}
		s := &choices{ops}
		for range 1 + s.next(3) {
			v = s.mutate(v, 0)
		}
		name, marshal := "f.json", json.Marshal
		if asYAML {
			name, marshal = "f.yaml", yaml.Marshal
		}
		data, err := marshal(v)
		if err != nil {
			return // a value the encoder cannot write
		}
		checkLoad(t, sourceconfig.ConfigFile{Name: name, Data: data})
	})
}

// FuzzLoadBytes feeds any bytes to Load, as the CLI's --config does with
// a file: no panic, and an error is an ErrConfig.
func FuzzLoadBytes(f *testing.F) {
	for _, d := range fuzzDocs(f) {
		f.Add(d)
	}
	f.Add([]byte("hosts:\n  - domain: a.com\n    url_rules:\n      - match: [\"/a\", \"~*^/b\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLoad(t, sourceconfig.ConfigFile{Name: "f", Data: data})
	})
}

func checkLoad(t *testing.T, file sourceconfig.ConfigFile) {
	p, err := sourceconfig.Load(nil, file)
	if err != nil {
		mustConfigError(t, "Load", file, err)
		return
	}
	n, err := normalize.New(p)
	if err != nil {
		mustConfigError(t, "New", file, err)
		return
	}
	q, err := normalize.ParseProfile("roundtrip", p.JSON())
	if err != nil || string(q.JSON()) != string(p.JSON()) {
		t.Fatalf("%s\nthe profile changes through Profile.JSON and ParseProfile (%v):\n%s\n%s", file.Data, err, p.JSON(), q.JSON())
	}
	for _, u := range fuzzURLs(p) {
		out, err := n.Normalize(u)
		if err != nil {
			if !errors.Is(err, normalize.ErrInvalid) && !errors.Is(err, normalize.ErrLimit) {
				t.Fatalf("%s\nNormalize(%q): %v, want ErrInvalid or ErrLimit", file.Data, u, err)
			}
			continue
		}
		if again, err := n.Normalize(out); err != nil || again != out {
			t.Fatalf("%s\nnot idempotent: %q → %q → %q, %v", file.Data, u, out, again, err)
		}
	}
}

func mustConfigError(t *testing.T, op string, file sourceconfig.ConfigFile, err error) {
	if !errors.Is(err, normalize.ErrConfig) || normalize.KindOf(err) != "config" {
		t.Fatalf("%s\n%s: %v (kind %q), want an ErrConfig of kind config", file.Data, op, err, normalize.KindOf(err))
	}
}

// fuzzDocs returns the seed documents as JSON: the built-in profiles and
// the testdata/config files.
func fuzzDocs(f *testing.F) [][]byte {
	var docs [][]byte
	for _, name := range normalize.Names() {
		p := normalize.MustLookup(name).Profile()
		p.Name = "fuzz"
		docs = append(docs, p.JSON())
	}
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "config", "*.*"))
	for _, path := range paths {
		if strings.HasSuffix(path, ".md") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		js, err := sourceconfig.YAMLToJSON(data)
		if err != nil {
			f.Fatal(err)
		}
		docs = append(docs, js)
	}
	return docs
}

// The vocabulary of the mutations: the schema's keys (profiles and the
// three configuration formats) and the values its fields take, good and
// bad.
var (
	fuzzKeys = []string{
		"name", "version", "hash", "scheme", "allowed", "upgrade", "assume", "host", "strip_trailing_dot",
		"charset", "require_dot", "lowercase_opaque", "map", "port", "defaults", "path", "trailing_slash",
		"collapse_slashes", "empty_path_slash", "remove_params", "percent", "uppercase_hex",
		"decode_unreserved", "encode_stray", "query", "order", "drop_empty", "drop_empty_pairs",
		"bare_empty_value", "form_encoding", "remove", "keep", "reason", "patterns", "fragment", "hosts",
		"tracking", "params", "params_add", "strip", "paths", "match", "rewrite", "from_prefix",
		"to_prefix", "pagination", "language", "preferred", "segment", "languages", "limits",
		"max_length", "max_params", "overrides", "drop_query_params", "rewrite_rules",
		"tracking_params", "domain", "url_rules", "action", "replace", "a.com", "example.com",
	}
	fuzzHosts   = []string{"a.com", "example.com", "m.example.com", "A.COM.", "xn--bcher-kva.de", "bücher.de", "web.gencat.cat", "127.0.0.1", "[::1]"}
	fuzzStrings = append(slices.Clone(fuzzHosts),
		"", "x", "https://a.com/", "https://a.com/x/", "https://example.com/amp/", "https://example.com/", "http://a.com",
		"https://m.example.com/", "https://a.com/es/", "/api/*", "/*", "/a", "*", "~^gclid.*", "~*^src_", "~(", `~*\w{1,1000}`,
		"utm_*", "fbclid", "page", "sid", "jsessionid", "es", "ca", "es/ca", "sha256", "xxhash64", "remove",
		"remove_except_root", "keep", "key", "pair", "key_value", "dns", "rfc3986", "whatwg", "http", "https",
		"ftp", "sc", "tracking", "session", "fuzz", "1.0.0", strings.Repeat("a*", 300))
	fuzzNumbers = []any{0.0, 1.0, -1.0, 2.0, 80.0, 443.0, 65536.0, 1e10, 3.5}
)

// choices draws the mutations from the fuzz input.
type choices struct{ b []byte }

// next returns a number in [0, n); 0 once the input is used up.
func (s *choices) next(n int) int {
	if len(s.b) == 0 || n <= 1 {
		return 0
	}
	v := int(s.b[0]) % n
	s.b = s.b[1:]
	return v
}

// mutate changes v at a node below it: in an object, a key is descended
// into (most often: the document stays mostly within the schema),
// deleted or set; in a list, an item is descended into, dropped, doubled
// or added; a scalar is replaced, most often by one of its kind.
func (s *choices) mutate(v any, depth int) any {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		op := s.next(10)
		if op == 7 && depth == 0 {
			op = 0 // the top-level keys tell the format: keep them
		}
		switch {
		case op < 7 && len(keys) > 0:
			k := keys[s.next(len(keys))]
			t[k] = s.mutate(t[k], depth+1)
		case op == 7 && len(keys) > 0:
			delete(t, keys[s.next(len(keys))])
		case op == 8 && len(keys) > 0:
			t[keys[s.next(len(keys))]] = s.value(depth + 1)
		default:
			t[fuzzKeys[s.next(len(fuzzKeys))]] = s.value(depth + 1)
		}
		return t
	case []any:
		switch op := s.next(5); {
		case op < 2 && len(t) > 0:
			i := s.next(len(t))
			t[i] = s.mutate(t[i], depth+1)
		case op == 2 && len(t) > 0:
			i := s.next(len(t))
			t = append(t[:i], t[i+1:]...)
		case op == 3 && len(t) > 0:
			t = append(t, t[s.next(len(t))])
		case len(t) > 0: // an item of the kind the list has
			t = append(t, s.mutate(t[s.next(len(t))], depth+1))
		default:
			t = append(t, s.value(depth+1))
		}
		return t
	}
	if depth == 0 {
		return v
	}
	if s.next(6) > 0 {
		switch v.(type) {
		case string:
			return fuzzStrings[s.next(len(fuzzStrings))]
		case float64:
			return fuzzNumbers[s.next(len(fuzzNumbers))]
		case bool:
			return s.next(2) == 1
		}
	}
	return s.value(depth)
}

// value returns a value of the vocabulary: mostly strings, sometimes a
// number, a boolean, null, a list or an object.
func (s *choices) value(depth int) any {
	switch s.next(10) {
	case 0:
		return fuzzNumbers[s.next(len(fuzzNumbers))]
	case 1:
		return s.next(2) == 1
	case 2:
		return nil
	case 3, 4:
		if depth < 3 {
			l := []any{}
			for range s.next(4) {
				l = append(l, s.value(depth+1))
			}
			return l
		}
	case 5:
		if depth < 3 {
			m := map[string]any{}
			for range s.next(4) {
				m[fuzzKeys[s.next(len(fuzzKeys))]] = s.value(depth + 1)
			}
			return m
		}
	}
	return fuzzStrings[s.next(len(fuzzStrings))]
}

// fuzzURLs returns URLs that meet p's rules: on its hosts and language
// hosts, with its rewrites' prefixes, and parameters its lists name.
func fuzzURLs(p normalize.Profile) []string {
	const tail = "amp/x/;jsessionid=1;sid=2/?utm_source=a&gclid=1&page=2&src_x=3&q=1&&b=%7e&a=#f"
	urls := []string{"HTTP://A.COM:80/es/" + tail, "https://example.com/amp/news/?src=rss&id=1", "mailto:x", "sc://H/%41?b&a", "https://web.gencat.cat/ca/x"}
	for _, h := range p.Hosts {
		urls = append(urls, "https://"+h.Host+"/"+tail, "http://"+h.Host+"/api/v1?custom_param=1")
		for _, r := range h.Rewrite {
			urls = append(urls, r.FromPrefix+"es/"+tail, r.ToPrefix)
		}
	}
	if p.Language != nil {
		for _, h := range p.Language.Hosts {
			urls = append(urls, "https://"+h.Host+strings.Repeat("/ca", min(h.Segment, 8)+1)+"/"+tail)
		}
	}
	return urls
}
