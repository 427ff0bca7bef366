package normalize

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unsafe"
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

// hostCharsOK reports whether u's domain is within the profile's charset.
func (n *Normalizer) hostCharsOK(u *URL) bool {
	return u.hostChars&n.charset == n.charset
}

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

// state is the scratch space of one call.
type state struct {
	p      parser
	u      URL
	out    []byte
	tmp    []byte
	qbuf   []byte
	params []param
}

// param is one query parameter, as ranges of state.qbuf.
type param struct {
	k0, k1, v0, v1 int32
	eq             bool
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

// Normalize returns the canonical form of raw. When raw is already
// canonical the result is raw itself (no allocation).
func (n *Normalizer) Normalize(raw string) (string, error) {
	return n.normalizeDepth(raw, 0)
}

func (n *Normalizer) normalizeDepth(raw string, depth int) (string, error) {
	st := n.pool.Get().(*state)
	defer n.pool.Put(st)
	if k := n.run(st, raw, nil, depth); k != nil {
		return "", newError("normalize", raw, k, "")
	}
	if string(st.out) == raw {
		return raw, nil
	}
	return string(st.out), nil
}

// AppendNormalized appends the canonical form of raw to dst.
func (n *Normalizer) AppendNormalized(dst []byte, raw string) ([]byte, error) {
	st := n.pool.Get().(*state)
	defer n.pool.Put(st)
	if k := n.run(st, raw, nil, 0); k != nil {
		return dst, newError("normalize", raw, k, "")
	}
	return append(dst, st.out...), nil
}

// Hash returns the hex digest of the canonical form of raw with the
// profile's hash function.
func (n *Normalizer) Hash(raw string) (string, error) {
	var buf [64]byte
	b, err := n.AppendHash(buf[:0], raw)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// AppendHash appends the hex digest of the canonical form of raw to dst.
func (n *Normalizer) AppendHash(dst []byte, raw string) ([]byte, error) {
	st := n.pool.Get().(*state)
	defer n.pool.Put(st)
	if k := n.run(st, raw, nil, 0); k != nil {
		return dst, newError("hash", raw, k, "")
	}
	return appendDigest(dst, n.hash, st.out), nil
}

// HashCanonical returns the profile's digest of an already canonical URL.
func (n *Normalizer) HashCanonical(canonical string) string {
	var buf [64]byte
	return string(appendDigest(buf[:0], n.hash, unsafe.Slice(unsafe.StringData(canonical), len(canonical))))
}

// run normalizes raw into st.out. rec, when non-nil, collects what the
// rules removed. depth counts rewrite passes.
func (n *Normalizer) run(st *state, raw string, rec *Result, depth int) *Kind {
	if len(raw) > n.maxLen {
		return KindTooLong
	}
	in := raw
	if n.assume != "" {
		var k *Kind
		if in, k = n.assumeScheme(st, raw); k != nil {
			return k
		}
	}
	u := &st.u
	st.p.slow = n.slow
	if k := st.p.parse(u, in, nil); k != nil {
		return k
	}
	scheme := u.Scheme()
	if len(n.allowed) > 0 && !contains(n.allowed, scheme) {
		return KindScheme
	}
	var hr *hostRule
	if to, ok := n.asParsed(u, scheme); ok && !n.slow {
		// The common case: copy scheme, authority and path in one move.
		out := st.out[:0]
		if to != u.Scheme() { // upgraded (by name: "ftp" → "wss" keeps the length)
			out = append(out, to...)
			out = append(out, u.buf[u.schemeEnd:u.pathEnd]...)
		} else {
			out = append(out, u.buf[:u.pathEnd]...)
		}
		hr, _ = n.hosts.get(u.Host())
		pathStart := u.pathStart + len(to) - u.schemeEnd
		out = n.finishPath(out, pathStart, u)
		return n.finish(st, u, out, pathStart, hr, rec, depth)
	}
	if to, ok := n.upgraded(scheme); ok {
		scheme = to
	}
	out := append(st.out[:0], scheme...)
	out = append(out, ':')
	host := ""
	if u.hostKind != HostNone {
		out = append(out, '/', '/')
		if u.userEnd > u.userStart || u.passEnd > u.passStart {
			out = n.appendPct(out, u.Username())
			if u.passEnd > u.passStart {
				out = append(out, ':')
				out = n.appendPct(out, u.Password())
			}
			out = append(out, '@')
		}
		h0 := len(out)
		var k *Kind
		if out, k = n.appendHost(st, out, u); k != nil {
			return k
		}
		if scheme == "file" && string(out[h0:]) == "localhost" {
			// The file host state turns "localhost" into the empty host;
			// a host rule (a stripped trailing dot) may have just made it.
			out = out[:h0]
		}
		host = unsafe.String(unsafe.SliceData(out[h0:]), len(out)-h0) // re-sliced below if out grows
		hr, _ = n.hosts.get(host)
		if p := int(u.port); p >= 0 && p != specialPort(scheme) {
			if d, ok := n.defaults[scheme]; !ok || d != p {
				out = append(out, ':')
				out = appendPort(out, u.port)
			}
		}
	}
	pathStart := len(out)
	var k *Kind
	if out, k = n.appendPath(st, out, u, hr, host, rec); k != nil {
		return k
	}
	return n.finish(st, u, out, pathStart, hr, rec, depth)
}

// finish appends the query and the fragment after the profile's rules and
// applies the host's rewrite rules.
func (n *Normalizer) finish(st *state, u *URL, out []byte, pathStart int, hr *hostRule, rec *Result, depth int) *Kind {
	var k *Kind
	if out, k = n.appendQuery(st, out, u, hr, out[pathStart:], rec); k != nil {
		return k
	}
	if frag, ok := u.Fragment(); ok {
		if n.fragment {
			if rec != nil {
				rec.Fragment, rec.HasFragment = strings.Clone(frag), true // frag shares the pooled buffer
			}
		} else {
			out = append(out, '#')
			out = n.appendPct(out, frag)
		}
	}
	st.out = out
	if hr != nil && len(hr.rewrite) > 0 && depth != noRewrite {
		return n.applyRewrite(st, hr, rec, depth)
	}
	return nil
}

// upgraded returns the scheme that replaces scheme (Scheme.Upgrade).
func (n *Normalizer) upgraded(scheme string) (string, bool) {
	for _, u := range n.upgrade {
		if u[0] == scheme {
			return u[1], true
		}
	}
	return "", false
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// assumeScheme gives scheme-less input the profile's scheme:
// "example.com/p" and "//example.com/p" become "https://example.com/p";
// "/p" has no host and is an error.
func (n *Normalizer) assumeScheme(st *state, raw string) (string, *Kind) {
	// Leading C0 control or space, as the parser trims it. A loop, not
	// strings.TrimLeft with a cutset: that builds its ASCII set on every
	// call (7 % of edge-gateway's time in pprof).
	i := 0
	for i < len(raw) && raw[i] <= ' ' {
		i++
	}
	s := raw[i:]
	if s == "" {
		return raw, nil // the parser reports empty input
	}
	if k := schemeLen(s); k > 0 {
		// "example.com:8080/p" is a host and a port, but "mailto:a@b.c"
		// and "javascript:x" have a scheme: taking them for a host would
		// turn them into valid, different URLs ("https://mailto:a@b.c/").
		// Only digits after the colon make a port.
		sc := asciiLower(s[:k])
		if contains(n.allowed, sc) || specialPort(sc) != -2 || k+1 == len(s) || !isDigit(s[k+1]) {
			return raw, nil
		}
	}
	st.tmp = append(st.tmp[:0], n.assume...)
	switch {
	case strings.HasPrefix(s, "//") || strings.HasPrefix(s, `\\`):
		st.tmp = append(st.tmp, ':')
	case s[0] == '/' || s[0] == '\\':
		return "", KindMissingHost
	default:
		st.tmp = append(st.tmp, "://"...)
	}
	st.tmp = append(st.tmp, s...)
	return unsafe.String(unsafe.SliceData(st.tmp), len(st.tmp)), nil
}

// appendHost appends the host after the profile's host rules.
func (n *Normalizer) appendHost(st *state, out []byte, u *URL) ([]byte, *Kind) {
	h := u.Host()
	switch u.hostKind {
	case HostEmpty:
		return out, nil
	case HostIPv4, HostIPv6:
		return append(out, h...), nil
	case HostOpaque:
		start := len(out)
		out = n.appendPct(out, h)
		if n.host.LowercaseOpaque {
			lowerOutsideEscapes(out[start:])
		}
		return out, nil
	}
	// HostDomain
	if n.host.StripTrailingDot && strings.HasSuffix(h, ".") {
		h = strings.TrimRight(h, ".")
		if h == "" {
			return out, KindHost
		}
		if endsInNumber(h) {
			// "0x7f.1." is a domain; "0x7f.1" is an IPv4 address. Re-run
			// the IPv4 parser so that the output re-parses to itself.
			v, ok := parseIPv4(h)
			if !ok {
				return out, KindIPv4
			}
			return appendIPv4(out, v), nil
		}
	}
	if !n.hostCharsOK(u) {
		return out, KindHost
	}
	if n.host.RequireDot && strings.IndexByte(h, '.') < 0 && h != "localhost" {
		return out, KindHost
	}
	if to, ok := n.hostTo.get(h); ok {
		h = to
	}
	return append(out, h...), nil
}

// lowerOutsideEscapes lowercases ASCII letters of b except the hex digits
// of percent-escapes (which stay uppercase).
func lowerOutsideEscapes(b []byte) {
	for i := 0; i < len(b); i++ {
		if b[i] == '%' && i+2 < len(b) {
			i += 2
			continue
		}
		b[i] = lower(b[i])
	}
}

// appendPct appends s with the profile's percent-encoding normalization.
func (n *Normalizer) appendPct(dst []byte, s string) []byte {
	if !n.pctAny {
		return append(dst, s...)
	}
	for {
		i := strings.IndexByte(s, '%')
		if i < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:i]...)
		if i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			v := unhex(s[i+1])<<4 | unhex(s[i+2])
			switch {
			case n.pct.DecodeUnreserved && unreserved[v]:
				dst = append(dst, v)
			case n.pct.UppercaseHex:
				dst = append(dst, '%', upper(s[i+1]), upper(s[i+2]))
			default:
				dst = append(dst, s[i:i+3]...)
			}
			s = s[i+3:]
			continue
		}
		if n.pct.EncodeStray {
			dst = append(dst, "%25"...)
		} else {
			dst = append(dst, '%')
		}
		s = s[i+1:]
	}
}

