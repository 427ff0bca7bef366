package normalize

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
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
	base       ruleSet  // query removal without a host rule
	baseKeys   keyRules // base with pagination and query.keep, decided once per key (compileKeyFilter)
	keep       *matcher
	hosts      hostMap[*hostRule]
	hostTo     hostMap[string] // host.Map
	page       *matcher
	lang       hostMap[*LanguageHost]
	hostKeys   hostFilter // the keys of hostTo, hosts and lang (compileHostKeys)
	hostEnds   hostEnds   // verbatimCanon's first test of those keys (host.go)
	preferred  string
	// What a key that pagination or a query.remove group (of any host or
	// path) may remove has: their matchers' prefilters, together
	// (compileKeyFilter; removes).
	keyFilter firstsFilter

	query      QueryRules
	needParams bool
	order      func(b []byte, a, c param) int // query.order's comparison (orderOf); nil when it keeps the order
	endsKeyed  bool                           // appendQuery may write a query through appendEndsKept (compileQuery)
	pairQ      bool                           // the order is cmpPair (query.order pair, not sort_decoded): compiled, where a string comparison per call cost endsKeptOrRemoved and the sorts
	fragment   bool
	hash       string
	maxLen     int
	maxParams  int
	maxDepth   int

	k knobs // the peers' rules (issue 15), knobs.go

	pool       sync.Pool
	inlineSort int  // sortParams sorts up to this many parameters by insertion
	reference  bool // take no fast path (see useReference)
	same       bool // verbatimCanon may answer (compileVerbatim)
	identity   bool // and the profile has no rule: a verbatim URL is its own canonical form

	// What verbatimCanon needs of the scheme rules for http (0) and https
	// (1), the schemes of a verbatim URL: the upgrade ("" for none), and
	// whether scheme.allowed refuses it (compileVerbatim).
	vSchemes [2]struct {
		to      string
		refused bool
	}
	queryAsIs  bool       // verbatimCanon may ask queryKept about a query the rules split (compileQueryKept)
	queryGone  bool       // the rules remove every query, whatever it holds (compileQueryKept)
	queryTab   [256]uint8 // vOK for the query bytes queryKept takes
	formEq     bool       // query.form_encoding encodes '=' in a value
	directTab  [256]uint8 // vOK for the bytes form encoding and query.lowercase write as they are (appendQuery)
	directScan bool       // the profile has those rules: appendQuery scans a query with directTab
	keylessQ   bool       // keyless(), compiled: queryKept and appendKept split a query at its '&'s in one pass (ampEnds)
	// queryTab's and directTab's nibbleSets, for the SIMD scan (spanSet:
	// 32 bytes a step, where the table costs a load a byte; edge-gateway
	// 70 instructions per URL of web_dirty in queryKept's scan); nil in
	// the SWAR build.
	querySet, directSet *nibbleSet
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

// hostMap is a map keyed by host with filters on key lengths (bit l of
// lens for length l, lengths from 63 on in bit 63) and last bytes (bit
// b&63 of tails) in front. Most hosts are in none of a profile's host
// maps, and testing two bits is cheaper than a lookup in a small Go map,
// which compares the key with every entry (clara spent 15 % of its time
// there; with lengths alone, 85 instructions a URL on web).
type hostMap[V any] struct {
	m           map[string]V
	lens, tails uint64
}

// lenBit is a length's bit in a length filter (hostMap's lens, matcher's):
// bit l for length l, lengths from 63 on in bit 63.
func lenBit(l int) uint64 { return 1 << min(l, 63) }

func newHostMap[V any](m map[string]V) hostMap[V] {
	hm := hostMap[V]{m: m}
	for k := range m {
		hm.lens |= lenBit(len(k))
		if k != "" {
			hm.tails |= 1 << (k[len(k)-1] & 63)
		}
	}
	return hm
}

func (hm hostMap[V]) get(host string) (V, bool) {
	if hm.lens&lenBit(len(host)) == 0 || host != "" && hm.tails&(1<<(host[len(host)-1]&63)) == 0 {
		var zero V
		return zero, false
	}
	v, ok := hm.m[host]
	return v, ok
}

// hostFilter is a filter of hosts: bit hostBit of each host it lets
// through.
type hostFilter [8]uint64

