package normalize_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// FuzzResolve checks resolve_url (normalize.Resolve) on any base and
// reference:
//
//   - no panic; an error is an *Error of class ErrInvalid or ErrLimit;
//
//   - bounded: the result has at most DefaultMaxLength bytes and at most
//     3·(len(base)+len(ref)) + 64 (percent-encoding triples a byte; an
//     IPv4 number such as "0" grows to "0.0.0.0");
//
//   - the result is an absolute URL that parses and serializes to itself;
//
//   - it is a fixed point: resolving it against the base gives itself (a
//     URL with a scheme ignores the base, URL Standard "scheme state");
//
//   - resolving "" against it gives it without its fragment, and "#x"
//     gives it with the fragment "x" (URL Standard "no scheme state"),
//     unless its path is opaque, where only "#x" applies.
//
//     go test ./normalize -run '^$' -fuzz FuzzResolve -fuzztime 15m -parallel 2
func FuzzResolve(f *testing.F) {
	for _, c := range loadWPT(f, wptFile) {
		if c.Base != nil {
			f.Add(*c.Base, c.Input)
		}
	}
	f.Add("https://example.com/a/b.html", "../c?d")
	f.Add("http://h/a", strings.Repeat("../", 100)+"x")
	f.Fuzz(func(t *testing.T, base, ref string) {
		out, err := normalize.Resolve(base, ref)
		if err != nil {
			var e *normalize.Error
			if !errors.As(err, &e) || !errors.Is(err, normalize.ErrInvalid) && !errors.Is(err, normalize.ErrLimit) {
				t.Fatalf("Resolve(%q, %q): unclassified error %v", base, ref, err)
			}
			return
		}
		if len(out) > normalize.DefaultMaxLength || len(out) > 3*(len(base)+len(ref))+64 {
			t.Fatalf("Resolve(%q, %q): %d bytes, over the bound", base, ref, len(out))
		}
		u, err := normalize.Parse(out)
		if err != nil || u.Href() != out {
			t.Fatalf("Resolve(%q, %q) = %q, which parses to %v, %v", base, ref, out, u, err)
		}
		if again, err := normalize.Resolve(base, out); err != nil || again != out {
			t.Fatalf("Resolve(%q, %q) = %q, but resolving that against the base gives %q, %v", base, ref, out, again, err)
		}
		noFrag := out
		if i := strings.IndexByte(out, '#'); i >= 0 {
			noFrag = out[:i]
		}
		if got, err := normalize.Resolve(out, "#x"); err != nil || got != noFrag+"#x" {
			t.Fatalf("Resolve(%q, \"#x\") = %q, %v; want %q", out, got, err, noFrag+"#x")
		}
		if u.OpaquePath() {
			return
		}
		if got, err := normalize.Resolve(out, ""); err != nil || got != noFrag {
			t.Fatalf("Resolve(%q, \"\") = %q, %v; want %q", out, got, err, noFrag)
		}
	})
}