// appendPath appends the path after the profile's path rules.
func (n *Normalizer) appendPath(st *state, out []byte, u *URL, hr *hostRule, host string, rec *Result) ([]byte, *Kind) {
	path := u.Path()
	if u.opaque {
		return n.appendPct(out, path), nil
	}
	start := len(out)
	lang, _ := n.lang.get(host)
	// Segment by segment only when a rule needs it: path parameters can
	// only be removed from a path that has a ';' (clara's session ids), and
	// most paths have none — appendPct over the whole path is the same
	// output, faster (clara: 16 % of its time went to appendSegments).
	if n.bySegment(path, lang) {
		out = n.appendSegments(out, path, lang, rec)
	} else {
		out = n.appendPct(out, path)
	}
	if u.special && u.Scheme() == "file" {
		out = keepDriveLetter(out, start)
	}
	return n.finishPath(out, start, u), nil
}

// asParsed reports whether the profile's rules leave the authority and
// the path exactly as the parser serialized them into u.buf, so that run
// can copy them in one move instead of rebuilding them part by part (a web
// URL with a plain host and a path without escapes: most input); scheme is
// then the output's scheme (upgraded when the URL has no port, which could
// become the new scheme's default). Anything a rule could change, or
// report as an error, takes the general path.
func (n *Normalizer) asParsed(u *URL, scheme string) (string, bool) {
	if !u.special || scheme == "file" || u.opaque ||
		u.userEnd > u.userStart || u.passEnd > u.passStart {
		return "", false
	}
	if len(n.upgrade) > 0 {
		if to, ok := n.upgraded(scheme); ok {
			if u.port >= 0 || specialPort(to) < 0 {
				return "", false
			}
			scheme = to
		}
	}
	if u.port >= 0 && len(n.defaults) > 0 {
		if d, ok := n.defaults[scheme]; ok && d == int(u.port) {
			return "", false
		}
	}
	switch u.hostKind {
	case HostIPv4, HostIPv6:
	case HostDomain:
		h := u.Host()
		if n.host.StripTrailingDot && strings.HasSuffix(h, ".") ||
			!n.hostCharsOK(u) ||
			n.host.RequireDot && strings.IndexByte(h, '.') < 0 {
			return "", false
		}
		if _, ok := n.hostTo.get(h); ok {
			return "", false
		}
		if _, ok := n.lang.get(h); ok {
			return "", false
		}
	default:
		return "", false
	}
	if u.plainPath {
		return scheme, true // no '%', ';' or "//" (pfNote in the parser)
	}
	path := u.Path()
	return scheme, !(n.pctAny && strings.IndexByte(path, '%') >= 0) && !n.bySegment(path, nil)
}

