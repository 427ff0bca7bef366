package normalize

import (
	"fmt"
	"math/bits"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// Bounds of a configured pattern: its cost per URL is set by the profile,
// not by the URL, so a pattern that would make every URL slow is refused
// when the profile compiles (a config error that names the field), not
// met at run time (issue 16.1; docs/profiles.md "Limits" has the
// measured worst cases).
const (
	// maxPatternLen bounds the source of a parameter pattern or a path
	// glob. A glob matches in one scan of the name or path, so this only
	// keeps configurations sane.
	maxPatternLen = 512
	// maxPatternInsts bounds a regexp's compiled program: the instructions
	// of regexp/syntax's program after Simplify, exactly what package
	// regexp runs. RE2 is linear in its input, but on the long inputs an
	// attacker sends (a 64 KB key) regexp runs its NFA, which steps every
	// live instruction at every byte: time is bytes × instructions, and a
	// 40-byte source can compile to thousands ("\w{1,1000}"). Real
	// patterns use 4 to 90 (an anchored list of ten names).
	maxPatternInsts = 100
)

// A pattern matches a query (or path) parameter name. Syntax, the same in
// every profile and config file (edge-gateway.md "Pattern types"):
//
//	fbclid        exact name, ASCII case-insensitive
//	utm_*         wildcard: '*' matches any run of bytes, case-insensitive
//	~^gclid.*     regular expression (RE2), case-sensitive
//	~*^gclid.*    regular expression, case-insensitive
type pattern struct {
	src  string
	lit  string // lowercased literal
	glob *glob  // lowercased, when src has a '*'
	re   *regexp.Regexp
	pre  prefilter // what a name re matches must have (regexps only)
}

// prefilter is what every string a regexp matches has, read from its
// syntax tree: a literal it contains (ASCII, lowercased, "" for none), a
// least length in bytes and, for a regexp anchored at both ends, a bound
// on its length in bytes (-1 for none). A name without them is no match,
// known without running the regexp (a run costs hundreds of
// instructions: crawler-commons' "~^$" on every key, clara's
// "~*^[A-Za-z]*session[A-Za-z]*$").
type prefilter struct {
	need           string
	minLen, maxLen int
	prefix         *prefixRegexp // decides an anchored prefix regexp on ASCII names (pattern_prefix.go), nil for none
}

// CheckPattern reports whether src is a valid parameter pattern, and why
// not (for configuration loaders that name the offending entry).
func CheckPattern(src string) error {
	_, err := compilePattern(src)
	return err
}

func compilePattern(src string) (pattern, error) {
	if src == "" {
		return pattern{}, fmt.Errorf("empty pattern")
	}
	if len(src) > maxPatternLen {
		return pattern{}, fmt.Errorf("pattern %.20q… has %d bytes, over the limit of %d", src, len(src), maxPatternLen)
	}
	if rest, ok := strings.CutPrefix(src, "~*"); ok {
		re, err := compileRegexp(src, "(?i)"+rest)
		return pattern{src: src, re: re, pre: prefilterOf("(?i)" + rest)}, err
	}
	if rest, ok := strings.CutPrefix(src, "~"); ok {
		re, err := compileRegexp(src, rest)
		return pattern{src: src, re: re, pre: prefilterOf(rest)}, err
	}
	p := pattern{src: src, lit: asciiLower(src)}
	if strings.Contains(src, "*") {
		g := compileGlob(p.lit)
		p.glob = &g
	}
	return p, nil
}

// compileRegexp compiles expr, the regexp of the pattern src, within
// maxPatternInsts.
func compileRegexp(src, expr string) (*regexp.Regexp, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("bad regexp %q: %v", src, err)
	}
	if n := progSize(expr); n > maxPatternInsts {
		return nil, fmt.Errorf("regexp %q compiles to %d instructions, over the limit of %d (its time per URL is the bytes it reads × its instructions): use exact names or '*' globs, or a shorter repetition", src, n, maxPatternInsts)
	}
	return re, nil
}

