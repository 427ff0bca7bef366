package normalize

import (
	"fmt"
	"regexp"
	"strings"
)

// maxPatternLen bounds a configured pattern (regexps come from user
// configuration; RE2 is linear-time, the bound keeps compiled size sane).
const maxPatternLen = 512

// A pattern matches a query (or path) parameter name. Syntax, the same in
// every profile and config file (edge-gateway.md "Pattern types"):
//
//	fbclid        exact name, ASCII case-insensitive
//	utm_*         wildcard: '*' matches any run of bytes, case-insensitive
//	~^gclid.*     regular expression (RE2), case-sensitive
//	~*^gclid.*    regular expression, case-insensitive
type pattern struct {
	src  string
	lit  string // lowercased literal or glob
	glob bool
	re   *regexp.Regexp
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
		return pattern{}, fmt.Errorf("pattern longer than %d bytes", maxPatternLen)
	}
	if rest, ok := strings.CutPrefix(src, "~*"); ok {
		re, err := regexp.Compile("(?i)" + rest)
		if err != nil {
			return pattern{}, fmt.Errorf("bad regexp %q: %v", src, err)
		}
		return pattern{src: src, re: re}, nil
	}
	if rest, ok := strings.CutPrefix(src, "~"); ok {
		re, err := regexp.Compile(rest)
		if err != nil {
			return pattern{}, fmt.Errorf("bad regexp %q: %v", src, err)
		}
		return pattern{src: src, re: re}, nil
	}
	return pattern{src: src, lit: asciiLower(src), glob: strings.Contains(src, "*")}, nil
}

func (p *pattern) match(name string) bool {
	switch {
	case p.re != nil:
		return p.re.MatchString(name)
	case p.glob:
		return globMatch(p.lit, name, true)
	}
	return equalFold(name, p.lit)
}

// globMatch matches s against a glob where '*' matches any run of bytes
// (greedy with backtracking to the last star: linear for the one-star
// patterns configs use). With fold, s is compared ASCII-lowercased (the
// glob must be lowercase): parameter names match case-insensitively, paths
// do not.
func globMatch(glob, s string, fold bool) bool {
	gi, si := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		c := s[si]
		if fold {
			c = lower(c)
		}
		switch {
		case gi < len(glob) && glob[gi] == '*':
			star, mark = gi, si
			gi++
		case gi < len(glob) && glob[gi] == c:
			gi++
			si++
		case star >= 0:
			gi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for gi < len(glob) && glob[gi] == '*' {
		gi++
	}
	return gi == len(glob)
}

// matcher is a compiled list of patterns.
type matcher struct {
	exact map[string]bool // lowercased exact names
	other []pattern
}

func compileMatcher(srcs []string) (*matcher, error) {
	m := &matcher{exact: map[string]bool{}}
	for _, s := range srcs {
		p, err := compilePattern(s)
		if err != nil {
			return nil, err
		}
		if p.re == nil && !p.glob {
			m.exact[p.lit] = true
			continue
		}
		m.other = append(m.other, p)
	}
	return m, nil
}

func (m *matcher) empty() bool { return m == nil || (len(m.exact) == 0 && len(m.other) == 0) }

func (m *matcher) match(name string) bool {
	if m == nil {
		return false
	}
	if len(m.exact) > 0 {
		if len(name) <= 64 {
			var buf [64]byte
			for i := 0; i < len(name); i++ {
				buf[i] = lower(name[i])
			}
			if m.exact[string(buf[:len(name)])] {
				return true
			}
		} else if m.exact[asciiLower(name)] {
			return true
		}
	}
	for i := range m.other {
		if m.other[i].match(name) {
			return true
		}
	}
	return false
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
	_, err := compilePathMatch(src)
	return err
}

// compilePathMatch checks a PathRule pattern and returns its regexp (nil
// for a glob, which must start with '/').
func compilePathMatch(src string) (*regexp.Regexp, error) {
	if strings.HasPrefix(src, "~") {
		p, err := compilePattern(src)
		return p.re, err
	}
	if src == "" || src[0] != '/' {
		return nil, fmt.Errorf("path pattern %q must start with / (a glob) or ~ (a regexp)", src)
	}
	return nil, nil
}
