package normalize_test

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestPatternBounds: a pattern whose cost per URL is out of proportion is
// refused when the profile compiles, with a config error that names the
// field and says the limit (issue 16.1): a regexp over 100 program
// instructions (RE2's NFA steps each of them at each byte of a long
// key: "~*\w{1,1000}_id$" took 3.7 s on one 65 KB key, "~*\pL{1000}"×50
// 2 min 24 s), a pattern or a path glob over 512 bytes. At the limits,
// patterns compile.
func TestPatternBounds(t *testing.T) {
	glob := func(n int) string { return "/" + strings.Repeat("a*", n/2)[:n-1] }
	for _, c := range []struct {
		pattern string
		path    bool   // a hosts[].paths[].match, else a query.remove pattern
		why     string // "" compiles
	}{
		{`~*\w{1,1000}_id$`, false, "compiles to 2005 instructions, over the limit of 100"}, // the first case
		{"~*" + strings.Repeat(`\pL{1000}`, 50), false, "over the limit of 100"},            // its second (452 bytes)
		{`~*\w{1,48}_id$`, false, "compiles to 101 instructions"},                           // limit + 1
		{`~*\pL{1,49}x`, false, ""},                                                 // 100 instructions: at the limit
		{`~*^[A-Za-z]*session[A-Za-z]*$`, false, ""},                                // clara's: 15
		{`~*\w{1,1000}_id$`, true, "over the limit of 100"},                         // path regexps too
		{"x" + strings.Repeat("*", 512), false, "513 bytes, over the limit of 512"}, // a glob name pattern
		{glob(512), true, ""},                                                       // a path glob at the limit
		{glob(513), true, "513 bytes, over the limit of 512"},                       // over it
		{glob(20000), true, "over the limit of 512"},                                // the 20 KB url_rules glob
	} {
		p := normalize.MustLookup("default").Profile()
		p.Name = "bounds"
		field := "query.remove"
		if c.path {
			field = "hosts[0].paths[0].match"
			p.Hosts = []normalize.HostRule{{Host: "a.com", Paths: []normalize.PathRule{{Match: c.pattern}}}}
		} else {
			p.Query.Remove = append(p.Query.Remove, normalize.ParamGroup{Reason: "x", Patterns: []string{c.pattern}})
		}
		_, err := normalize.New(p)
		if c.why == "" {
			if err != nil {
				t.Errorf("%.40q: %v, want it to compile", c.pattern, err)
			}
			continue
		}
		if !errors.Is(err, normalize.ErrConfig) || !strings.Contains(err.Error(), "(field "+field+")") || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%.40q: %v; want an ErrConfig naming %s and saying %q", c.pattern, err, field, c.why)
		}
	}
}