// progSize returns the number of instructions of expr's program, compiled
// as regexp.Compile compiles it (expr has compiled, so no step fails).
func progSize(expr string) int {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return 0
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return 0
	}
	return len(prog.Inst)
}

// prefilterOf reads the prefilter of expr (compiled: it parses).
func prefilterOf(expr string) prefilter {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return prefilter{maxLen: -1}
	}
	f := prefilter{need: required(re), minLen: minRunes(re), maxLen: -1, prefix: prefixOf(re)}
	if re.Op == syntax.OpConcat && len(re.Sub) >= 2 && re.Sub[0].Op == syntax.OpBeginText && re.Sub[len(re.Sub)-1].Op == syntax.OpEndText {
		f.maxLen = maxBytes(re) // anchored at both ends: the match is the name
	}
	return f
}

// may reports whether a regexp with the prefilter f may match name. A
// non-ASCII name is always let through: under (?i) 'k' matches the Kelvin
// sign and 's' the long s, which lowercasing ASCII does not see.
// Inline (matcher.match): both bounds in one unsigned compare, where a
// length under minLen, and any length when maxLen is -1, wraps around.
func (f *prefilter) may(name string) bool {
	return uint(len(name)-f.minLen) <= uint(f.maxLen-f.minLen) && containsFoldOrHigh(name, f.need)
}

// required returns a literal that every match of re contains, ASCII and
// lowercased (re's case or (?i) aside), or "" when it finds none: a
// literal, or the longest one a concatenation requires of its parts.
func required(re *syntax.Regexp) string {
	switch re.Op {
	case syntax.OpLiteral:
		b := make([]byte, 0, len(re.Rune))
		for _, r := range re.Rune {
			if r >= 0x80 {
				return ""
			}
			b = append(b, lower(byte(r)))
		}
		return string(b)
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		best := ""
		for _, s := range re.Sub {
			if r := required(s); len(r) > len(best) {
				best = r
			}
		}
		return best
	}
	return ""
}

// minRunes returns the fewest runes a match of re has, which is also the
// fewest bytes: a rune is a byte at least, and regexp matches a byte that
// is not UTF-8 as one rune (U+FFFD). A name shorter than it is no match,
// even for a regexp not anchored, whose match is a part of the name:
// clara's session regexp needs 7 bytes, and rules out the one-letter keys
// of web_dirty (half of them) without a call.
func minRunes(re *syntax.Regexp) int {
	const most = 1 << 20 // a bound on the sums: nested repeats multiply
	switch re.Op {
	case syntax.OpLiteral:
		return min(len(re.Rune), most)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minRunes(re.Sub[0])
	case syntax.OpRepeat:
		return min(re.Min*minRunes(re.Sub[0]), most)
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n = min(n+minRunes(s), most)
		}
		return n
	case syntax.OpAlternate:
		n := most
		for _, s := range re.Sub {
			n = min(n, minRunes(s))
		}
		return n
	}
	return 0 // empty, an anchor, star, quest, no match, an unknown op
}

// maxBytes returns the most bytes a match of re can have, or -1 when
// there is no bound. A rune counts utf8.UTFMax bytes unless it is an ASCII
// literal matched with its case (under (?i) 'k' matches the 3-byte Kelvin
// sign) or from a class of ASCII ranges.
func maxBytes(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpNoMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			if r < 0x80 && re.Flags&syntax.FoldCase == 0 {
				n++
			} else {
				n += utf8.UTFMax
			}
		}
		return n
	case syntax.OpCharClass:
		if len(re.Rune) > 0 && re.Rune[len(re.Rune)-1] < 0x80 {
			return 1 // ASCII ranges only ((?i) has added the folds)
		}
		return utf8.UTFMax
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return utf8.UTFMax
	case syntax.OpCapture, syntax.OpQuest:
		return maxBytes(re.Sub[0])
	case syntax.OpRepeat:
		if n := maxBytes(re.Sub[0]); n >= 0 && re.Max >= 0 {
			return n * re.Max
		}
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, s := range re.Sub {
			n := maxBytes(s)
			switch {
			case n < 0:
				return -1
			case re.Op == syntax.OpConcat:
				total += n
			default:
				total = max(total, n)
			}
		}
		return total
	}
	return -1 // star, plus, an unknown op
}

