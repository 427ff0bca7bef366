package sourceconfig_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/normalize/sourceconfig"
)

// configNormalizer loads testdata/config files onto a built-in profile.
func configNormalizer(t *testing.T, base string, load func(normalize.Profile, ...sourceconfig.ConfigFile) (normalize.Profile, error), names ...string) *normalize.Normalizer {
	t.Helper()
	var paths []string
	for _, n := range names {
		paths = append(paths, filepath.Join("..", "..", "testdata", "config", n))
	}
	files, err := sourceconfig.ReadConfigFiles(paths...)
	if err != nil {
		t.Fatal(err)
	}
	b := normalize.MustLookup(base)
	p, err := load(b.Profile(), files...)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != base || !strings.HasPrefix(p.Version, b.Version()+"+config.") {
		t.Errorf("loaded profile %s %s, want name %s and version %s+config.…", p.Name, p.Version, base, b.Version())
	}
	if q, err := normalize.ParseProfile("roundtrip", p.JSON()); err != nil || string(q.JSON()) != string(p.JSON()) {
		t.Errorf("the loaded profile changes through Profile.JSON and ParseProfile:\n%s\n%s", p.JSON(), q.JSON())
	}
	n, err := normalize.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

type configCase struct{ in, want, why string }

// check runs the cases on n, and shows with the base profile that the
// configuration is what changed each output.
func check(t *testing.T, n *normalize.Normalizer, cases []configCase) {
	t.Helper()
	base := normalize.MustLookup(n.Name())
	for _, c := range cases {
		got, err := n.Normalize(c.in)
		if err != nil {
			got = "!" + normalize.KindOf(err)
		}
		if got != c.want {
			t.Errorf("%s: %q = %q, want %q", c.why, c.in, got, c.want)
		}
		if again, _ := n.Normalize(got); err == nil && again != got {
			t.Errorf("%s: not idempotent: %q → %q → %q", c.why, c.in, got, again)
		}
		if b, _ := base.Normalize(c.in); b == c.want && strings.Contains(c.why, "config:") {
			t.Errorf("%s: %q: the built-in %s gives %q too: the row shows no configuration", c.why, c.in, n.Name(), b)
		}
	}
}

// TestCuriousNowOverrides: curious-now-v0.md §3, the document's example
// file plus a mobile host (testdata/config/url_normalization_overrides.v0.json).
func TestCuriousNowOverrides(t *testing.T) {
	n := configNormalizer(t, "curiousnow-v0", sourceconfig.LoadCuriousNowOverrides, "url_normalization_overrides.v0.json")
	check(t, n, []configCase{
		{"https://example.com/news?src=rss&partner=x&id=1", "https://example.com/news?id=1", "config: drop_query_params src, partner"},
		{"https://example.com/news?SRC=rss&id=1", "https://example.com/news?id=1", "config: drop_query_params match case-insensitively like §2"},
		{"https://example.com/amp/news/story/?utm_source=x&id=1", "https://example.com/news/story?id=1", "config: rewrite_rules after base normalization"},
		{"https://example.com/amp/", "https://example.com/", "config: from_prefix ending in / matches the URL it normalizes to"},
		{"https://example.com/amp", "https://example.com/", "config: ... https://example.com/amp itself"},
		{"HTTPS://EXAMPLE.COM/amp/news#top", "https://example.com/news", "config: match.host is compared with the normalized host"},
		{"https://example.com/ampere", "https://example.com/ampere", "a prefix ending in / does not match other paths"},
		{"https://m.example.com/news?src=rss", "https://example.com/news", "config: rewritten to another host, re-normalized with its override"},
		{"https://m.example.com/amp/news", "https://example.com/news", "config: two rewrites (m. then amp/)"},
		{"https://other.com/amp/news?src=rss&ref=x", "https://other.com/amp/news?src=rss", "§3.1: no override matches, base rules apply"},
		{"https://www.example.com/amp/news", "https://www.example.com/amp/news", "§3.1: match.host is exact (v0)"},
	})
	r, err := n.Canonicalize("https://m.example.com/amp/news?src=rss")
	if err != nil {
		t.Fatal(err)
	}
	want := []normalize.Rewrite{
		{FromPrefix: "https://m.example.com/", ToPrefix: "https://example.com/"},
		{FromPrefix: "https://example.com/amp/", ToPrefix: "https://example.com/"},
	}
	if !reflect.DeepEqual(r.Rewrites, want) || r.URL != "https://example.com/news" {
		t.Errorf("Canonicalize: %q rewrites %+v, want %+v", r.URL, r.Rewrites, want)
	}
}

// TestCuriousNowFirstMatch: §3.1 "apply the first matching override".
func TestCuriousNowFirstMatch(t *testing.T) {
	p, err := sourceconfig.LoadCuriousNowOverrides(normalize.MustLookup("curiousnow-v0").Profile(), sourceconfig.ConfigFile{Name: "o.json", Data: []byte(`{"overrides": [
		{"match": {"host": "example.com"}, "drop_query_params": ["a"]},
		{"match": {"host": "EXAMPLE.com"}, "drop_query_params": ["b"]}]}`)})
	if err != nil {
		t.Fatal(err)
	}
	n, err := normalize.New(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := n.Normalize("https://example.com/?a=1&b=2"); got != "https://example.com/?b=2" {
		t.Errorf("got %q, want the first override only (b kept)", got)
	}
}

// TestEdgeGatewayYAML: edge-gateway.md "Configuration", the global file
// and the hosts file (testdata/config/edge-gateway.yaml, hosts.yaml).
func TestEdgeGatewayYAML(t *testing.T) {
	n := configNormalizer(t, "edge-gateway", sourceconfig.LoadEdgeGatewayYAML, "hosts.yaml", "edge-gateway.yaml")
	check(t, n, []configCase{
		{"https://other.com/?affiliate_id=1&tracking_src=2&utm_source=3&q=1", "https://other.com/?q=1", "config: global params_add extends the defaults"},
		{"https://other.com/?custom_param=1&campaign_id=2", "https://other.com/?campaign_id=2&custom_param=1", "host params do not apply to other hosts"},
		{"https://example.com/p?custom_param=1&affiliate_id=2&fbclid=3&q=1", "https://example.com/p?q=1", "config: host params_add adds to global"},
		{"https://example.com/api/v1?custom_param=1&utm_source=2&fbclid=3", "https://example.com/api/v1?custom_param=1&fbclid=3&utm_source=2", "config: url_rules /api/* strip: false keeps all params"},
		{"https://example.com/campaigns/x?campaign_id=1&custom_param=2&utm_medium=3&q=1", "https://example.com/campaigns/x?q=1", "config: url_rules /campaigns/* params_add accumulates"},
		{"https://example.com/p?campaign_id=1", "https://example.com/p?campaign_id=1", "URL-pattern params apply to their paths only"},
		{"https://shop.example.com/?utm_source=1&gclid=2", "https://shop.example.com/?gclid=2&utm_source=1", "config: host strip: false"},
		{"https://news.example.com/?gclid=1&gclid_x=2&GCLID=3&src_a=4&SRC_B=5&utm_source=6", "https://news.example.com/?GCLID=3&utm_source=6", "config: host params replaces; ~ case-sensitive, ~* not"},
	})
}

// TestEdgeGatewayGlobal: the three global shapes of edge-gateway.yaml in
// the document: replace the defaults, extend them, disable stripping.
func TestEdgeGatewayGlobal(t *testing.T) {
	const in = "https://example.com/?utm_id=1&gclid=2&affiliate_id=3&tracking_x=4&q=5"
	for _, c := range []struct{ yaml, want string }{
		{"tracking_params:\n  params:\n    - \"utm_*\"\n    - \"fbclid\"\n", "https://example.com/?affiliate_id=3&gclid=2&q=5&tracking_x=4"},
		{"tracking_params:\n  params_add:\n    - \"affiliate_id\"\n    - \"tracking_*\"\n", "https://example.com/?q=5&utm_id=1"},
		{"tracking_params:\n  strip: false\n", "https://example.com/?affiliate_id=3&gclid=2&q=5&tracking_x=4&utm_id=1"},
		{"hosts:\n  - domain: example.com\n    tracking_params:\n      strip: false\n    url_rules:\n      - match: [\"/a/*\", \"/\"]\n        tracking_params: {strip: true}\n", "https://example.com/?affiliate_id=3&q=5&tracking_x=4&utm_id=1"},
	} {
		p, err := sourceconfig.LoadEdgeGatewayYAML(normalize.MustLookup("edge-gateway").Profile(), sourceconfig.ConfigFile{Name: "edge-gateway.yaml", Data: []byte(c.yaml)})
		if err != nil {
			t.Fatal(err)
		}
		n, err := normalize.New(p)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := n.Normalize(in); err != nil || got != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.yaml, got, err, c.want)
		}
	}
}

