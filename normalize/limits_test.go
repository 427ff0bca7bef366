package normalize_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestMaxLength: inputs over the profile's length limit fail with a
// classified limit error; at the limit they are processed.
func TestMaxLength(t *testing.T) {
	p := normalize.MustLookup("default").Profile()
	p.Name, p.Limits.MaxLength = "default-short", 100
	n, err := normalize.New(p)
	if err != nil {
		t.Fatal(err)
	}
	base := "http://example.com/"
	for _, tc := range []struct {
		length int
		ok     bool
	}{
		{99, true},   // limit − 1
		{100, true},  // at the limit
		{101, false}, // limit + 1
	} {
		in := base + strings.Repeat("a", tc.length-len(base))
		_, err := n.Normalize(in)
		if tc.ok != (err == nil) {
			t.Errorf("len %d: err = %v, want ok=%v", tc.length, err, tc.ok)
		}
		if !tc.ok && (!errors.Is(err, normalize.ErrLimit) || normalize.KindOf(err) != "too_long") {
			t.Errorf("len %d: err = %v, want a too_long limit error", tc.length, err)
		}
	}
	// The default limit is 64 KiB.
	long := "http://example.com/" + strings.Repeat("a", normalize.DefaultMaxLength)
	if _, err := normalize.MustLookup("default").Normalize(long); normalize.KindOf(err) != "too_long" {
		t.Errorf("64 KiB+ input: err = %v, want too_long", err)
	}
}

// TestMaxParams: more query parameters than the limit is a classified
// limit error in every profile, never a silent truncation.
func TestMaxParams(t *testing.T) {
	for _, name := range []string{"default", "rfc3986", "whatwg"} {
		n := normalize.MustLookup(name)
		ok := "http://example.com/?" + strings.Repeat("a=1&", normalize.DefaultMaxParams-1) + "a=1"
		if _, err := n.Normalize(ok); err != nil {
			t.Errorf("%s: %d params: %v", name, normalize.DefaultMaxParams, err)
		}
		tooMany := ok + "&b=2"
		_, err := n.Normalize(tooMany)
		if !errors.Is(err, normalize.ErrLimit) || normalize.KindOf(err) != "too_many_params" {
			t.Errorf("%s: %d params: err = %v, want too_many_params", name, normalize.DefaultMaxParams+1, err)
		}
	}
}

// TestErrors: every error carries the operation, the (quoted, truncated)
// input and a kind that belongs to exactly one class.
func TestErrors(t *testing.T) {
	n := normalize.MustLookup("default")
	for _, tc := range []struct {
		in    string
		kind  string
		class error
	}{
		{"", "empty_input", normalize.ErrInvalid},
		{"example.com", "missing_scheme", normalize.ErrInvalid},
		{"http://exa mple.com", "invalid_host", normalize.ErrInvalid},
		{"http://h:70000/", "invalid_port", normalize.ErrInvalid},
		{"http://" + strings.Repeat("x", 70000), "too_long", normalize.ErrLimit},
	} {
		_, err := n.Normalize(tc.in)
		var e *normalize.Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: %v is not a *normalize.Error", tc.in, err)
		}
		if e.Op != "normalize" || e.Input != tc.in || e.Kind.Code != tc.kind || !errors.Is(err, tc.class) {
			t.Errorf("%q: got op=%q kind=%q (class ok: %v), want normalize/%s", tc.in, e.Op, e.Kind.Code, errors.Is(err, tc.class), tc.kind)
		}
		for _, other := range []error{normalize.ErrInvalid, normalize.ErrLimit, normalize.ErrConfig} {
			if other != tc.class && errors.Is(err, other) {
				t.Errorf("%q: error matches two classes", tc.in)
			}
		}
		if msg := err.Error(); len(msg) > 200 || !strings.Contains(msg, tc.kind) {
			t.Errorf("%q: message %q: want the kind, and at most 200 bytes", tc.in, msg)
		}
	}
	if _, err := normalize.Lookup("no-such-profile"); !errors.Is(err, normalize.ErrConfig) || normalize.KindOf(err) != "unknown_profile" {
		t.Errorf("Lookup(unknown) = %v, want an unknown_profile config error", err)
	}
}

// TestAllocs: Normalize allocates nothing when the input is already
// canonical and one string otherwise; AppendNormalized and AppendHash
// allocate nothing (issue 2 "Must show" 6; counts, not timings).
func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	n := normalize.MustLookup("default")
	n.Normalize("http://warm.up/x?b=1&a=2") // fill the pool
	for _, tc := range []struct {
		in     string
		allocs float64
	}{
		{"https://www.sec.gov/edgar.shtml", 0},
		{"https://example.com/a/b?a=1&b=2", 0},
		{"HTTPS://WWW.SEC.GOV/edgar.shtml", 1},
		{"https://example.com/a/b/?b=2&a=1#frag", 1},
	} {
		if got := testing.AllocsPerRun(100, func() { n.Normalize(tc.in) }); got != tc.allocs {
			t.Errorf("Normalize(%q): %v allocs, want %v", tc.in, got, tc.allocs)
		}
		buf := make([]byte, 0, 256)
		if got := testing.AllocsPerRun(100, func() { buf, _ = n.AppendNormalized(buf[:0], tc.in) }); got != 0 {
			t.Errorf("AppendNormalized(%q): %v allocs, want 0", tc.in, got)
		}
		if got := testing.AllocsPerRun(100, func() { buf, _ = n.AppendHash(buf[:0], tc.in) }); got != 0 {
			t.Errorf("AppendHash(%q): %v allocs, want 0", tc.in, got)
		}
	}
}

// TestLongIDNLabel: a label that needs IDNA processing is limited to 252
// bytes (x/net/idna is quadratic in a label's distinct code points); DNS
// allows 63 ASCII bytes, so real hosts are unaffected.
func TestLongIDNLabel(t *testing.T) {
	cjk := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteRune(rune(0x4E00 + i))
		}
		return b.String()
	}
	for _, tc := range []struct {
		host string
		kind string
	}{
		{cjk(84), ""},                                               // 252 bytes: at the limit
		{cjk(85), "invalid_host"},                                   // 255 bytes
		{cjk(16000), "invalid_host"},                                // 48 KB: rejected without running IDNA
		{cjk(80) + "." + cjk(80) + "。" + cjk(80), ""},               // many labels, each short (U+3002 separates)
		{strings.Repeat("a", 5000) + ".é", ""},                      // a long ASCII label costs linear time: allowed
		{"é." + "xn--" + strings.Repeat("a", 5000), "invalid_host"}, // a long Punycode label is decoded: limited
	} {
		_, err := normalize.MustLookup("whatwg").Normalize("http://" + tc.host + "/")
		if got := normalize.KindOf(err); got != tc.kind {
			t.Errorf("host of %d bytes: kind %q, want %q (%v)", len(tc.host), got, tc.kind, err)
		}
	}
}