// containsFoldOrHigh reports whether s contains lit (lowercase ASCII; ""
// is in every s), ASCII case-insensitively, or a byte that is not ASCII: 8 bytes
// a step, the places of lit's first byte and the top bits read from each
// word (eqBytes), lit compared only there. The byte loops it replaces, a
// search of lit at every place and then a test of every byte, cost clara
// 140 instructions per key of 7 bytes or more (its session regexp's
// prefilter), 55 per URL of web_dirty.
func containsFoldOrHigh(s, lit string) bool {
	if lit == "" {
		return true
	}
	c := lit[0]
	var fold uint64 // or-ed with the bytes of s: A-Z are then a-z (only 'S' and 's' become 's')
	if c >= 'a' && c <= 'z' {
		fold = 0x20 * ones
	}
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := le64(s[i:])
		if w&(0x80*ones) != 0 {
			return true
		}
		for m := eqBytes(w|fold, c); m != 0; m &= m - 1 {
			if j := i + bits.TrailingZeros64(m)>>3; hasPrefixFold(s[j:], lit) {
				return true
			}
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= 0x80 || s[i]|byte(fold) == c && hasPrefixFold(s[i:], lit) {
			return true
		}
	}
	return false
}

// match reports whether the pattern matches name; lower is name
// ASCII-lowercased (exact names and globs match case-insensitively).
func (p *pattern) match(name, lower string) bool {
	switch {
	case p.re != nil:
		return p.reMatch(name)
	case p.glob != nil:
		return p.glob.match(lower)
	}
	return lower == p.lit
}

// A glob matches a whole string; '*' matches any run of bytes and every
// other byte matches itself. Compiled, it is the part before the first
// star, the part after the last and the stars and pieces between
// (middle, "" or "*piece*…piece").
type glob struct {
	prefix, middle, suffix string
	star                   bool
}

func compileGlob(src string) glob {
	first := strings.IndexByte(src, '*')
	if first < 0 {
		return glob{prefix: src}
	}
	last := strings.LastIndexByte(src, '*')
	return glob{prefix: src[:first], middle: src[first:last], suffix: src[last+1:], star: true}
}

// match reports whether s matches the glob. Between the first and the
// last star, each piece is taken at its first place after the previous
// one: the earliest place leaves the most room for the rest, so there is
// nothing to backtrack to, and the cost is one scan of s whatever the
// glob, O(len(s) + len(glob)) (issue 16.1: backtracking to the last star
// was O(len(s) × len(glob)), 0.7 s for one URL with a 20 KB glob).
func (g *glob) match(s string) bool {
	if !g.star {
		return s == g.prefix
	}
	if len(s) < len(g.prefix)+len(g.suffix) || !strings.HasPrefix(s, g.prefix) || !strings.HasSuffix(s, g.suffix) {
		return false
	}
	s = s[len(g.prefix) : len(s)-len(g.suffix)]
	for mid := g.middle; mid != ""; {
		mid = mid[1:] // the star
		piece := mid
		if i := strings.IndexByte(mid, '*'); i >= 0 {
			piece, mid = mid[:i], mid[i:]
		} else {
			mid = ""
		}
		i := strings.Index(s, piece)
		if i < 0 {
			return false
		}
		s = s[i+len(piece):]
	}
	return true
}