// bySegment reports whether the path needs appendSegments: a rule that
// works on segments has something to do.
func (n *Normalizer) bySegment(path string, lang *LanguageHost) bool {
	return lang != nil ||
		n.collapse && strings.Contains(path, "//") ||
		len(n.pathGroups) > 0 && strings.IndexByte(path, ';') >= 0
}

// finishPath applies the trailing-slash and empty-path rules to the path
// at out[start:] and keeps a host-less path from starting with "//".
func (n *Normalizer) finishPath(out []byte, start int, u *URL) []byte {
	switch n.slash {
	case slashRemove:
		for len(out) > start && out[len(out)-1] == '/' {
			out = out[:len(out)-1]
		}
	case slashRemoveExceptRoot:
		for len(out) > start+1 && out[len(out)-1] == '/' {
			out = out[:len(out)-1]
		}
	}
	if len(out) == start && n.emptyDir && u.hostKind != HostNone {
		out = append(out, '/')
	}
	if u.hostKind == HostNone && len(out)-start > 1 && out[start] == '/' && out[start+1] == '/' {
		// URL Standard serializer: a host-less path starting with "//"
		// is written after "/." so that it does not re-parse as a host.
		out = append(out, 0, 0)
		copy(out[start+2:], out[start:len(out)-2])
		out[start], out[start+1] = '/', '.'
	}
	return out
}

