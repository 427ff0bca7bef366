package normalize

import (
	"errors"
	"fmt"
	"regexp"
	"sync"
)

// Normalizer canonicalizes URLs with one profile. It is safe for concurrent
// use; the per-call scratch space comes from a pool, so steady-state
// Normalize allocates only the result string (nothing when the input is
// already canonical) and AppendNormalized allocates nothing.
type Normalizer struct {
	prof Profile

	allowed  []string
	upgrade  [][2]string // Scheme.Upgrade as pairs: a scan beats a map lookup for one or two
	assume   string
	defaults map[string]int

	host     HostRules
	charset  uint8 // the hostChars bit a domain must have (csDNS, csRFC3986), 0 for any
	pct      PercentRules
	pctAny   bool
	slash    uint8 // slashKeep, slashRemove, slashRemoveExceptRoot
	collapse bool
	emptyDir bool

	pathGroups ruleSet
	base       ruleSet // query removal without a host rule
	keep       *matcher
	hosts      hostMap[*hostRule]
	hostTo     hostMap[string] // host.Map
	page       *matcher
	lang       hostMap[*LanguageHost]
	preferred  string

	query      QueryRules
	needParams bool
	fragment   bool
	hash       string
	maxLen     int
	maxParams  int
	maxDepth   int

	pool sync.Pool
	slow bool // never take the fast paths: the reference they are tested against
}

// The compiled forms of HostRules.Charset and PathRules.TrailingSlash:
// numbers, not strings, on the per-URL path.
var charsetBits = map[string]uint8{CharsetDNS: csDNS, CharsetRFC3986: csRFC3986}

const (
	slashKeep = iota
	slashRemove
	slashRemoveExceptRoot
)

var slashRules = map[string]uint8{SlashRemove: slashRemove, SlashRemoveExceptRoot: slashRemoveExceptRoot}

// hostMap is a map keyed by host with a filter on key lengths in front
// (bit l for length l, lengths from 63 on in bit 63). Most hosts are in
// none of a profile's host maps, and testing a bit is cheaper than a
// lookup in a small Go map, which compares the key with every entry (clara
// spent 15 % of its time there).
type hostMap[V any] struct {
	m    map[string]V
	lens uint64
}

func newHostMap[V any](m map[string]V) hostMap[V] {
	hm := hostMap[V]{m: m}
	for k := range m {
		hm.lens |= 1 << min(len(k), 63)
	}
	return hm
}

func (hm hostMap[V]) get(host string) (V, bool) {
	if hm.lens&(1<<min(len(host), 63)) == 0 {
		var zero V
		return zero, false
	}
	v, ok := hm.m[host]
	return v, ok
}

// group is a compiled ParamGroup.
type group struct {
	reason string
	m      *matcher
}

// ruleSet is the list of removal groups in force for one URL.
type ruleSet []group

func (rs ruleSet) match(name string) string {
	for i := range rs {
		if rs[i].m.match(name) {
			return rs[i].reason
		}
	}
	return ""
}

type hostRule struct {
	groups  ruleSet
	paths   []pathRule
	rewrite []rewrite
}

type pathRule struct {
	glob   string
	re     *regexp.Regexp // a "~" or "~*" pattern; glob is unused
	groups ruleSet
}

func (r *pathRule) match(path string) bool {
	if r.re != nil {
		return r.re.MatchString(path)
	}
	return globMatch(r.glob, path, false)
}

type rewrite struct {
	from, to string
	exact    string // what from normalizes to, matched as a whole URL
}

// New compiles a profile into a Normalizer.
func New(p Profile) (*Normalizer, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	n := &Normalizer{
		prof:      p,
		allowed:   p.Scheme.Allowed,
		assume:    p.Scheme.Assume,
		defaults:  p.Port.Defaults,
		host:      p.Host,
		charset:   charsetBits[p.Host.Charset],
		pct:       p.Percent,
		pctAny:    p.Percent.UppercaseHex || p.Percent.DecodeUnreserved || p.Percent.EncodeStray,
		slash:     slashRules[p.Path.TrailingSlash],
		collapse:  p.Path.CollapseSlashes,
		emptyDir:  p.Path.EmptyPathSlash,
		query:     p.Query,
		fragment:  p.Fragment.Remove,
		hash:      p.Hash,
		maxLen:    p.Limits.MaxLength,
		maxParams: p.Limits.MaxParams,
	}
	if n.maxLen == 0 {
		n.maxLen = DefaultMaxLength
	}
	if n.maxParams == 0 {
		n.maxParams = DefaultMaxParams
	}
	var err error
	if n.pathGroups, err = compileGroups(p.Path.RemoveParams); err != nil {
		return nil, configError(p.Name, "path.remove_params", err)
	}
	if n.base, err = compileGroups(p.Query.Remove); err != nil {
		return nil, configError(p.Name, "query.remove", err)
	}
	if n.keep, err = compileMatcher(p.Query.Keep); err != nil {
		return nil, configError(p.Name, "query.keep", err)
	}
	if p.Pagination != nil {
		if n.page, err = compileMatcher(p.Pagination.Params); err != nil {
			return nil, configError(p.Name, "pagination.params", err)
		}
	}
	if l := p.Language; l != nil {
		n.preferred = l.Preferred
		lang := map[string]*LanguageHost{}
		for i := range l.Hosts {
			lang[l.Hosts[i].Host] = &l.Hosts[i]
		}
		n.lang = newHostMap(lang)
	}
	n.needParams = p.Query.Order != "" && p.Query.Order != OrderKeep ||
		len(n.base) > 0 || n.page != nil || len(p.Hosts) > 0 ||
		p.Query.DropEmptyPairs || p.Query.BareEmptyValue || p.Query.FormEncoding
	n.pool.New = func() any { return new(state) }
	for from, to := range p.Scheme.Upgrade {
		n.upgrade = append(n.upgrade, [2]string{from, to})
	}
	n.hostTo = newHostMap(p.Host.Map)
	if err := n.compileHosts(); err != nil {
		return nil, err
	}
	return n, nil
}