// matcher is a compiled list of patterns.
type matcher struct {
	exact nameSet  // lowercased exact names
	lits  []string // the same, for the reference (ref)
	other []pattern
	ref   bool // the reference: exact names by a scan of lits (unfilter)
	globs bool // other has a glob
	// firsts is what a name an exact name or a glob matches has, its
	// length and its first byte together: word min(len, 15) has bit
	// b&63 for a first byte b, in both cases (the name is not lowercased
	// to be tested), and is all ones for "" when a glob matches it. Most
	// query keys are in no word, and are then not looked up (clara's
	// groups, pagination and keep lists cost 1,100 instructions a URL on
	// web_dirty before; with a filter of the lengths and one of the
	// first bytes, apart, the one-letter keys "m" and "a" of web_dirty
	// passed clara's, for its "p" and its names that start with 'm' and
	// 'a').
	firsts firstsFilter
	// reLens has the bit (lenBit) of every length a regexp of m may
	// match (prefilter minLen to maxLen; 0 when m has none): a name of
	// another length runs none of them, nor the loop over them
	// (crawler-commons' "~^$" meets every key; clara's session regexp
	// needs 7 bytes, and the one-letter keys are half of web_dirty's).
	reLens uint64
	// some is firsts with, in the row of each length a regexp may match,
	// the first bytes it may start with (prefixRegexp.firstBits: "u" and
	// "U" for normalize-url's "~*^utm_\w", whose all-ones rows let every
	// key of 5 bytes or more of web_dirty reach matchOther, 2,620 → 2,559
	// instructions per URL; all ones for other regexps): what any pattern
	// of m may match, one inline test (may) in front of match's call
	// (ruleSet.match, removes: the call cost clara 25 instructions per
	// matcher that a key meets, 4 per key).
	some firstsFilter
}

func compileMatcher(srcs []string) (*matcher, error) {
	m := &matcher{}
	for _, s := range srcs {
		p, err := compilePattern(s)
		if err != nil {
			return nil, err
		}
		switch {
		case p.re != nil:
			m.other = append(m.other, p)
			m.reLens |= lenRange(p.pre.minLen, p.pre.maxLen)
			continue
		case p.glob == nil:
			m.lits = append(m.lits, p.lit)
			m.firsts.add(len(p.lit), len(p.lit), p.lit[0])
		default:
			m.other, m.globs = append(m.other, p), true
			m.firsts.add(len(p.glob.prefix)+len(p.glob.suffix), -1, p.lit[0]) // a star matches any run
		}
	}
	m.exact = newNameSet(m.lits)
	m.some = m.firsts
	for _, p := range m.other {
		if p.re == nil {
			continue
		}
		first := ^uint64(0) // a regexp may match a name of its lengths whatever its first byte,
		if d := p.pre.prefix; d != nil {
			first = d.firstBits() // unless it starts with a piece of ASCII runes ("(?i)^utm_\w": u or U)
		}
		for i := range m.some {
			if lenRange(p.pre.minLen, p.pre.maxLen)&firstRowLens(i) != 0 {
				m.some[i] |= first
				if i == 0 {
					m.some[i] = ^uint64(0) // "": no first byte to test (firstsFilter.may)
				}
			}
		}
	}
	return m, nil
}

// lenRange returns the length filter (lenBit) of the lengths lo to hi
// (-1: no bound).
func lenRange(lo, hi int) uint64 {
	f := ^(lenBit(lo) - 1)
	if hi >= 0 {
		f &= lenBit(hi)<<1 - 1 // all ones when hi's bit is 63
	}
	return f
}

func (m *matcher) empty() bool { return m == nil || (len(m.lits) == 0 && len(m.other) == 0) }

// firstRows is the number of lengths firsts tells apart: the last row
// is every length from firstRows-1 on.
const firstRows = 16

// firstsFilter is a matcher's filter of names by length and first byte
// (matcher.firsts).
type firstsFilter [firstRows]uint64

// add lets through the names of lo to hi bytes (-1: no bound) that start
// with c, in either case, or with any byte when c is '*' (a glob's star).
func (f *firstsFilter) add(lo, hi int, c byte) {
	bits := uint64(1)<<(c&63) | uint64(1)<<(upper(c)&63)
	if c == '*' {
		bits = ^uint64(0)
	}
	last := firstRows - 1 // the row of every length from there
	if hi >= 0 {
		last = min(hi, last)
	}
	for l := min(lo, firstRows-1); l <= last; l++ {
		f[l] |= bits // row 0 only for a glob of stars alone: all ones, and may reads no first byte of ""
	}
}