// appendSegments appends a path one segment at a time, for the rules that
// work on segments: collapsing empty ones, removing ";name=value" path
// parameters, rewriting a language segment.
func (n *Normalizer) appendSegments(out []byte, path string, lang *LanguageHost, rec *Result) []byte {
	seg, pathStart := 0, len(out)
	for len(path) > 0 {
		// path is "/seg/seg…": take one segment.
		path = path[1:]
		end := strings.IndexByte(path, '/')
		if end < 0 {
			end = len(path)
		}
		s := path[:end]
		path = path[end:]
		if n.collapse && s == "" && path != "" {
			continue // "a//b": drop the empty segment, keep a final one
		}
		out = append(out, '/')
		segStart := len(out)
		out = n.appendPct(out, s)
		if len(n.pathGroups) > 0 && strings.IndexByte(s, ';') >= 0 {
			out = n.removePathParams(out, segStart, rec)
			out = resolveDotSegment(out, pathStart, segStart, path == "")
		}
		if lang != nil && seg == lang.Segment {
			out = n.rewriteLanguage(out, segStart, lang, rec)
		}
		seg++
	}
	return out
}

// resolveDotSegment resolves the segment at out[segStart:] as the URL
// parser would if it is "." or "..": a segment such as ".;sid" becomes one
// when its parameters are removed, and the output must re-parse to itself
// ("/.;sid" → "/." would become "/" on the next pass; fuzz regression).
// last says whether it is the path's last segment, which leaves a '/'.
func resolveDotSegment(out []byte, pathStart, segStart int, last bool) []byte {
	switch string(out[segStart:]) {
	case ".":
		out = out[:segStart-1] // "/a/./b" → "/a/b"
	case "..":
		out = out[:segStart-1]
		if i := bytes.LastIndexByte(out[pathStart:], '/'); i >= 0 {
			out = out[:pathStart+i] // "/a/b/../c" → "/a/c"; never above the root
		}
	default:
		return out
	}
	if last {
		out = append(out, '/') // "/a/." → "/a/", "/a/b/.." → "/a/"
	}
	return out
}

// keepDriveLetter stops a rule from creating a Windows drive letter: a
// file URL's first segment "X|" (made by decoding "%70|", or by collapsing
// "//p|") would re-parse as "X:", a different path, so the output would
// not be a fixed point. The parser never leaves "X|" itself; the '|' is
// written as %7C, which means the same to a server.
func keepDriveLetter(out []byte, start int) []byte {
	p := out[start:]
	if len(p) < 3 || p[0] != '/' || !isAlpha(p[1]) || p[2] != '|' || (len(p) > 3 && p[3] != '/') {
		return out
	}
	out = append(out, 0, 0)
	copy(out[start+5:], out[start+3:len(out)-2])
	copy(out[start+2:], "%7C")
	return out
}

