package sourceconfig

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/urlnorm/urlnorm/normalize"
)

// LoadCuriousNowOverrides loads Curious Now's per-source overrides file,
// config/url_normalization_overrides.v0.json (curious-now-v0.md §3), on top
// of base, normally the built-in curiousnow-v0 profile:
//
//	{"overrides": [
//	  {"match": {"host": "example.com"},
//	   "drop_query_params": ["src", "partner"],
//	   "rewrite_rules": [{"from_prefix": "https://example.com/amp/", "to_prefix": "https://example.com/"}]}
//	]}
//
// Each override becomes a host rule (Profile.Hosts):
//
//   - match.host is an exact host, compared with the URL's normalized host
//     (so "Example.COM" in the file matches; an IDN may be written in
//     Unicode). The first override for a host wins; later ones for the same
//     host are ignored, as §3.1 says.
//   - drop_query_params extend §2's tracking list for that host, matched
//     the same way (ASCII case-insensitive; "*" is a wildcard).
//   - rewrite_rules are prefix rewrites of the normalized URL, tried in
//     order; the first that applies wins and its result is normalized
//     again (it may be on another host and meet that host's override). A
//     from_prefix ending in "/" also matches the URL it normalizes to
//     ("https://example.com/amp/" matches "https://example.com/amp").
//
// A from_prefix must be in canonical form and on match.host (otherwise no
// normalized URL could start with it), and rules that never reach a fixed
// point are an error. The result keeps base's name; its version is
// base's with the file's fingerprint ("1.0.0+config.1a2b3c4d"). Give it a
// name of its own before Register.
func LoadCuriousNowOverrides(base normalize.Profile, files ...ConfigFile) (normalize.Profile, error) {
	return applyConfig(base, files, eachFile(loadOverrides))
}

// override is one entry of the file with its position, for errors.
type override struct {
	field string
	rule  normalize.HostRule
}

func loadOverrides(p *normalize.Profile, f ConfigFile) error {
	c := cfg{f.Name}
	top, err := c.document(f.Data)
	if err != nil {
		return err
	}
	if err := c.known("", top, "overrides"); err != nil {
		return err
	}
	list, err := c.list("overrides", top["overrides"])
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, h := range p.Hosts {
		seen[h.Host] = true
	}
	var added []override
	for i, e := range list {
		o, err := c.override(index("overrides", i), e, p)
		if err != nil {
			return err
		}
		if seen[o.rule.Host] {
			continue // §3.1: "apply the first matching override"
		}
		seen[o.rule.Host] = true
		added = append(added, o)
	}
	if err := c.checkPrefixes(p, added); err != nil {
		return err
	}
	first := len(p.Hosts)
	for _, o := range added {
		p.Hosts = append(p.Hosts, o.rule)
	}
	if _, err := normalize.New(*p); err != nil {
		return c.rewriteError(p, first, added, err)
	}
	return nil
}

func (c cfg) override(field string, raw json.RawMessage, p *normalize.Profile) (override, error) {
	o := override{field: field}
	m, err := c.object(field, raw)
	if err != nil {
		return o, err
	}
	if err := c.known(field, m, "match", "drop_query_params", "rewrite_rules"); err != nil {
		return o, err
	}
	match, err := c.object(join(field, "match"), m["match"])
	if err != nil {
		return o, err
	}
	if err := c.known(join(field, "match"), match, "host"); err != nil {
		return o, err
	}
	if o.rule.Host, err = c.host(join(field, "match.host"), match["host"], p); err != nil {
		return o, err
	}
	drop, err := c.patterns(join(field, "drop_query_params"), m["drop_query_params"])
	if err != nil {
		return o, err
	}
	if len(drop) > 0 {
		o.rule.Tracking = &normalize.ParamSet{ParamsAdd: drop}
	}
	rules, err := c.list(join(field, "rewrite_rules"), m["rewrite_rules"])
	if err != nil {
		return o, err
	}
	for j, r := range rules {
		rf := index(join(field, "rewrite_rules"), j)
		rm, err := c.object(rf, r)
		if err != nil {
			return o, err
		}
		if err := c.known(rf, rm, "from_prefix", "to_prefix"); err != nil {
			return o, err
		}
		var rw normalize.Rewrite
		if rw.FromPrefix, err = c.str(join(rf, "from_prefix"), rm["from_prefix"]); err != nil {
			return o, err
		}
		if rw.ToPrefix, err = c.str(join(rf, "to_prefix"), rm["to_prefix"]); err != nil {
			return o, err
		}
		o.rule.Rewrite = append(o.rule.Rewrite, rw)
	}
	return o, nil
}

// checkPrefixes rejects rewrite rules that can never apply: a from_prefix
// that no normalized URL starts with (not canonical, or on another host
// than match.host), and a to_prefix that is not a URL.
func (c cfg) checkPrefixes(p *normalize.Profile, added []override) error {
	q := *p
	q.Hosts = nil
	for _, h := range p.Hosts {
		h.Rewrite = nil
		q.Hosts = append(q.Hosts, h)
	}
	for _, o := range added {
		r := o.rule
		r.Rewrite = nil
		q.Hosts = append(q.Hosts, r)
	}
	n, err := normalize.New(q)
	if err != nil {
		return c.fail("overrides", err)
	}
	for _, o := range added {
		for j, r := range o.rule.Rewrite {
			field := index(join(o.field, "rewrite_rules"), j)
			u, err := normalize.Parse(r.FromPrefix)
			if err != nil {
				return c.failf(join(field, "from_prefix"), "%q is not an absolute URL", r.FromPrefix)
			}
			if h, _ := canonicalHost(u.Host(), p.Host.StripTrailingDot); h != o.rule.Host {
				return c.failf(join(field, "from_prefix"), "%q is not on match.host %q, so it never applies", r.FromPrefix, o.rule.Host)
			}
			// A normalized URL that continues the prefix must still start
			// with it, or the prefix is not canonical.
			if probe, err := n.Normalize(r.FromPrefix + "x"); err != nil || !strings.HasPrefix(probe, r.FromPrefix) {
				hint, ok := strings.CutSuffix(probe, "x")
				if !ok {
					hint, _ = n.Normalize(r.FromPrefix)
				}
				return c.failf(join(field, "from_prefix"), "%q is not canonical, so no normalized URL starts with it (write %q)", r.FromPrefix, hint)
			}
			if _, err := n.Normalize(r.ToPrefix); err != nil {
				return c.failf(join(field, "to_prefix"), "%q is not a URL this profile accepts: %v", r.ToPrefix, err)
			}
		}
	}
	return nil
}

// rewriteError turns the error of compiling the loaded profile into one
// that names the override closing a rewrite cycle: it adds the overrides
// one by one until the profile stops compiling.
func (c cfg) rewriteError(p *normalize.Profile, first int, added []override, err error) error {
	for k := range added {
		q := *p
		q.Hosts = p.Hosts[:first+k+1]
		if _, e := normalize.New(q); e != nil {
			err = e
			var ne *normalize.Error
			if errors.As(e, &ne) && ne.Err != nil {
				err = ne.Err
			}
			return c.fail(join(added[k].field, "rewrite_rules"), err)
		}
	}
	return c.fail("overrides", err)
}