// hostBit returns the bit in a hostFilter of the host s[i:j] (not empty):
// its length and its first and last bytes, spread over the filter's 512
// bits.
func hostBit(s string, i, j int) uint32 {
	x := uint32(j-i)<<16 | uint32(s[i])<<8 | uint32(s[j-1])
	return x * 0x9E3779B1 >> (32 - 9)
}

// may reports whether f lets the host h through ("" never: no map has
// it).
func (f *hostFilter) may(h string) bool { return f.mayAt(h, 0, len(h)) }

// mayAt is may of s[i:j], read in place: a load and a bit test, inline.
func (f *hostFilter) mayAt(s string, i, j int) bool {
	if i >= j {
		return false
	}
	b := hostBit(s, i, j)
	return f[b>>6]&(1<<(b&63)) != 0
}

// compileHostKeys joins the keys of the three host maps in n.hostKeys:
// hostChanges tests a host there before it looks it up in each (clara: a
// call to hostChanges, the union of the maps' length filters, and three
// more tests when a host had one of those lengths, 55 instructions per
// URL of web before); verbatimCanon tests hostEnds first (host.go).
func (n *Normalizer) compileHostKeys(*Profile) error {
	addHostKeys(&n.hostKeys, n.hostTo.m)
	addHostKeys(&n.hostKeys, n.hosts.m)
	addHostKeys(&n.hostKeys, n.lang.m)
	return nil
}

// addHostKeys lets the keys of m through f.
func addHostKeys[V any](f *hostFilter, m map[string]V) {
	for h := range m {
		i := hostBit(h, 0, len(h))
		f[i>>6] |= 1 << (i & 63)
	}
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
		if m := rs[i].m; m.may(name) && m.match(name) {
			return rs[i].reason
		}
	}
	return ""
}

// keyRules is the removal decision of a query key under one set of
// groups (the profile's query.remove, a host's or a path's tracking
// groups), pagination and query.keep, made once per key for the whole
// set: one case-insensitive lookup of the key among the exact names of
// every matcher (names: a bit per matcher), and the globs and regexps
// only of the matchers that have some (others). The matcher by matcher
// decision it replaces (removes: pagination, then ruleSet.match over the
// groups, then query.keep, each a call to matcher.match and a lookup of
// its own) cost clara and edge-gateway about four calls per key that the
// prefilter lets through: the removal test was 192 and 107 instructions
// per URL of web_dirty, 98 and 66 with keyRules (issue 18). perMatcher
// keeps that decision: the reference (useReference), and a set of more
// groups than a word has bits.
type keyRules struct {
	page, keep *matcher
	groups     ruleSet
	names      nameSet    // every exact name of page, groups and keep; a slot's bits are keyPage, keyKeep and keyGroup<<i for group i
	others     []keyOther // the matchers with globs or regexps: page's, the groups' in order, keep's last
	perMatcher bool       // decide by removes (the reference)
	keepOther  bool       // keep has globs or regexps (the last of others)
	any        bool       // page or a group: a key may be removed
}

// keyOther is a matcher of keyRules with globs or regexps, and its bit.
type keyOther struct {
	m   *matcher
	bit uint64
}

// The bits of a keyRules' name: pagination, query.keep, and the first
// group (group i: keyGroup<<i).
const (
	keyPage uint64 = 1 << iota
	keyKeep
	keyGroup
)

// maxKeyGroups is the most groups keyRules decides on by bits.
const maxKeyGroups = 64 - 2

// keyRulesOf compiles the decision of the groups gs with n's pagination
// and query.keep (after useReference's unfilter: the reference decides
// matcher by matcher).
func (n *Normalizer) keyRulesOf(gs ruleSet) keyRules {
	r := keyRules{page: n.page, keep: n.keep, groups: gs, any: n.page != nil || len(gs) > 0}
	r.perMatcher = n.reference || len(gs) > maxKeyGroups
	if r.perMatcher {
		return r
	}
	ms := []keyOther{{n.page, keyPage}}
	for i, g := range gs {
		ms = append(ms, keyOther{g.m, keyGroup << i})
	}
	ms = append(ms, keyOther{n.keep, keyKeep})
	r.keepOther = n.keep != nil && len(n.keep.other) > 0
	count := 0
	for _, o := range ms {
		if o.m != nil {
			count += len(o.m.lits)
		}
	}
	r.names = makeNameSet(count)
	for _, o := range ms {
		if o.m == nil {
			continue
		}
		for _, name := range o.m.lits {
			r.names.add(name, o.bit)
		}
		if len(o.m.other) > 0 {
			r.others = append(r.others, o)
		}
	}
	return r
}