// TestClaraConfig: a host map as `urlnorm learn-hosts` writes it and a
// language file (testdata/config/clara-hosts.json, clara-languages.json).
func TestClaraConfig(t *testing.T) {
	n := configNormalizer(t, "clara", sourceconfig.LoadClaraConfig, "clara-hosts.json", "clara-languages.json")
	check(t, n, []configCase{
		{"http://inclusion.gob.es/extranjeria/", "https://www.inclusion.gob.es/extranjeria", "config: Rule 5 learned mapping"},
		{"https://www.agenciatributaria.es/AEAT.sede/", "https://sede.agenciatributaria.gob.es/AEAT.sede", "config: chain www.agenciatributaria.es → agenciatributaria.es → sede.agenciatributaria.gob.es"},
		{"https://sepe.es/HomeSepe", "https://sepe.es/HomeSepe", "config: sepe.es mapped to itself removes the built-in mapping"},
		{"https://boe.es/buscar", "https://www.boe.es/buscar", "the built-in table is kept (merged)"},
		{"https://www.xunta.gal/gl/tramites", "https://www.xunta.gal/es/tramites", "config: Rule 10 on a new host"},
		{"https://www.valencia.es/val/tramits", "https://www.valencia.es/cas/tramits", "config: Rule 10, a host whose Spanish is /cas/"},
		{"https://web.gencat.cat/fr/tramits", "https://web.gencat.cat/es/tramits", "config: Rule 10, French configured for gencat"},
		{"https://euskadi.eus/tramite/eu/1", "https://euskadi.eus/tramite/es/1", "the built-in language hosts are kept (merged)"},
	})
	r, err := n.Canonicalize("https://web.gencat.cat/ca/tramits/tramit-12345")
	if err != nil {
		t.Fatal(err)
	}
	var alts []string
	for _, a := range r.Alternates {
		alts = append(alts, a.Lang+" "+a.URL)
	}
	want := []string{"ca https://web.gencat.cat/ca/tramits/tramit-12345", "en https://web.gencat.cat/en/tramits/tramit-12345", "fr https://web.gencat.cat/fr/tramits/tramit-12345"}
	if !reflect.DeepEqual(alts, want) {
		t.Errorf("alternates %q, want %q (Rule 10: French recorded as an alternate)", alts, want)
	}
}

