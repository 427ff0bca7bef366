package sourceconfig

import (
	"encoding/json"
	"errors"
	"sort"

	"github.com/urlnorm/urlnorm/normalize"
)

// LoadClaraConfig loads clara's host map and language hosts (JSON) on top
// of base, normally the built-in clara profile:
//
//	{
//	  "hosts": {"boe.es": "www.boe.es", "www.sepe.es": "www.sepe.es"},
//	  "language": {
//	    "preferred": "es",
//	    "hosts": [{"host": "www.valencia.es", "segment": 0, "languages": ["cas", "val"], "preferred": "cas"}]
//	  },
//	  "replace": false
//	}
//
// Every key is optional. "hosts" is the Rule 5 host map, domain →
// canonical host, as `urlnorm learn-hosts` writes it: its entries are
// merged over the profile's map; a host mapped to itself is canonical and
// removes any mapping of it; chains (a → b, b → c) are followed (a → c)
// and cycles are an error. "language" is Rule 10's configuration, the
// shape of Profile.Language: its hosts are merged by host (a file's entry
// replaces the profile's for that host; hosts are canonical hosts, after
// the map), and "preferred" replaces the preferred language. With
// "replace": true, each section present in the file replaces the
// profile's instead of extending it. Hosts are normalized like URLs'
// (lowercase, punycode). Files apply in order. The result keeps base's
// name; its version is base's with the files' fingerprint.
func LoadClaraConfig(base normalize.Profile, files ...ConfigFile) (normalize.Profile, error) {
	return applyConfig(base, files, eachFile(loadClara))
}

func loadClara(p *normalize.Profile, f ConfigFile) error {
	c := cfg{f.Name}
	top, err := c.document(f.Data)
	if err != nil {
		return err
	}
	if err := c.known("", top, "hosts", "language", "replace"); err != nil {
		return err
	}
	replace := false
	if r, ok := top["replace"]; ok {
		if err := json.Unmarshal(r, &replace); err != nil {
			return c.failf("replace", "want true or false, got %s", jsonKind(r))
		}
	}
	if r, ok := top["hosts"]; ok {
		if err := c.hostMap(p, r, replace); err != nil {
			return err
		}
	}
	if r, ok := top["language"]; ok {
		if err := c.language(p, r, replace); err != nil {
			return err
		}
	}
	return nil
}

// hostMap merges (or, with replace, sets) the Rule 5 host map.
func (c cfg) hostMap(p *normalize.Profile, raw json.RawMessage, replace bool) error {
	m, err := c.object("hosts", raw)
	if err != nil {
		return err
	}
	merged := map[string]string{}
	if !replace {
		for k, v := range p.Host.Map {
			merged[k] = v
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		field := join("hosts", k)
		b, _ := json.Marshal(k)
		from, err := c.host(field, b, p)
		if err != nil {
			return err
		}
		to, err := c.host(field, m[k], p)
		if err != nil {
			return err
		}
		merged[from] = to
	}
	// Follow chains to the final host; a host mapped to itself is
	// canonical.
	p.Host.Map = map[string]string{}
	for _, from := range sortedKeys(merged) {
		to, seen := from, map[string]bool{from: true}
		for {
			next, ok := merged[to]
			if !ok || next == to {
				break
			}
			if seen[next] {
				return c.failf(join("hosts", from), "the host map has a cycle through %q", next)
			}
			seen[next] = true
			to = next
		}
		if to != from {
			p.Host.Map[from] = to
		}
	}
	if len(p.Host.Map) == 0 {
		p.Host.Map = nil
	}
	return nil
}

// language merges (or, with replace, sets) the Rule 10 configuration.
func (c cfg) language(p *normalize.Profile, raw json.RawMessage, replace bool) error {
	m, err := c.object("language", raw)
	if err != nil {
		return err
	}
	if err := c.known("language", m, "preferred", "hosts"); err != nil {
		return err
	}
	var l normalize.Language
	if p.Language != nil && !replace {
		l = *p.Language
	}
	if r, ok := m["preferred"]; ok {
		if l.Preferred, err = c.str("language.preferred", r); err != nil {
			return err
		}
	}
	if l.Preferred == "" {
		return c.failf("language.preferred", "required (the profile has no preferred language)")
	}
	list, err := c.list("language.hosts", m["hosts"])
	if err != nil {
		return err
	}
	for i, e := range list {
		field := index("language.hosts", i)
		h, err := c.languageHost(field, e, p)
		if err != nil {
			return err
		}
		l.Hosts = replaceHost(l.Hosts, h)
	}
	p.Language = &l
	return nil
}

func (c cfg) languageHost(field string, raw json.RawMessage, p *normalize.Profile) (normalize.LanguageHost, error) {
	var h normalize.LanguageHost
	m, err := c.object(field, raw)
	if err != nil {
		return h, err
	}
	if err := c.known(field, m, "host", "segment", "languages", "preferred"); err != nil {
		return h, err
	}
	if h.Host, err = c.host(join(field, "host"), m["host"], p); err != nil {
		return h, err
	}
	if err := json.Unmarshal(m["segment"], &h.Segment); err != nil || isNull(m["segment"]) || h.Segment < 0 {
		return h, c.failf(join(field, "segment"), "want the 0-based index of a path segment")
	}
	if h.Languages, err = c.strs(join(field, "languages"), m["languages"]); err != nil {
		return h, err
	}
	if len(h.Languages) == 0 {
		return h, c.failf(join(field, "languages"), "required")
	}
	if r, ok := m["preferred"]; ok {
		if h.Preferred, err = c.str(join(field, "preferred"), r); err != nil {
			return h, err
		}
	}
	// Validate the entry alone, so that a bad code names this field.
	q := normalize.Profile{Name: "x", Version: "x", Hash: normalize.HashSHA256, Language: &normalize.Language{Preferred: "x", Hosts: []normalize.LanguageHost{h}}}
	if err := q.Validate(); err != nil {
		var e *normalize.Error
		if errors.As(err, &e) && e.Err != nil {
			err = e.Err
		}
		return h, c.fail(field, err)
	}
	return h, nil
}

// replaceHost puts h in hosts, in place of the entry for the same host.
func replaceHost(hosts []normalize.LanguageHost, h normalize.LanguageHost) []normalize.LanguageHost {
	for i := range hosts {
		if hosts[i].Host == h.Host {
			out := append([]normalize.LanguageHost(nil), hosts...)
			out[i] = h
			return out
		}
	}
	return append(hosts[:len(hosts):len(hosts)], h)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
