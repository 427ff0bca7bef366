package sourceconfig

import (
	"encoding/json"

	"github.com/urlnorm/urlnorm/normalize"
)

// LoadEdgeGatewayYAML loads Edge Gateway's tracking-parameter configuration
// (edge-gateway.md "Configuration") on top of base, normally the built-in
// edge-gateway profile. The files are YAML (or JSON) in the shapes of
// edge-gateway.yaml and hosts.yaml:
//
//	tracking_params:            # global: edge-gateway.yaml
//	  params_add: ["affiliate_id", "tracking_*"]
//	hosts:                      # per host: hosts.yaml
//	  - domain: example.com
//	    tracking_params:
//	      params_add: ["custom_param"]
//	    url_rules:
//	      - match: "/api/*"
//	        tracking_params: {strip: false}
//
// A tracking_params block has three keys: params replaces the inherited
// list, params_add extends it, strip: false disables removal. Levels
// inherit down global → host → URL pattern: the patterns accumulate and
// strip carries over until a level sets it again. Patterns are exact
// names and "*" wildcards (case-insensitive), "~" regexps (case-sensitive)
// and "~*" regexps (case-insensitive). A url_rules match is a glob on the
// path ("/api/*", case-sensitive), a "~"/"~*" regexp, or a list of them;
// the first matching rule of a host wins, and a rule without
// tracking_params keeps the host's list for its paths.
//
// The files carry the rest of the gateway's configuration too: other
// top-level keys, other keys of a hosts entry (id, render_key, render …)
// and of a url_rules entry (action …) are ignored, but an unknown key
// inside tracking_params is an error. A domain may be listed once. The
// global block is applied first, whatever the order of the files. The
// result keeps base's name; its version is base's with the files'
// fingerprint.
func LoadEdgeGatewayYAML(base normalize.Profile, files ...ConfigFile) (normalize.Profile, error) {
	return applyConfig(base, files, loadEdgeGateway)
}

// edgeDoc is one file read as JSON.
type edgeDoc struct {
	c   cfg
	top map[string]json.RawMessage
}

func loadEdgeGateway(p *normalize.Profile, files []ConfigFile) error {
	var docs []edgeDoc
	global := p.Query.Tracking()
	for _, f := range files {
		c := cfg{f.Name}
		js, err := YAMLToJSON(f.Data)
		if err != nil {
			return c.fail("", err)
		}
		top, err := c.object("", js)
		if err != nil {
			return err
		}
		if global, err = c.inherit("", top, global); err != nil {
			return err
		}
		docs = append(docs, edgeDoc{c, top})
	}
	p.Query.Remove = global.Groups(p.Query.Remove)
	seen := map[string]string{}
	for _, h := range p.Hosts {
		seen[h.Host] = "the base profile"
	}
	for _, d := range docs {
		hosts, err := d.c.list("hosts", d.top["hosts"])
		if err != nil {
			return err
		}
		for i, raw := range hosts {
			rules, err := d.c.hostEntry(index("hosts", i), raw, p, global, seen)
			if err != nil {
				return err
			}
			p.Hosts = append(p.Hosts, rules...)
		}
	}
	return nil
}

// hostEntry reads one hosts: entry; it returns one rule per domain.
func (c cfg) hostEntry(field string, raw json.RawMessage, p *normalize.Profile, global normalize.Tracking, seen map[string]string) ([]normalize.HostRule, error) {
	m, err := c.object(field, raw)
	if err != nil {
		return nil, err
	}
	var domains []string
	names, err := c.required(join(field, "domain"), m["domain"])
	if err != nil {
		return nil, err
	}
	for j, name := range names {
		df := item(join(field, "domain"), j, len(names))
		b, _ := json.Marshal(name)
		h, err := c.host(df, b, p)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[h]; dup {
			return nil, c.failf(df, "domain %q is already configured in %s", h, prev)
		}
		seen[h] = c.file + " " + df
		domains = append(domains, h)
	}
	ht, err := c.inherit(field, m, global)
	if err != nil {
		return nil, err
	}
	urlRules, err := c.list(join(field, "url_rules"), m["url_rules"])
	if err != nil {
		return nil, err
	}
	var paths []normalize.PathRule
	for j, raw := range urlRules {
		rf := index(join(field, "url_rules"), j)
		rm, err := c.object(rf, raw)
		if err != nil {
			return nil, err
		}
		matches, err := c.required(join(rf, "match"), rm["match"])
		if err != nil {
			return nil, err
		}
		rt, err := c.inherit(rf, rm, ht)
		if err != nil {
			return nil, err
		}
		for k, match := range matches {
			if err := normalize.CheckPathMatch(match); err != nil {
				return nil, c.fail(item(join(rf, "match"), k, len(matches)), err)
			}
			paths = append(paths, normalize.PathRule{Match: match, Tracking: paramSetOf(rt)})
		}
	}
	rules := make([]normalize.HostRule, 0, len(domains))
	for _, d := range domains {
		rules = append(rules, normalize.HostRule{Host: d, Tracking: paramSetOf(ht), Paths: paths})
	}
	return rules, nil
}

// inherit returns parent changed by the tracking_params block of the
// object m, if it has one (one level of global → host → URL pattern).
func (c cfg) inherit(field string, m map[string]json.RawMessage, parent normalize.Tracking) (normalize.Tracking, error) {
	raw, ok := m["tracking_params"]
	if !ok {
		return parent, nil
	}
	set, err := c.paramSet(join(field, "tracking_params"), raw)
	if err != nil {
		return parent, err
	}
	return parent.With(set), nil
}

// required reads a non-empty string or list of strings.
func (c cfg) required(field string, raw json.RawMessage) ([]string, error) {
	l, err := c.strs(field, raw)
	if err == nil && len(l) == 0 {
		err = c.failf(field, "required")
	}
	return l, err
}

// item names element i of a value that may be one string or a list of n.
func item(field string, i, n int) string {
	if n > 1 {
		return index(field, i)
	}
	return field
}

// paramSet reads a tracking_params block.
func (c cfg) paramSet(field string, raw json.RawMessage) (*normalize.ParamSet, error) {
	m, err := c.object(field, raw)
	if err != nil {
		return nil, err
	}
	if err := c.known(field, m, "params", "params_add", "strip"); err != nil {
		return nil, err
	}
	s := &normalize.ParamSet{}
	if raw, ok := m["strip"]; ok {
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			return nil, c.failf(join(field, "strip"), "want true or false, got %s", jsonKind(raw))
		}
		s.Strip = &b
	}
	if raw, ok := m["params"]; ok {
		if s.Params, err = c.patterns(join(field, "params"), raw); err != nil {
			return nil, err
		}
		if s.Params == nil {
			s.Params = []string{} // "params: []" replaces the list with nothing
		}
	}
	if s.ParamsAdd, err = c.patterns(join(field, "params_add"), m["params_add"]); err != nil {
		return nil, err
	}
	return s, nil
}

// paramSetOf writes t as a ParamSet that replaces whatever it inherits, so the
// profile says exactly what each level strips.
func paramSetOf(t normalize.Tracking) *normalize.ParamSet {
	strip := t.Strip && len(t.Patterns) > 0
	s := &normalize.ParamSet{Strip: &strip, Params: []string{}}
	if strip {
		s.Params = append(s.Params, t.Patterns...)
	}
	return s
}