// firstRowLens returns the length filter (lenBit) of the lengths of the
// row i of a firstsFilter.
func firstRowLens(i int) uint64 {
	if i == firstRows-1 {
		return lenRange(i, -1)
	}
	return lenBit(i)
}

// may reports whether the filter lets name through: a load and a bit
// test, inline.
func (f *firstsFilter) may(name string) bool {
	w := f[min(len(name), firstRows-1)]
	return w != 0 && (w == ^uint64(0) || w>>(name[0]&63)&1 != 0) // a word for "" is 0 or all ones
}

// may reports whether a pattern of m may match name (some): false means
// match is false; inline.
func (m *matcher) may(name string) bool { return m.some.may(name) }

// mayFold reports whether an exact name or a glob of m may match name.
func (m *matcher) mayFold(name string) bool { return m.firsts.may(name) }

// unfilter makes every name pass m's prefilters and its regexps', and
// the exact names compared one by one (matchFoldRef) in place of the
// nameSet: the reference (useReference).
func (m *matcher) unfilter() {
	if m == nil {
		return
	}
	for i := range m.firsts {
		m.firsts[i], m.some[i] = ^uint64(0), ^uint64(0)
	}
	m.reLens, m.ref = ^uint64(0), true
	for i := range m.other {
		m.other[i].pre = prefilter{maxLen: -1}
	}
}

func (m *matcher) match(name string) bool {
	if m == nil {
		return false
	}
	// The exact names here: a call less on the way to the lookup.
	return !m.ref && m.mayFold(name) && m.exact.has(name) || m.matchOther(name)
}

// matchOther reports whether a glob or a regexp of m matches name (for
// the reference, an exact name too: matchFoldRef): match without the
// exact names, which keyRules looks up for all its matchers at once.
func (m *matcher) matchOther(name string) bool {
	if (m.globs || m.ref) && m.mayFold(name) && m.matchFold(name) {
		return true
	}
	if m.reLens&lenBit(len(name)) == 0 {
		return false
	}
	for i := range m.other {
		if p := &m.other[i]; p.re != nil && p.reMatch(name) { // pattern.match, a call less
			return true
		}
	}
	return false
}

// matchFold reports whether a glob of m matches name (or, for the
// reference, an exact name or a glob: matchFoldRef). Apart from match, so
// that a name mayFold rules out costs no buffer.
func (m *matcher) matchFold(name string) bool {
	if m.ref {
		return m.matchFoldRef(name)
	}
	// Lowercase for the globs; a short name in a buffer on the stack.
	var buf [64]byte
	lower := name
	if len(name) <= len(buf) {
		lower = bstr(appendLower(buf[:0], name))
	} else {
		lower = asciiLower(name)
	}
	for i := range m.other {
		if p := &m.other[i]; p.re == nil && p.match(name, lower) {
			return true
		}
	}
	return false
}

// matchFoldRef is matchFold for the reference: the name lowercased,
// compared with each exact name, then the globs.
func (m *matcher) matchFoldRef(name string) bool {
	lower := asciiLower(name)
	if slices.Contains(m.lits, lower) {
		return true
	}
	for i := range m.other {
		if p := &m.other[i]; p.re == nil && p.match(name, lower) {
			return true
		}
	}
	return false
}

// nameSet is a set of names (lowercased) that a name is looked up in
// ASCII case-insensitively without lowercasing it into a buffer and
// hashing the copy (a Go map): the name's words are lowercased as they
// are read (nameSlot), hashed and compared with the slot's. Open
// addressing, linear probing; at most half the slots are full.
type nameSet struct {
	slots []nameSlot // a power of two of them; nil for no name
	shift uint       // 64 - log2(len(slots)): the hash's top bits pick the home slot
}

// nameSlot holds a name of the set: its length (0: an empty slot; a name
// is not empty), its words a and b, which are the whole name up to 16
// bytes, and the name itself, compared in full when it is longer. The
// words are the name's first 8 bytes and its last 8, ASCII-lowercased
// (lowerWord); they overlap when it is shorter than 16 bytes; b is 0 when
// it is shorter than 8, whose bytes a holds: the first 4 and the last 4,
// or for fewer than 4 the first, the middle and the last. Two names of
// the same length up to 16 bytes with the same words are the same name,
// case aside.
type nameSlot struct {
	n    int
	a, b uint64
	name string
	bits uint64 // what the name is to the set's owner (keyRules: a bit per matcher that has it)
}