// removePathParams drops ";name=value" parameters whose name matches a
// path group from the segment at out[segStart:].
func (n *Normalizer) removePathParams(out []byte, segStart int, rec *Result) []byte {
	seg := string(out[segStart:]) // rare path: a segment with ';'
	out = out[:segStart]
	parts := strings.Split(seg, ";")
	out = append(out, parts[0]...)
	for _, p := range parts[1:] {
		name, value, _ := strings.Cut(p, "=")
		if reason := n.pathGroups.match(name); reason != "" {
			if rec != nil {
				rec.Removed = append(rec.Removed, Param{Key: name, Value: value, Reason: reason, InPath: true})
			}
			continue
		}
		out = append(out, ';')
		out = append(out, p...)
	}
	return out
}

func (rs ruleSet) match(name string) string {
	for i := range rs {
		if rs[i].m.match(name) {
			return rs[i].reason
		}
	}
	return ""
}

// rewriteLanguage replaces a language code in the segment at out[segStart:]
// by the preferred language (clara-policy Rule 10).
func (n *Normalizer) rewriteLanguage(out []byte, segStart int, lang *LanguageHost, rec *Result) []byte {
	seg := unsafe.String(unsafe.SliceData(out[segStart:]), len(out)-segStart)
	pref := n.preferred
	if lang.Preferred != "" {
		pref = lang.Preferred // e.g. "cas" where a site's Spanish is /cas/
	}
	if !contains(lang.Languages, seg) && seg != pref {
		return out
	}
	if rec != nil {
		rec.Language = &LanguageInfo{Original: strings.Clone(seg), Preferred: pref, Languages: lang.Languages, segStart: segStart}
	}
	return append(out[:segStart], pref...)
}

// appendQuery appends the query after the profile's query rules.
func (n *Normalizer) appendQuery(st *state, out []byte, u *URL, hr *hostRule, path []byte, rec *Result) ([]byte, *Kind) {
	q, ok := u.Query()
	if !ok {
		return out, nil
	}
	if len(q) >= n.maxParams && strings.Count(q, "&") >= n.maxParams {
		return out, KindTooManyParams
	}
	if !n.needParams {
		if q == "" && n.query.DropEmpty {
			return out, nil
		}
		out = append(out, '?')
		return n.appendPct(out, q), nil
	}
	groups := n.base
	if hr != nil {
		groups = hr.groups
		for i := range hr.paths {
			if hr.paths[i].match(unsafe.String(unsafe.SliceData(path), len(path))) {
				groups = hr.paths[i].groups
				break
			}
		}
	}
	st.qbuf = st.qbuf[:0]
	st.params = st.params[:0]
	for rest, more := q, true; more; {
		piece := rest
		if i := strings.IndexByte(rest, '&'); i >= 0 {
			piece, rest = rest[:i], rest[i+1:]
		} else {
			more = false
		}
		if piece == "" && n.query.DropEmptyPairs {
			continue
		}
		key, value, eq := strings.Cut(piece, "=")
		var p param
		p.k0 = int32(len(st.qbuf))
		st.qbuf = n.appendQueryPart(st.qbuf, key)
		p.k1 = int32(len(st.qbuf))
		st.qbuf = n.appendQueryPart(st.qbuf, value)
		p.v1 = int32(len(st.qbuf))
		p.v0 = p.k1
		p.eq = eq && !(n.query.BareEmptyValue && p.v0 == p.v1)
		if n.query.DropEmptyPairs && p.k0 == p.k1 && !p.eq {
			// Empty after normalization ("=" with bare_empty_value):
			// serializes to nothing, like "&&".
			continue
		}
		k := unsafe.String(unsafe.SliceData(st.qbuf[p.k0:]), int(p.k1-p.k0))
		if n.page != nil && n.page.match(k) {
			if rec != nil {
				rec.Pagination = &PageInfo{Param: strings.Clone(k), Value: string(st.qbuf[p.v0:p.v1])}
				rec.Removed = append(rec.Removed, Param{Key: strings.Clone(k), Value: string(st.qbuf[p.v0:p.v1]), Reason: "pagination"})
			}
			continue
		}
		if len(groups) > 0 && !n.keep.match(k) {
			if reason := groups.match(k); reason != "" {
				if rec != nil {
					rec.Removed = append(rec.Removed, Param{Key: strings.Clone(k), Value: string(st.qbuf[p.v0:p.v1]), Reason: reason})
				}
				continue
			}
		}
		st.params = append(st.params, p)
	}
	n.sortParams(st)
	if len(st.params) == 0 && n.query.DropEmpty {
		return out, nil
	}
	out = append(out, '?')
	for i, p := range st.params {
		if i > 0 {
			out = append(out, '&')
		}
		out = append(out, st.qbuf[p.k0:p.k1]...)
		if p.eq {
			out = append(out, '=')
			out = append(out, st.qbuf[p.v0:p.v1]...)
		}
	}
	return out, nil
}