// TestGlobMatch: '*' is any run of bytes ('/' included), everything else
// matches itself; globs of name patterns are ASCII case-insensitive, path
// globs are not.
func TestGlobMatch(t *testing.T) {
	p := normalize.MustLookup("default").Profile()
	p.Name = "globs"
	p.Query.Remove = append(p.Query.Remove, normalize.ParamGroup{Reason: "x", Patterns: []string{"a*b*c", "*_ref", "x**y"}})
	p.Hosts = []normalize.HostRule{{Host: "a.com", Paths: []normalize.PathRule{
		{Match: "/api/*/v*", Tracking: &normalize.ParamSet{Params: []string{"p"}}},
	}}}
	n, err := normalize.New(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{"http://h/p?abc=1&q", "http://h/p?q"},         // each star the empty run
		{"http://h/p?aXbYbZc=1&q", "http://h/p?q"},     // a piece found twice: its first place leaves room
		{"http://h/p?ABC=1&A_B_C=2&q", "http://h/p?q"}, // name globs ignore ASCII case
		{"http://h/p?acb=1", "http://h/p?acb=1"},       // pieces in order only
		{"http://h/p?ab=1", "http://h/p?ab=1"},         // the prefix and the suffix do not overlap
		{"http://h/p?cc_ref=1&_ref", "http://h/p"},     // a leading star
		{"http://h/p?xy=1&x-y=2&yx", "http://h/p?yx"},  // "**" is "*"
		{"https://a.com/api/1/v2?p=1&q", "https://a.com/api/1/v2?q"},
		{"https://a.com/api/1/2/v?p=1", "https://a.com/api/1/2/v"},   // '*' crosses '/'
		{"https://a.com/API/1/v2?p=1", "https://a.com/API/1/v2?p=1"}, // path globs are case-sensitive
		{"https://a.com/api/v?p=1", "https://a.com/api/v?p=1"},       // "/api/" and "/v" may not overlap
	} {
		if got, err := n.Normalize(c.in); err != nil || got != c.want {
			t.Errorf("%q = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// BenchmarkPatternWorstCase: one URL at the default length limit (64 KiB)
// against one pattern at its bounds, for the worst cases docs/profiles.md
// ("Limits") states: ns/op is the time per URL. A regexp is run on a
// 64 KiB key by RE2's NFA, whose time is bytes × live instructions; a
// glob is one scan whatever its pieces.
func BenchmarkPatternWorstCase(b *testing.B) {
	key := func(unit string) string {
		return strings.Repeat(unit, (normalize.DefaultMaxLength-32)/len(unit))
	}
	for _, c := range []struct {
		name, pattern string
		path          bool
		url           string
	}{
		{"regexp-100/class", `~*[a-z]{1,48}[0-9]$`, false, "http://h.example/p?" + key("a") + "=1"},
		{"regexp-100/unicode", `~*\pL{1,49}x`, false, "http://h.example/p?" + key("Aa") + "=1"},
		{"regexp-100/word", `~*\w{1,47}_id$`, false, "http://h.example/p?" + key("Aa") + "=1"},
		{"regexp-15/clara", `~*^[A-Za-z]*session[A-Za-z]*$`, false, "http://h.example/p?" + key("ab") + "=1"},
		{"glob-512/name", strings.Repeat("*a", 255) + "*b", false, "http://h.example/p?" + key("a") + "=1"},
		{"glob-512/path-piece", "/*" + strings.Repeat("a", 508) + "b*", true, "http://a.com/" + key("a")},
		{"glob-512/path-pieces", strings.Repeat("/*a", 170) + "b*", true, "http://a.com/" + key("/a")},
	} {
		p := normalize.MustLookup("default").Profile()
		p.Name = "worst"
		if c.path {
			p.Hosts = []normalize.HostRule{{Host: "a.com", Paths: []normalize.PathRule{{Match: c.pattern, Tracking: &normalize.ParamSet{Params: []string{"x"}}}}}}
			c.url += "?x=1"
		} else {
			p.Query.Remove = []normalize.ParamGroup{{Reason: "x", Patterns: []string{c.pattern}}}
		}
		n, err := normalize.New(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := n.Normalize(c.url); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestQueryMemory: with raised limits, a query-heavy URL costs a bounded
// multiple of its size in allocations (issue 16.11: 100 MB of "a=1&"
// allocated 4.1 GB, 41×, and peaked at 2.5 GB of RSS). The parameter list
// is 12 bytes a parameter, allocated once at its size; the other buffers
// are the parsed URL, the decoded parameters, the output and the result
// string: 7× for "a=1&" under default, 15× for "%&"; every built-in at
// most 27× (safebrowsing on "\"&": the parser encodes '"', the profile
// decodes it again; docs/profiles.md "Limits").
func TestQueryMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation sizes differ under the race detector")
	}
	for _, c := range []struct {
		unit   string
		factor float64
	}{
		{"a=1&", 8},  // the shape (36× before)
		{"a&", 11},   // the most parameters per byte that are kept (61×)
		{"%&", 16},   // … each written as 3 bytes ("%25" by encode_stray) (72×)
		{"é=1&", 12}, // bytes the parser percent-encodes (46×)
		{"&", 9},     // empty pairs, dropped
	} {
		got, err := allocFactor(t, "default", c.unit, 4<<20)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%q: %.1f× the input", c.unit, got)
		if got > c.factor {
			t.Errorf("%q × %d: allocated %.1f× the input, want at most %v×", c.unit, (4<<20)/len(c.unit), got, c.factor)
		}
	}
	// Every built-in on the same shapes and '"' (which the parser encodes
	// and safebrowsing decodes again): a bound for docs/security.md.
	const anyBound = 30
	worst, worstAt := 0.0, ""
	for _, name := range normalize.Names() {
		if !normalize.Builtin(name) {
			continue
		}
		for _, unit := range []string{"a=1&", "a&", "%&", "é=1&", "&", "\"&"} {
			got, err := allocFactor(t, name, unit, 1<<20)
			if err == nil && got > worst { // a profile that refuses the query allocates less
				worst, worstAt = got, fmt.Sprintf("%s on %q", name, unit)
			}
		}
	}
	t.Logf("worst over the built-ins: %.1f× (%s)", worst, worstAt)
	if worst > anyBound {
		t.Errorf("%s allocated %.1f× the input, want at most %d× (docs/security.md)", worstAt, worst, anyBound)
	}
	if strconv.IntSize == 64 { // a 32-bit int cannot say 2 GiB
		p := normalize.MustLookup("default").Profile()
		p.Name = "big"
		var twoGiB int64 = 2 << 30
		p.Limits.MaxLength = int(twoGiB) // param offsets are 32-bit
		if _, err := normalize.New(p); !errors.Is(err, normalize.ErrConfig) || !strings.Contains(err.Error(), "limits.max_length") {
			t.Errorf("max_length 2 GiB: %v, want a config error naming limits.max_length", err)
		}
	}
}

// allocFactor normalizes a query of unit repeated to about size bytes
// with the built-in profile name under raised limits, and returns what it
// allocated as a multiple of the input. A fresh normalizer each time: its
// pool holds no buffers.
func allocFactor(t *testing.T, name, unit string, size int) (float64, error) {
	t.Helper()
	p := normalize.MustLookup(name).Profile()
	p.Name, p.Limits = "big", normalize.Limits{MaxLength: 64 << 20, MaxParams: 16 << 20}
	n, err := normalize.New(p)
	if err != nil {
		t.Fatal(err)
	}
	in := "http://h.example/?" + strings.Repeat(unit, size/len(unit))
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	_, err = n.Normalize(in)
	runtime.ReadMemStats(&m1)
	return float64(m1.TotalAlloc-m0.TotalAlloc) / float64(len(in)), err
}

// BenchmarkWorstCaseURL: each built-in profile on inputs of the default
// length limit (64 KiB) made of the runs that drive its loops — percent
// escapes, dot segments, path parameters, 1000 query parameters in
// reverse order, one 64 KiB key for the regexps, hosts that need IDNA —
// for docs/security.md's worst cases (ns/op is the time per URL).
func BenchmarkWorstCaseURL(b *testing.B) {
	fill := func(prefix, unit string) string {
		return prefix + strings.Repeat(unit, (normalize.DefaultMaxLength-len(prefix))/len(unit))
	}
	var params strings.Builder
	for i := normalize.DefaultMaxParams - 1; i >= 0; i-- {
		fmt.Fprintf(&params, "k%060d=%d&", i, i) // 64-byte keys, in reverse order
	}
	shapes := []struct{ name, in string }{
		{"percent", fill("http://h.example/", "%41")},
		{"stray-percent", fill("http://h.example/", "%")},
		{"dotdot", fill("http://h.example/", "a/..")},
		{"slashes", fill("http://h.example/", "/")},
		{"path-params", fill("http://h.example/", ";jsessionid=1;a=2/")},
		{"params-1000", "http://h.example/?" + params.String()},
		{"one-key", fill("http://h.example/?", "Ab") + "=1"},
		{"idn-labels", "http://" + fill("", strings.Repeat("é", 100)+".") + "/"},
		{"non-ascii", fill("http://h.example/", "é")},
	}
	for _, name := range normalize.Names() {
		n := normalize.MustLookup(name)
		for _, s := range shapes {
			in := s.in[:min(len(s.in), normalize.DefaultMaxLength)]
			b.Run(name+"/"+s.name, func(b *testing.B) {
				for b.Loop() {
					sink, _ = n.Normalize(in)
				}
			})
		}
	}
}