func newNameSet(names []string) nameSet {
	s := makeNameSet(len(names))
	for _, name := range names {
		s.add(name, 0)
	}
	return s
}

// makeNameSet returns an empty set with room for count names.
func makeNameSet(count int) nameSet {
	if count == 0 {
		return nameSet{}
	}
	size := 4
	for size < 2*count {
		size *= 2
	}
	return nameSet{slots: make([]nameSlot, size), shift: uint(64 - bits.TrailingZeros(uint(size)))}
}

// add puts name (not empty) in s, which has room for it (makeNameSet),
// with the bits x, or-ed with its bits when it is there already (a name
// listed twice, or by two matchers).
func (s *nameSet) add(name string, x uint64) {
	i, a, b, found := s.find(name)
	if !found {
		s.slots[i] = nameSlot{n: len(name), a: a, b: b, name: name}
	}
	s.slots[i].bits |= x
}

// bitsOf returns the bits of name in s (add), 0 when s does not hold it.
func (s *nameSet) bitsOf(name string) uint64 {
	if i, _, _, found := s.find(name); found {
		return s.slots[i].bits
	}
	return 0
}

// home returns the first slot to probe for a name of n bytes and words a
// and b.
func (s *nameSet) home(a, b uint64, n int) int {
	return int((a ^ b*0x9E3779B97F4A7C15 ^ uint64(n)) * 0xBF58476D1CE4E5B9 >> s.shift)
}

// has reports whether the set holds name, ASCII case-insensitively.
func (s *nameSet) has(name string) bool {
	_, _, _, found := s.find(name)
	return found
}

// find returns the slot of name (found) or the empty slot where it would
// go (name not empty, the set not empty), and its words (nameSlot): one
// call per lookup (with the words apart, two).
func (s *nameSet) find(name string) (i int, a, b uint64, found bool) {
	if len(s.slots) == 0 || name == "" {
		return 0, 0, 0, false
	}
	switch n := len(name); {
	case n >= 8:
		a, b = lowerWord(le64(name)), lowerWord(le64(name[n-8:]))
	case n >= 4:
		a = lowerWord(uint64(le32(name)) | uint64(le32(name[n-4:]))<<32)
	default:
		a = lowerWord(uint64(name[0]) | uint64(name[n/2])<<8 | uint64(name[n-1])<<16)
	}
	for i = s.home(a, b, len(name)); ; i = (i + 1) & (len(s.slots) - 1) {
		e := &s.slots[i]
		if e.n == 0 {
			return i, a, b, false
		}
		if e.a == a && e.b == b && e.n == len(name) && (len(name) <= 16 || equalFold(name, e.name)) {
			return i, a, b, true
		}
	}
}

// asciiLower lowercases ASCII letters only (names match ASCII
// case-insensitively, never by Unicode case folding).
func asciiLower(s string) string {
	if !hasUpperASCII(s) {
		return s
	}
	return string(appendLower(nil, s))
}

// CheckPathMatch reports whether src is a valid PathRule.Match: a glob
// starting with '/' or a "~" / "~*" regexp.
func CheckPathMatch(src string) error {
	_, _, err := compilePathMatch(src)
	return err
}

// compilePathMatch compiles a PathRule pattern: a regexp, or a
// case-sensitive glob, which must start with '/'. Both have the bounds of
// parameter patterns.
func compilePathMatch(src string) (*regexp.Regexp, glob, error) {
	p, err := compilePattern(src)
	if err != nil || p.re != nil {
		return p.re, glob{}, err
	}
	if src[0] != '/' {
		return nil, glob{}, fmt.Errorf("path pattern %q must start with / (a glob) or ~ (a regexp)", src)
	}
	return nil, compileGlob(src), nil
}