// TestClaraConfigReplace: "replace": true replaces the sections present.
func TestClaraConfigReplace(t *testing.T) {
	p, err := sourceconfig.LoadClaraConfig(normalize.MustLookup("clara").Profile(), sourceconfig.ConfigFile{Name: "hosts.json",
		Data: []byte(`{"replace": true, "hosts": {"bücher.example": "www.bücher.example"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"xn--bcher-kva.example": "www.xn--bcher-kva.example"}; !reflect.DeepEqual(p.Host.Map, want) {
		t.Errorf("host map %v, want %v", p.Host.Map, want)
	}
	if p.Language == nil || len(p.Language.Hosts) != 2 {
		t.Errorf("language %+v: a file without a language section keeps the profile's", p.Language)
	}
}

// TestConfigVersion: the version names the configuration, not the file.
func TestConfigVersion(t *testing.T) {
	base := normalize.MustLookup("clara").Profile()
	load := func(name, data string) string {
		p, err := sourceconfig.LoadClaraConfig(base, sourceconfig.ConfigFile{Name: name, Data: []byte(data)})
		if err != nil {
			t.Fatal(err)
		}
		return p.Version
	}
	a, b, c := load("a.json", `{"hosts": {"a.es": "www.a.es"}}`), load("b.json", `{"hosts": {"a.es": "www.a.es"}}`), load("a.json", `{"hosts": {"b.es": "www.b.es"}}`)
	if a != b || a == c || !strings.HasPrefix(a, base.Version+"+config.") {
		t.Errorf("versions %q %q %q: want equal for equal contents, different otherwise", a, b, c)
	}
	if base.Version != normalize.MustLookup("clara").Version() || base.Host.Map["boe.es"] != "www.boe.es" {
		t.Error("the loader modified its base profile")
	}
}

// TestConfigErrors: malformed configuration is an ErrConfig naming the
// file and the field.
func TestConfigErrors(t *testing.T) {
	type loader func(normalize.Profile, ...sourceconfig.ConfigFile) (normalize.Profile, error)
	cn, eg, cl := sourceconfig.LoadCuriousNowOverrides, sourceconfig.LoadEdgeGatewayYAML, sourceconfig.LoadClaraConfig
	const amp = `"rewrite_rules": [{"from_prefix": "https://example.com/amp/", "to_prefix": "https://example.com/"}]`
	for _, c := range []struct {
		load        loader
		base, data  string
		field, text string
	}{
		// curious-now overrides
		{cn, "curiousnow-v0", `{"overrides": [}`, "", "line 1, column 16"},
		{cn, "curiousnow-v0", `{"overrides": []} x`, "", "trailing data"},
		{cn, "curiousnow-v0", `{"override": []}`, "override", "unknown field"},
		{cn, "curiousnow-v0", `{"overrides": {}}`, "overrides", "want a list"},
		{cn, "curiousnow-v0", `{"overrides": [{"match": {"hosts": "a.com"}}]}`, "overrides[0].match.hosts", "unknown field"},
		{cn, "curiousnow-v0", `{"overrides": [{"match": {}}]}`, "overrides[0].match.host", "required"},
		{cn, "curiousnow-v0", `{"overrides": [{"match": {"host": "a.com:8080"}}]}`, "overrides[0].match.host", "not a host name"},
		{cn, "curiousnow-v0", `{"overrides": [{"match": {"host": "a.com"}, "drop_query_params": ["ok", "~(x"]}]}`, "overrides[0].drop_query_params[1]", "bad regexp"},
		{cn, "curiousnow-v0", `{"overrides": [{"match": {"host": "a.com"}, "drop_query_params": 5}]}`, "overrides[0].drop_query_params", "want a list"},
		{cn, "curiousnow-v0", `{"overrides": [{"match": {"host": "a.com"}, "rewrite_rules": [{"from_prefix": "https://a.com/x/"}]}]}`, "overrides[0].rewrite_rules[0].to_prefix", "required"},
		{cn, "curiousnow-v0", `{"overrides": [{"match": {"host": "example.com"}, "rewrite_rules": [{"from_prefix": "https://Example.com/amp/", "to_prefix": "https://example.com/"}]}]}`, "overrides[0].rewrite_rules[0].from_prefix", "not canonical"},
		{cn, "curiousnow-v0", `{"overrides": [{"match": {"host": "example.com"}, "rewrite_rules": [{"from_prefix": "https://m.example.com/", "to_prefix": "https://example.com/"}]}]}`, "overrides[0].rewrite_rules[0].from_prefix", "not on match.host"},
		{cn, "curiousnow-v0", `{"overrides": [{"match": {"host": "example.com"}, "rewrite_rules": [{"from_prefix": "https://example.com/a/", "to_prefix": "/b/"}]}]}`, "overrides[0].rewrite_rules[0].to_prefix", "not a URL"},
		{cn, "curiousnow-v0", `{"overrides": [{"match": {"host": "example.com"}, ` + amp + `},
			{"match": {"host": "b.com"}, "rewrite_rules": [{"from_prefix": "https://b.com/", "to_prefix": "https://example.com/amp/b/"}]},
			{"match": {"host": "c.com"}, "rewrite_rules": [{"from_prefix": "https://c.com/x/", "to_prefix": "https://c.com/y/"}, {"from_prefix": "https://c.com/y/", "to_prefix": "https://c.com/x/"}]}]}`,
			"overrides[2].rewrite_rules", "cycle"},
		// edge-gateway YAML
		{eg, "edge-gateway", "tracking_params:\n  params: [\n", "", "yaml:"},
		{eg, "edge-gateway", "tracking_params:\n  param_add: [x]\n", "tracking_params.param_add", "unknown field"},
		{eg, "edge-gateway", "tracking_params:\n  params: [\"~^gclid(\"]\n", "tracking_params.params[0]", "bad regexp"},
		{eg, "edge-gateway", "tracking_params:\n  strip: \"no\"\n", "tracking_params.strip", "want true or false"},
		{eg, "edge-gateway", "tracking_params: [utm_source]\n", "tracking_params", "want an object"},
		{eg, "edge-gateway", "hosts:\n  - domain: a.com\n    tracking_params:\n      params_add: [\"~*[\"]\n", "hosts[0].tracking_params.params_add[0]", "bad regexp"},
		{eg, "edge-gateway", "hosts:\n  - id: 1\n", "hosts[0].domain", "required"},
		{eg, "edge-gateway", "hosts:\n  - domain: a.com\n  - domain: A.com.\n", "hosts[1].domain", "already configured"},
		{eg, "edge-gateway", "hosts:\n  - domain: https://a.com/\n", "hosts[0].domain", "not a host name"},
		{eg, "edge-gateway", "hosts:\n  - domain: \"[::1]:80\"\n", "hosts[0].domain", "not a host name"},
		{eg, "edge-gateway", "hosts:\n  - domain: a.com\n    url_rules:\n      - action: bypass\n", "hosts[0].url_rules[0].match", "required"},
		{eg, "edge-gateway", "hosts:\n  - domain: a.com\n    url_rules:\n      - match: api/*\n", "hosts[0].url_rules[0].match", "must start with /"},
		{eg, "edge-gateway", "hosts:\n  - domain: a.com\n    url_rules:\n      - match: \"/a/*\"\n        tracking_params: {strip: false, keep: [x]}\n", "hosts[0].url_rules[0].tracking_params.keep", "unknown field"},
		// clara
		{cl, "clara", `{"hosts": {"boe.es": "www.boe.es",}}`, "", "line 1, column 35"},
		{cl, "clara", `{"host_map": {}}`, "host_map", "unknown field"},
		{cl, "clara", `{"hosts": {"boe.es": "https://www.boe.es"}}`, "hosts.boe.es", "not a host name"},
		{cl, "clara", `{"hosts": {"a.es": "b.es", "b.es": "a.es"}}`, "hosts.a.es", "cycle"},
		{cl, "clara", `{"hosts": {"a.es": 1}}`, "hosts.a.es", "want a string"},
		{cl, "clara", `{"replace": "yes"}`, "replace", "want true or false"},
		{cl, "clara", `{"language": {"hosts": [{"host": "a.es", "languages": ["es"]}]}}`, "language.hosts[0].segment", "path segment"},
		{cl, "clara", `{"language": {"hosts": [{"host": "a.es", "segment": 0, "languages": []}]}}`, "language.hosts[0].languages", "required"},
		{cl, "clara", `{"language": {"hosts": [{"host": "a.es", "segment": 0, "languages": ["es/ca"]}]}}`, "language.hosts[0]", "not a path segment"},
		{cl, "clara", `{"language": {"hosts": [{"host": "a.es", "segment": 0, "languages": ["es"], "default": "es"}]}}`, "language.hosts[0].default", "unknown field"},
		{cl, "default", `{"language": {"hosts": [{"host": "a.es", "segment": 0, "languages": ["es"]}]}}`, "language.preferred", "required"},
	} {
		name := "conf/" + strings.ReplaceAll(c.field, ".", "_") + ".txt"
		_, err := c.load(normalize.MustLookup(c.base).Profile(), sourceconfig.ConfigFile{Name: name, Data: []byte(c.data)})
		if !errors.Is(err, normalize.ErrConfig) || normalize.KindOf(err) != "config" {
			t.Errorf("%s: err = %v, want an ErrConfig", c.data, err)
			continue
		}
		msg := err.Error()
		wantField := "(field " + c.field + ")"
		if c.field == "" {
			wantField = "config: "
		}
		if !strings.Contains(msg, fmt.Sprintf("%q", name)) || !strings.Contains(msg, wantField) || !strings.Contains(msg, c.text) {
			t.Errorf("%s:\n error %q\n want the file %q, %q and %q", c.data, msg, name, wantField, c.text)
		}
	}
	if _, err := sourceconfig.ReadConfigFiles("testdata/no-such-file.json"); !errors.Is(err, normalize.ErrConfig) || !strings.Contains(err.Error(), "no-such-file.json") {
		t.Errorf("missing file: %v, want an ErrConfig naming it", err)
	}
}

func ExampleLoadCuriousNowOverrides() {
	overrides := []byte(`{"overrides": [{
		"match": {"host": "example.com"},
		"drop_query_params": ["src", "partner"],
		"rewrite_rules": [{"from_prefix": "https://example.com/amp/", "to_prefix": "https://example.com/"}]}]}`)
	p, err := sourceconfig.LoadCuriousNowOverrides(normalize.MustLookup("curiousnow-v0").Profile(),
		sourceconfig.ConfigFile{Name: "config/url_normalization_overrides.v0.json", Data: overrides})
	if err != nil {
		fmt.Println(err)
		return
	}
	n, _ := normalize.New(p)
	u, _ := n.Normalize("https://example.com/amp/story/?src=rss&id=7&utm_source=x")
	fmt.Println(u)
	// Output: https://example.com/story?id=7
}

func ExampleLoadEdgeGatewayYAML() {
	hosts := []byte(`
hosts:
  - domain: example.com
    id: 1
    render_key: "secret-key"
    tracking_params:
      params_add: ["custom_param"]
    url_rules:
      - match: "/api/*"
        action: "bypass"
        tracking_params:
          strip: false
`)
	p, err := sourceconfig.LoadEdgeGatewayYAML(normalize.MustLookup("edge-gateway").Profile(),
		sourceconfig.ConfigFile{Name: "hosts.yaml", Data: hosts})
	if err != nil {
		fmt.Println(err)
		return
	}
	n, _ := normalize.New(p)
	for _, u := range []string{
		"https://example.com/page?custom_param=1&utm_source=x&q=2",
		"https://example.com/api/items?custom_param=1&utm_source=x&q=2",
	} {
		c, _ := n.Normalize(u)
		fmt.Println(c)
	}
	// Output:
	// https://example.com/page?q=2
	// https://example.com/api/items?custom_param=1&q=2&utm_source=x
}

func ExampleLoadClaraConfig() {
	hostMap := []byte(`{"hosts": {"inclusion.gob.es": "www.inclusion.gob.es"}}`)
	p, err := sourceconfig.LoadClaraConfig(normalize.MustLookup("clara").Profile(),
		sourceconfig.ConfigFile{Name: "clara-hosts.json", Data: hostMap})
	if err != nil {
		fmt.Println(err)
		return
	}
	n, _ := normalize.New(p)
	u, _ := n.Normalize("http://inclusion.gob.es/extranjeria/#requisitos")
	fmt.Println(u)
	// Output: https://www.inclusion.gob.es/extranjeria
}