func (n *Normalizer) appendQueryPart(dst []byte, s string) []byte {
	if n.query.FormEncoding {
		return appendForm(dst, s)
	}
	return n.appendPct(dst, s)
}

// appendForm form-decodes s ('+' is a space, %XX a byte) and re-encodes it:
// unreserved bytes as is, space as '+', everything else as %XX.
func appendForm(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '+':
			c = ' '
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			c = unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
		}
		switch {
		case unreserved[c]:
			dst = append(dst, c)
		case c == ' ':
			dst = append(dst, '+')
		default:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		}
	}
	return dst
}

// sortParams orders st.params by the profile's query order.
func (n *Normalizer) sortParams(st *state) {
	ps, b := st.params, st.qbuf
	if len(ps) < 2 {
		return
	}
	key := func(p param) string { return unsafe.String(unsafe.SliceData(b[p.k0:]), int(p.k1-p.k0)) }
	val := func(p param) string { return unsafe.String(unsafe.SliceData(b[p.v0:]), int(p.v1-p.v0)) }
	var less func(a, b param) bool
	switch n.query.Order {
	case OrderPair:
		less = func(a, c param) bool {
			// compare "key=value" (or "key") byte strings
			ka, kc := key(a), key(c)
			sa, sc := pairString(ka, val(a), a.eq), pairString(kc, val(c), c.eq)
			return lessConcat(sa, sc)
		}
	case OrderKeyValue:
		less = func(a, c param) bool {
			ka, kc := key(a), key(c)
			if ka != kc {
				return ka < kc
			}
			if va, vc := val(a), val(c); va != vc {
				return va < vc
			}
			return !a.eq && c.eq // "k" before "k=": one order for both inputs
		}
	case OrderKey:
		less = func(a, c param) bool { return key(a) < key(c) }
	default:
		return
	}
	if len(ps) <= 12 {
		for i := 1; i < len(ps); i++ {
			for j := i; j > 0 && less(ps[j], ps[j-1]); j-- {
				ps[j], ps[j-1] = ps[j-1], ps[j]
			}
		}
		return
	}
	sort.SliceStable(ps, func(i, j int) bool { return less(ps[i], ps[j]) })
}

// pairString describes "key=value" without building it.
type pair struct {
	k, v string
	eq   bool
}

func pairString(k, v string, eq bool) pair { return pair{k, v, eq} }

// lessConcat compares a.k+"="+a.v with b.k+"="+b.v bytewise ("=" and the
// value only when present).
func lessConcat(a, b pair) bool {
	at, bt := [3]string{a.k, "", a.v}, [3]string{b.k, "", b.v}
	if a.eq {
		at[1] = "="
	}
	if b.eq {
		bt[1] = "="
	}
	i, j, ai, bi := 0, 0, 0, 0
	for {
		for ai < 3 && i == len(at[ai]) {
			ai, i = ai+1, 0
		}
		for bi < 3 && j == len(bt[bi]) {
			bi, j = bi+1, 0
		}
		if ai == 3 || bi == 3 {
			return ai == 3 && bi < 3
		}
		ca, cb := at[ai][i], bt[bi][j]
		if ca != cb {
			return ca < cb
		}
		i++
		j++
	}
}

// applyRewrite applies the first matching rewrite rule to st.out and
// normalizes the result again.
func (n *Normalizer) applyRewrite(st *state, hr *hostRule, rec *Result, depth int) *Kind {
	cur := unsafe.String(unsafe.SliceData(st.out), len(st.out))
	for _, r := range hr.rewrite {
		var next string
		switch {
		case strings.HasPrefix(cur, r.from):
			next = r.to + cur[len(r.from):]
		case cur == r.exact:
			next = r.to
		default:
			continue
		}
		if next == cur {
			return nil
		}
		if depth >= n.maxDepth {
			return KindRewriteLoop
		}
		if rec != nil {
			rec.Rewrites = append(rec.Rewrites, Rewrite{FromPrefix: r.from, ToPrefix: r.to})
		}
		return n.run(st, next, rec, depth+1)
	}
	return nil
}