func compileGroups(gs []ParamGroup) (ruleSet, error) {
	var rs ruleSet
	for _, g := range gs {
		m, err := compileMatcher(g.Patterns)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", g.Reason, err)
		}
		if !m.empty() {
			rs = append(rs, group{g.Reason, m})
		}
	}
	return rs, nil
}

// Tracking is the "tracking" removal list in force at one level of
// edge-gateway's global → host → URL-pattern hierarchy. A level inherits
// its parent's patterns and strip flag; its ParamSet replaces, extends or
// disables them (so "strip: false" on a host also holds for its URL
// patterns unless one says "strip: true" again, with the inherited
// patterns). The configuration loaders and the compiler share it, so a
// loaded profile means what its loader read.
type Tracking struct {
	Patterns []string
	Strip    bool
}

// Tracking returns the profile-level list: the patterns of the "tracking"
// removal group (none when there is no such group), stripped.
func (q *QueryRules) Tracking() Tracking {
	for _, g := range q.Remove {
		if g.Reason == "tracking" {
			return Tracking{g.Patterns, true}
		}
	}
	return Tracking{nil, true}
}

// With returns t changed by s, one level down the hierarchy.
func (t Tracking) With(s *ParamSet) Tracking {
	t.Patterns, t.Strip = s.apply(t.Patterns, t.Strip)
	return t
}

// Groups returns base with its "tracking" group replaced by t (appended
// when base has none, dropped when t strips nothing).
func (t Tracking) Groups(base []ParamGroup) []ParamGroup {
	out := make([]ParamGroup, 0, len(base)+1)
	placed := false
	for _, g := range base {
		if g.Reason == "tracking" {
			g.Patterns, placed = t.Patterns, true
		}
		out = append(out, g)
	}
	if !placed {
		out = append(out, ParamGroup{Reason: "tracking", Patterns: t.Patterns})
	}
	if !t.Strip {
		for i, g := range out {
			if g.Reason == "tracking" {
				out = append(out[:i], out[i+1:]...)
				break
			}
		}
	}
	return out
}

func (n *Normalizer) compileHosts() error {
	p := &n.prof
	if len(p.Hosts) == 0 {
		return nil
	}
	hosts := map[string]*hostRule{}
	root := p.Query.Tracking()
	for i, h := range p.Hosts {
		field := fmt.Sprintf("hosts[%d]", i)
		ht := root.With(h.Tracking)
		groups, err := compileGroups(ht.Groups(p.Query.Remove))
		if err != nil {
			return configError(p.Name, field+".tracking", err)
		}
		hr := &hostRule{groups: groups}
		for j, r := range h.Paths {
			groups, err := compileGroups(ht.With(r.Tracking).Groups(p.Query.Remove))
			if err != nil {
				return configError(p.Name, fmt.Sprintf("%s.paths[%d].tracking", field, j), err)
			}
			re, _ := compilePathMatch(r.Match) // checked by Validate
			hr.paths = append(hr.paths, pathRule{glob: r.Match, re: re, groups: groups})
		}
		hosts[h.Host] = hr
	}
	n.hosts = newHostMap(hosts)
	// Rewrites need the normalizer itself: each from_prefix is normalized
	// to find the whole URL it also matches, then every rule is run to a
	// fixed point to reject cycles at load time.
	n.maxDepth = 1
	for i, h := range p.Hosts {
		hr := hosts[h.Host]
		for j, r := range h.Rewrite {
			exact, err := n.normalizeDepth(r.FromPrefix, noRewrite)
			if err != nil {
				return configError(p.Name, fmt.Sprintf("hosts[%d].rewrite[%d].from_prefix", i, j), err)
			}
			hr.rewrite = append(hr.rewrite, rewrite{from: r.FromPrefix, to: r.ToPrefix, exact: exact})
			n.maxDepth++
		}
	}
	for i, h := range p.Hosts {
		for j, r := range h.Rewrite {
			if _, err := n.Normalize(r.FromPrefix); err != nil {
				field := fmt.Sprintf("hosts[%d].rewrite[%d]", i, j)
				if errors.Is(err, KindRewriteLoop) {
					return configError(p.Name, field, fmt.Errorf("rewrite rules form a cycle starting at %q", r.FromPrefix))
				}
				return configError(p.Name, field+".from_prefix", err)
			}
		}
	}
	return nil
}

// noRewrite as a depth disables rewrite rules (used to normalize the
// rules' own prefixes).
const noRewrite = -1

// KindRewriteLoop: rewrite rules did not reach a fixed point.
var KindRewriteLoop = &Kind{"rewrite_loop", ErrConfig}

// Profile returns a copy of the normalizer's profile.
func (n *Normalizer) Profile() Profile { return n.prof }

// Name returns the profile name.
func (n *Normalizer) Name() string { return n.prof.Name }

// Version returns the profile version.
func (n *Normalizer) Version() string { return n.prof.Version }
