package normalize_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestProfileErrors: a bad profile is refused by New and by Validate with
// the same error (one code path), an ErrConfig naming the field and why.
func TestProfileErrors(t *testing.T) {
	no := false
	for _, c := range []struct {
		field, why string
		edit       func(p *normalize.Profile)
	}{
		{"name", "must match", func(p *normalize.Profile) { p.Name = "Mine" }},        // lowercase names only
		{"version", "missing version", func(p *normalize.Profile) { p.Version = "" }}, // every profile is versioned
		{"scheme.allowed", "not a scheme", func(p *normalize.Profile) { p.Scheme.Allowed = []string{"ht tp"} }},
		{"scheme.upgrade", "mixes special", func(p *normalize.Profile) { p.Scheme.Upgrade = map[string]string{"http": "sc"} }},
		{"scheme.upgrade", "also an upgrade target", func(p *normalize.Profile) { p.Scheme.Upgrade = map[string]string{"ws": "http", "http": "https"} }},
		{"scheme.upgrade", "not in scheme.allowed", func(p *normalize.Profile) { // its output would be refused (FuzzLoad)
			p.Scheme.Allowed, p.Scheme.Upgrade = []string{"http"}, map[string]string{"http": "https"}
		}},
		{"scheme.assume", "special scheme with a host", func(p *normalize.Profile) { p.Scheme.Assume = "file" }},
		{"host.charset", "unknown charset", func(p *normalize.Profile) { p.Host.Charset = "ascii" }},
		{"host.map", "lowercase", func(p *normalize.Profile) { p.Host.Map = map[string]string{"A.com": "a.com"} }},
		{"host.map", "chains are not allowed", func(p *normalize.Profile) { p.Host.Map = map[string]string{"a.com": "b.com", "b.com": "c.com"} }},
		{"host.map", "outside host.charset dns", func(p *normalize.Profile) { // FuzzLoad: the output was refused
			p.Host.Charset, p.Host.Map = normalize.CharsetDNS, map[string]string{"a.com": "utm_*"}
		}},
		{"host.map", "not a host in canonical form", func(p *normalize.Profile) { p.Host.Map = map[string]string{"a.com": "b.com:8080"} }},
		{"host.strip_www", "unknown value", func(p *normalize.Profile) { p.Host.StripWWW = "yes" }},
		{"host.map", "makes the target", func(p *normalize.Profile) { // the next pass would strip it
			p.Host.StripWWW, p.Host.Map = normalize.StripWWWLabel, map[string]string{"a.com": "www.b.com"}
		}},
		{"host.map", "never applies", func(p *normalize.Profile) {
			p.Host.StripWWW, p.Host.Map = normalize.StripWWWLabel, map[string]string{"www.a.com": "b.com"}
		}},
		{"port.defaults", "out of range", func(p *normalize.Profile) { p.Port.Defaults = map[string]int{"sc": 70000} }},
		{"path.keep_scheme_slashes", "needs path.collapse_slashes", func(p *normalize.Profile) { p.Path.KeepSchemeSlashes = true }},
		{"path.remove_lone_root", "contradicts", func(p *normalize.Profile) { p.Path.RemoveLoneRoot, p.Path.EmptyPathSlash = true, true }},
		{"path.remove_cookieless", "bad regexp", func(p *normalize.Profile) {
			p.Path.RemoveCookieless = []normalize.ParamGroup{{Reason: "session", Patterns: []string{"~("}}}
		}},
		{"query.explicit_empty_value", "contradicts", func(p *normalize.Profile) { p.Query.ExplicitEmptyValue, p.Query.BareEmptyValue = true, true }},
		{"query.form_raw", "need query.form_encoding", func(p *normalize.Profile) { p.Query.FormEncoding, p.Query.FormRaw = false, "/" }},
		{"query.form_raw", "'&' cannot be written raw", func(p *normalize.Profile) { p.Query.FormEncoding, p.Query.FormRaw = true, "/&" }},
		{"query.form_space", "unknown value", func(p *normalize.Profile) { p.Query.FormEncoding, p.Query.FormSpace = true, "_" }},
		{"query.sort_decoded", "needs query.order", func(p *normalize.Profile) { p.Query.Order, p.Query.SortDecoded = normalize.OrderPair, true }},
		{"path.trailing_slash", "unknown value", func(p *normalize.Profile) { p.Path.TrailingSlash = "strip" }},
		{"path.remove_params", "bad regexp", func(p *normalize.Profile) { // path groups are named as such
			p.Path.RemoveParams = []normalize.ParamGroup{{Reason: "session", Patterns: []string{"~("}}}
		}},
		{"query.order", "unknown value", func(p *normalize.Profile) { p.Query.Order = "random" }},
		{"query.remove", "no reason", func(p *normalize.Profile) { p.Query.Remove = []normalize.ParamGroup{{Patterns: []string{"x"}}} }},
		{"query.remove", "empty pattern", func(p *normalize.Profile) {
			p.Query.Remove = []normalize.ParamGroup{{Reason: "x", Patterns: []string{""}}}
		}},
		{"query.keep", "bad regexp", func(p *normalize.Profile) { p.Query.Keep = []string{"~*["} }},
		{"hash", "unknown hash", func(p *normalize.Profile) { p.Hash = "md5" }},
		{"hash", "missing hash (want sha256 or xxhash64)", func(p *normalize.Profile) { p.Hash = "" }}, // a custom profile must choose its key's hash
		{"limits", "negative", func(p *normalize.Profile) { p.Limits.MaxParams = -1 }},
		{"hosts[1].host", "listed twice", func(p *normalize.Profile) { p.Hosts = []normalize.HostRule{{Host: "a.com"}, {Host: "a.com"}} }},
		{"hosts[0].tracking", "bad regexp", func(p *normalize.Profile) { // checked even where removal is off
			p.Hosts = []normalize.HostRule{{Host: "a.com", Tracking: &normalize.ParamSet{Strip: &no, ParamsAdd: []string{"~("}}}}
		}},
		{"hosts[0].paths[0].match", "must start with /", func(p *normalize.Profile) {
			p.Hosts = []normalize.HostRule{{Host: "a.com", Paths: []normalize.PathRule{{Match: "api/*"}}}}
		}},
		{"hosts[0].rewrite[0]", "required", func(p *normalize.Profile) {
			p.Hosts = []normalize.HostRule{{Host: "a.com", Rewrite: []normalize.Rewrite{{FromPrefix: "https://a.com/"}}}}
		}},
		{"hosts[0].rewrite[0]", "cycle", func(p *normalize.Profile) { // compiling runs the rules to a fixed point
			p.Hosts = []normalize.HostRule{{Host: "a.com", Rewrite: []normalize.Rewrite{
				{FromPrefix: "https://a.com/x/", ToPrefix: "https://a.com/y/"}, {FromPrefix: "https://a.com/y/", ToPrefix: "https://a.com/x/"}}}}
		}},
		{"pagination.params", "empty pattern", func(p *normalize.Profile) { p.Pagination = &normalize.Pagination{Params: []string{""}} }},
		{"language.preferred", "missing", func(p *normalize.Profile) { p.Language = &normalize.Language{} }},
		{"hosts[0].host", "never applies", func(p *normalize.Profile) {
			p.Host.StripWWW, p.Hosts = normalize.StripWWWDigits, []normalize.HostRule{{Host: "www2.a.com"}}
		}},
		{"language.hosts[0]", "capitals", func(p *normalize.Profile) { // path.lowercase would hide them from the next pass
			p.Path.Lowercase = true
			p.Language = &normalize.Language{Preferred: "es", Hosts: []normalize.LanguageHost{{Host: "a.es", Languages: []string{"CA"}}}}
		}},
		{"language.preferred", "capitals", func(p *normalize.Profile) { // review15: "/en/" → "/pt-BR/" → "/pt-br/" (not idempotent)
			p.Path.Lowercase = true
			p.Language = &normalize.Language{Preferred: "pt-BR", Hosts: []normalize.LanguageHost{{Host: "a.es", Languages: []string{"en"}}}}
		}},
		{"language.hosts[0]", "not a path segment", func(p *normalize.Profile) {
			p.Language = &normalize.Language{Preferred: "es", Hosts: []normalize.LanguageHost{{Host: "a.es", Languages: []string{"es/ca"}}}}
		}},
		{"language.hosts[0]", "not a path segment", func(p *normalize.Profile) { // a dot segment would be resolved
			p.Language = &normalize.Language{Preferred: "es", Hosts: []normalize.LanguageHost{{Host: "a.es", Languages: []string{".."}}}}
		}},
		{"language.preferred", "not a path segment", func(p *normalize.Profile) { // FuzzLoad: "es/ca" made two segments
			p.Language = &normalize.Language{Preferred: "es/ca", Hosts: []normalize.LanguageHost{{Host: "a.es", Languages: []string{"ca"}}}}
		}},
	} {
		p := normalize.MustLookup("default").Profile()
		p.Name = "mine"
		c.edit(&p)
		_, err := normalize.New(p)
		verr := p.Validate()
		if !errors.Is(err, normalize.ErrConfig) || !strings.Contains(err.Error(), "(field "+c.field+")") || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s: New: %v; want an ErrConfig naming the field and saying %q", c.field, err, c.why)
		}
		if verr == nil || verr.Error() != err.Error() {
			t.Errorf("%s: Validate %v, New %v: want the same error", c.field, verr, err)
		}
	}
}