type hostRule struct {
	groups  ruleSet
	keys    keyRules // groups with pagination and query.keep (compileKeyFilter)
	paths   []pathRule
	rewrite []rewrite
}

type pathRule struct {
	glob   glob
	re     *regexp.Regexp // a "~" or "~*" pattern; glob is unused
	groups ruleSet
	keys   keyRules // groups with pagination and query.keep (compileKeyFilter)
}

func (r *pathRule) match(path string) bool {
	if r.re != nil {
		return r.re.MatchString(path)
	}
	return r.glob.match(path)
}

type rewrite struct {
	from, to string
	exact    string // what from normalizes to, matched as a whole URL
}

// New compiles a profile into a Normalizer. It is the one code that
// refuses a bad profile (Validate runs it): each section of the profile is
// checked by the function that compiles it, in the order of the Profile
// fields, and the first error names its field.
func New(p Profile) (*Normalizer, error) {
	n := &Normalizer{prof: p, inlineSort: 12}
	n.pool.New = func() any { return new(state) }
	for _, compile := range []func(*Normalizer, *Profile) error{
		(*Normalizer).compileIdentity,
		(*Normalizer).compileScheme,
		(*Normalizer).compileHost,
		(*Normalizer).compileUserinfo,
		(*Normalizer).compilePort,
		(*Normalizer).compilePath,
		(*Normalizer).compilePercent,
		(*Normalizer).compileQuery,
		(*Normalizer).compileHash,
		(*Normalizer).compileLimits,
		(*Normalizer).compileHosts,
		(*Normalizer).compilePagination,
		(*Normalizer).compileLanguage,
		(*Normalizer).compileHostKeys,
		(*Normalizer).compileVerbatim,
		(*Normalizer).compileRewrites, // last: it runs the normalizer
	} {
		if err := compile(n, &n.prof); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// useReference turns off every fast path: code that, for the inputs it
// takes, gives what more general code gives, only faster. The result is
// the reference TestFastPathsMatchReference and FuzzNormalize compare the
// fast paths with (NewReference, tests only); a new fast path gets its
// switch here. The switches cost nothing on the hot path: a flag tested
// where a fast path already tests its condition, or data.
//
//   - parser (parser.reference): trim's skip when there is no tab or
//     newline to remove, scheme's "https:"/"http:" shortcut,
//     plainAuthority, asciiHost, path's one-run copy, endsInNumber's quick
//     reject, the verbatim scan (verbatim.go), idnCache (host.go);
//   - normalizer (reference): asParsed (scheme, authority and path in one
//     copy), bySegment (the whole path through appendPct), verbatimCanon (a
//     verbatim URL the rules leave as it is or only cut, its query too with
//     queryKept, or written in the profile's order by appendKept: no
//     parse), the query's one '%' scan for all its parts,
//     decodeRepeated's shortcut, appendPct's word steps;
//   - data: needParams and pctAny (the reference splits every query and
//     reads every escape), the host maps' length and last-byte filters
//     (every host may match), sortParams' insertion sort (never),
//     finishURL's length test (it always runs), the patterns' prefilters
//     and name sets (every name is lowercased and compared with each
//     exact name, every regexp runs: matcher.unfilter).
func (n *Normalizer) useReference() {
	n.reference, n.same, n.identity = true, false, false
	n.needParams, n.pctAny, n.k.finishLen = true, true, -1
	for _, f := range []*uint64{&n.hosts.lens, &n.hosts.tails, &n.hostTo.lens, &n.hostTo.tails, &n.lang.lens, &n.lang.tails} {
		*f = ^uint64(0)
	}
	for i := range n.hostKeys {
		n.hostKeys[i] = ^uint64(0)
	}
	n.inlineSort = 0
	ms := append(n.queryMatchers(), n.keep)
	for _, rs := range []ruleSet{n.pathGroups, n.k.cookieless} {
		for _, g := range rs {
			ms = append(ms, g.m)
		}
	}
	for _, m := range ms {
		m.unfilter()
	}
	n.compileKeyFilter()
}

// queryMatchers returns the matchers that may remove a query parameter:
// pagination's and those of the query.remove groups, of every host and
// path (nil when there is none).
func (n *Normalizer) queryMatchers() []*matcher {
	ms := []*matcher{n.page}
	for _, rs := range n.ruleSets() {
		for _, g := range rs {
			ms = append(ms, g.m)
		}
	}
	return ms
}

// ruleSets returns the profile's query.remove groups: its own, then those
// of every host and of every path under a host.
func (n *Normalizer) ruleSets() []ruleSet {
	sets := []ruleSet{n.base}
	for _, hr := range n.hosts.m {
		sets = append(sets, hr.groups)
		for _, pr := range hr.paths {
			sets = append(sets, pr.groups)
		}
	}
	return sets
}

// compileKeyFilter compiles the removal decision of each set of groups
// (keyRules: the profile's, each host's and each path's) and joins the
// prefilters of queryMatchers in n.keyFilter (matcher.some):
// a key that none of them lets through is removed by none (removes), and
// is told apart in one test instead of a call per matcher, where most
// keys are (7 in 10 of the keys edge-gateway asks about on web_dirty are
// ruled out by its matcher's prefilter). It runs after the hosts and
// pagination are compiled (compileVerbatim), and again after
// useReference's unfilter.
func (n *Normalizer) compileKeyFilter() {
	var f firstsFilter
	for _, m := range n.queryMatchers() {
		if m == nil {
			continue
		}
		for i := range f {
			f[i] |= m.some[i]
		}
	}
	n.keyFilter = f
	n.baseKeys = n.keyRulesOf(n.base)
	for _, hr := range n.hosts.m {
		hr.keys = n.keyRulesOf(hr.groups)
		for i := range hr.paths {
			hr.paths[i].keys = n.keyRulesOf(hr.paths[i].groups)
		}
	}
}

// Validate reports whether the profile compiles, and why not: it runs New.
func (p *Profile) Validate() error {
	_, err := New(*p)
	return err
}

// bad is a compile error in the profile's field.
func (p *Profile) bad(field, format string, a ...any) error {
	return configError(p.Name, field, fmt.Errorf(format, a...))
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]*$`)

func (n *Normalizer) compileIdentity(p *Profile) error {
	if !nameRE.MatchString(p.Name) {
		return p.bad("name", "profile name %q must match %s", p.Name, nameRE)
	}
	if p.Version == "" {
		return p.bad("version", "missing version")
	}
	return nil
}

func (n *Normalizer) compileScheme(p *Profile) error {
	for _, s := range p.Scheme.Allowed {
		if schemeLen(s+":") != len(s) {
			return p.bad("scheme.allowed", "%q is not a scheme", s)
		}
	}
	n.allowed = p.Scheme.Allowed
	for from, to := range p.Scheme.Upgrade {
		if schemeLen(from+":") != len(from) || schemeLen(to+":") != len(to) {
			return p.bad("scheme.upgrade", "%q → %q is not a scheme pair", from, to)
		}
		if (specialPort(from) == -2) != (specialPort(to) == -2) {
			return p.bad("scheme.upgrade", "%q → %q mixes special and non-special schemes", from, to)
		}
		if _, ok := p.Scheme.Upgrade[to]; ok {
			return p.bad("scheme.upgrade", "%q is upgraded and also an upgrade target", to)
		}
		if len(p.Scheme.Allowed) > 0 && !slices.Contains(p.Scheme.Allowed, to) {
			// The output would be refused when normalized again.
			return p.bad("scheme.upgrade", "%q → %q: the target is not in scheme.allowed", from, to)
		}
		n.upgrade = append(n.upgrade, [2]string{from, to})
	}
	if a := p.Scheme.Assume; a != "" && specialPort(a) < 0 {
		return p.bad("scheme.assume", "%q must be a special scheme with a host (http, https, ws, wss, ftp)", a)
	}
	n.assume = p.Scheme.Assume
	return nil
}

func (n *Normalizer) compileHost(p *Profile) error {
	switch p.Host.Charset {
	case "", CharsetWHATWG, CharsetRFC3986, CharsetDNS:
	default:
		return p.bad("host.charset", "unknown charset %q", p.Host.Charset)
	}
	for k, v := range p.Host.Map {
		if k == "" || v == "" || k != asciiLower(k) || v != asciiLower(v) {
			return p.bad("host.map", "%q → %q: hosts must be non-empty and lowercase", k, v)
		}
		if _, ok := p.Host.Map[v]; ok {
			return p.bad("host.map", "%q → %q: the target is itself mapped (chains are not allowed)", k, v)
		}
	}
	switch p.Host.StripWWW {
	case "", StripWWWLabel, StripWWWDigits:
	default:
		return p.bad("host.strip_www", "unknown value %q (want %s or %s)", p.Host.StripWWW, StripWWWLabel, StripWWWDigits)
	}
	n.host, n.charset, n.hostTo = p.Host, charsetBits[p.Host.Charset], newHostMap(p.Host.Map)
	n.k.www = wwwRules[p.Host.StripWWW]
	for _, k := range slices.Sorted(maps.Keys(p.Host.Map)) {
		v := p.Host.Map[k]
		if err := n.checkHostTarget(v); err != nil {
			return p.bad("host.map", "%q → %q: %v", k, v, err)
		}
		// A target strip_www would change is changed on the next pass
		// (not idempotent); a key it changes is never seen.
		if h := n.stripWWW(v); h != v {
			return p.bad("host.map", "%q → %q: host.strip_www makes the target %q", k, v, h)
		}
		if h := n.stripWWW(k); h != k {
			return p.bad("host.map", "%q → %q: host.strip_www makes the host %q, so this entry never applies", k, v, h)
		}
	}
	return nil
}

// checkHostTarget reports why the host.map target v would not normalize
// to itself (FuzzLoad: "utm_*" under charset dns made outputs the profile
// refuses): it must be a host as the parser writes it (lowercase,
// punycode, no port) that passes the profile's host rules.
func (n *Normalizer) checkHostTarget(v string) error {
	u, err := Parse("http://" + v + "/")
	switch {
	case err != nil || u.Host() != v:
		return fmt.Errorf("the target is not a host in canonical form")
	case u.HostKind() != HostDomain:
		return nil
	case !n.hostCharsOK(u):
		return fmt.Errorf("the target is outside host.charset %s", n.host.Charset)
	case n.host.RequireDot && !strings.Contains(v, ".") && v != "localhost":
		return fmt.Errorf("the target has no dot (host.require_dot)")
	case n.host.StripTrailingDot && strings.HasSuffix(v, "."):
		return fmt.Errorf("the target ends in a dot (host.strip_trailing_dot)")
	}
	return nil
}

func (n *Normalizer) compileUserinfo(p *Profile) error {
	n.k.noUserinfo = p.Userinfo.Remove
	return nil
}

func (n *Normalizer) compilePort(p *Profile) error {
	for s, port := range p.Port.Defaults {
		if port < 0 || port > 65535 {
			return p.bad("port.defaults", "%s: port %d out of range", s, port)
		}
	}
	n.defaults, n.k.noPorts = p.Port.Defaults, p.Port.RemoveAll
	return nil
}

func (n *Normalizer) compilePath(p *Profile) error {
	switch p.Path.TrailingSlash {
	case "", SlashKeep, SlashRemove, SlashRemoveExceptRoot:
	default:
		return p.bad("path.trailing_slash", "unknown value %q", p.Path.TrailingSlash)
	}
	n.slash, n.collapse, n.emptyDir = slashRules[p.Path.TrailingSlash], p.Path.CollapseSlashes, p.Path.EmptyPathSlash
	if p.Path.KeepSchemeSlashes && !p.Path.CollapseSlashes {
		return p.bad("path.keep_scheme_slashes", "needs path.collapse_slashes")
	}
	if p.Path.RemoveLoneRoot && p.Path.EmptyPathSlash {
		return p.bad("path.remove_lone_root", "contradicts path.empty_path_slash (one adds the root slash the other removes)")
	}
	n.k.loneRoot, n.k.schemeSlashes, n.k.lowerPath = p.Path.RemoveLoneRoot, p.Path.KeepSchemeSlashes, p.Path.Lowercase
	var err error
	if n.pathGroups, err = compileGroups(p, "path.remove_params", p.Path.RemoveParams); err != nil {
		return err
	}
	n.k.cookieless, err = compileGroups(p, "path.remove_cookieless", p.Path.RemoveCookieless)
	n.k.slow = n.k.www != wwwKeep || n.k.noPorts || n.k.lowerPath || len(n.k.cookieless) > 0
	return err
}

func (n *Normalizer) compilePercent(p *Profile) error {
	n.pct = p.Percent
	n.pctAny = p.Percent.UppercaseHex || p.Percent.DecodeUnreserved || p.Percent.EncodeStray || p.Percent.DecodeRepeatedly
	return nil
}

func (n *Normalizer) compileQuery(p *Profile) error {
	switch p.Query.Order {
	case "", OrderKeep, OrderPair, OrderKeyValue, OrderKey:
	default:
		return p.bad("query.order", "unknown value %q", p.Query.Order)
	}
	var err error
	if n.base, err = compileGroups(p, "query.remove", p.Query.Remove); err != nil {
		return err
	}
	if n.keep, err = compileMatcher(p.Query.Keep); err != nil {
		return p.bad("query.keep", "%v", err)
	}
	n.query, n.fragment = p.Query, p.Fragment.Remove
	if err := n.compileQueryKnobs(p); err != nil {
		return err
	}
	n.k.textDirective = p.Fragment.StripTextDirective
	n.k.fragAny = n.k.textDirective || p.Percent.DecodeRepeatedly
	n.order = n.orderOf(p.Query.Order)
	// appendEndsKept's orders: none, or one sortKeys decides on whole
	// pieces (not sort_decoded, which reads escapes; a "k=" cut to "k"
	// changes a pair's bytes and key_value's "k" before "k=", not a key).
	n.endsKeyed = n.order == nil || !n.k.sortDecoded && (!p.Query.BareEmptyValue || p.Query.Order == OrderKey)
	n.pairQ = p.Query.Order == OrderPair && !n.k.sortDecoded
	// Split the query into parameters only when a rule works on them.
	n.needParams = p.Query.Order != "" && p.Query.Order != OrderKeep ||
		len(n.base) > 0 || p.Pagination != nil || len(p.Hosts) > 0 ||
		p.Query.DropEmptyPairs || p.Query.BareEmptyValue || p.Query.FormEncoding || p.Query.ExplicitEmptyValue || p.Query.Lowercase
	return nil
}

func (n *Normalizer) compileHash(p *Profile) error {
	if p.Hash == "" { // required, like version: a key's hash is part of its contract
		return p.bad("hash", "missing hash (want %s)", strings.Join(hashAlgorithms[:], " or "))
	}
	if !slices.Contains(hashAlgorithms[:], p.Hash) {
		return p.bad("hash", "unknown hash %q (want %s)", p.Hash, strings.Join(hashAlgorithms[:], " or "))
	}
	n.hash = p.Hash
	return nil
}

func (n *Normalizer) compileLimits(p *Profile) error {
	if p.Limits.MaxLength < 0 || p.Limits.MaxParams < 0 {
		return p.bad("limits", "limits must not be negative")
	}
	if p.Limits.MaxLength > maxLimitLength {
		return p.bad("limits.max_length", "%d is over the largest limit, %d (1 GiB)", p.Limits.MaxLength, maxLimitLength)
	}
	n.maxLen, n.maxParams = p.Limits.MaxLength, p.Limits.MaxParams
	if n.maxLen == 0 {
		n.maxLen = DefaultMaxLength
	}
	if n.maxParams == 0 {
		n.maxParams = DefaultMaxParams
	}
	n.k.finishLen = n.maxLen
	if n.k.loneRoot {
		n.k.finishLen = -1
	}
	return nil
}

func (n *Normalizer) compilePagination(p *Profile) error {
	if p.Pagination == nil {
		return nil
	}
	var err error
	if n.page, err = compileMatcher(p.Pagination.Params); err != nil {
		return p.bad("pagination.params", "%v", err)
	}
	return nil
}

func (n *Normalizer) compileLanguage(p *Profile) error {
	l := p.Language
	if l == nil {
		return nil
	}
	if l.Preferred == "" {
		return p.bad("language.preferred", "missing preferred language")
	}
	if !isLangCode(l.Preferred) {
		return p.bad("language.preferred", "language code %q is not a path segment (letters, digits, -._~; not . or ..)", l.Preferred)
	}
	if n.k.lowerPath && hasUpperASCII(l.Preferred) {
		return p.bad("language.preferred", "language code %q has capitals, which path.lowercase never leaves", l.Preferred)
	}
	lang := map[string]*LanguageHost{}
	for i := range l.Hosts {
		h := &l.Hosts[i]
		field := fmt.Sprintf("language.hosts[%d]", i)
		if h.Host == "" || h.Segment < 0 || len(h.Languages) == 0 {
			return p.bad(field, "needs host, segment ≥ 0 and languages")
		}
		if _, dup := lang[h.Host]; dup || h.Host != asciiLower(h.Host) {
			return p.bad(field+".host", "host %q must be lowercase and listed once", h.Host)
		}
		codes := h.Languages
		if h.Preferred != "" {
			codes = append(codes[:len(codes):len(codes)], h.Preferred)
		}
		for _, code := range codes {
			if !isLangCode(code) {
				return p.bad(field, "language code %q is not a path segment (letters, digits, -._~; not . or ..)", code)
			}
			if n.k.lowerPath && hasUpperASCII(code) {
				return p.bad(field, "language code %q has capitals, which path.lowercase never leaves", code)
			}
		}
		lang[h.Host] = h
	}
	n.preferred, n.lang = l.Preferred, newHostMap(lang)
	return nil
}

// isLangCode reports whether code can be written as a path segment as it
// is: bytes the URL parser leaves alone everywhere (RFC 3986 unreserved),
// and not a dot segment, which the parser would resolve. Anything else
// would change when the output is normalized again ("es/ca" makes two
// segments; FuzzLoad).
func isLangCode(code string) bool {
	notUnreserved := func(r rune) bool { return r >= 0x80 || !unreserved[r] }
	return code != "" && code != "." && code != ".." && strings.IndexFunc(code, notUnreserved) < 0
}

// compileGroups compiles the removal groups of field.
func compileGroups(p *Profile, field string, gs []ParamGroup) (ruleSet, error) {
	var rs ruleSet
	for i, g := range gs {
		if g.Reason == "" {
			return nil, p.bad(field, "group %d has no reason", i)
		}
		m, err := compileMatcher(g.Patterns)
		if err != nil {
			return nil, p.bad(field, "%s: %v", g.Reason, err)
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

// compileHosts compiles the per-host rules; their rewrites wait for
// compileRewrites.
func (n *Normalizer) compileHosts(p *Profile) error {
	if len(p.Hosts) == 0 {
		return nil
	}
	hosts := map[string]*hostRule{}
	root := p.Query.Tracking()
	for i, h := range p.Hosts {
		field := fmt.Sprintf("hosts[%d]", i)
		if h.Host == "" || h.Host != asciiLower(h.Host) {
			return p.bad(field+".host", "host %q must be non-empty and lowercase", h.Host)
		}
		if n.stripWWW(h.Host) != h.Host {
			return p.bad(field+".host", "host %q never applies: host.strip_www removes its www label", h.Host)
		}
		if _, dup := hosts[h.Host]; dup {
			return p.bad(field+".host", "host %q is listed twice (the first entry would always win)", h.Host)
		}
		hr, err := compileHostRule(p, field, root.With(h.Tracking), h)
		if err != nil {
			return err
		}
		hosts[h.Host] = hr
	}
	n.hosts = newHostMap(hosts)
	return nil
}

// compileHostRule compiles one host's tracking groups and path rules; ht
// is the host's tracking list.
func compileHostRule(p *Profile, field string, ht Tracking, h HostRule) (*hostRule, error) {
	if err := h.Tracking.check(); err != nil {
		return nil, p.bad(field+".tracking", "%v", err)
	}
	groups, err := compileGroups(p, field+".tracking", ht.Groups(p.Query.Remove))
	if err != nil {
		return nil, err
	}
	hr := &hostRule{groups: groups}
	for j, r := range h.Paths {
		pf := fmt.Sprintf("%s.paths[%d]", field, j)
		re, glob, err := compilePathMatch(r.Match)
		if err != nil {
			return nil, p.bad(pf+".match", "%v", err)
		}
		if err := r.Tracking.check(); err != nil {
			return nil, p.bad(pf+".tracking", "%v", err)
		}
		groups, err := compileGroups(p, pf+".tracking", ht.With(r.Tracking).Groups(p.Query.Remove))
		if err != nil {
			return nil, err
		}
		hr.paths = append(hr.paths, pathRule{glob: glob, re: re, groups: groups})
	}
	for j, r := range h.Rewrite {
		if r.FromPrefix == "" || r.ToPrefix == "" {
			return nil, p.bad(fmt.Sprintf("%s.rewrite[%d]", field, j), "from_prefix and to_prefix are required")
		}
	}
	return hr, nil
}

// compileRewrites compiles the hosts' rewrite rules. They need the
// normalizer itself: each from_prefix is normalized to find the whole URL
// it also matches, then every rule is run to a fixed point to reject
// cycles at load time.
func (n *Normalizer) compileRewrites(p *Profile) error {
	n.maxDepth = 1
	for i, h := range p.Hosts {
		hr, _ := n.hosts.get(h.Host)
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
