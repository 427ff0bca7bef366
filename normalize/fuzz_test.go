package normalize_test

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/internal/golden"
	"github.com/urlnorm/urlnorm/normalize"
)

// FuzzNormalize checks, for every built-in profile (or only
// $URLNORM_FUZZ_PROFILE), on every input:
//   - no panic; an error is classified (ErrInvalid or ErrLimit, a known kind);
//   - idempotent: N(N(x)) == N(x);
//   - Normalize, AppendNormalized, Canonicalize and Hash agree;
//   - the output re-parses (WHATWG) to the same components, and http(s)
//     outputs of the canonicalizing profiles also parse with net/url to the
//     same scheme, host and query (a differential check);
//   - the output length is bounded by 3·len(x) + 64;
//   - the parser's fast paths fill the URL as the general parser does
//     (VerbatimMismatch: buffer, offsets, host kind …);
//   - the fast paths give what the general code gives (NewReference), for
//     these profiles and the other profiles of TestFastPathsMatchReference
//     (testdata/config, variants), unless $URLNORM_FUZZ_PROFILE is set;
//   - for the profiles with language hosts, each of Canonicalize's
//     alternates differs from the canonical URL in its language segment
//     only (issue 16.9).
//
// In the shape of net/netip's fuzz test: one target, many properties, seeds
// from every test table. Run it per issue 2 with
//
//	go test ./normalize -run '^$' -fuzz FuzzNormalize -fuzztime 10m
func FuzzNormalize(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	only := os.Getenv("URLNORM_FUZZ_PROFILE")
	var profiles, fast, refs []*normalize.Normalizer
	for i, n := range referenceProfiles(f) {
		builtin := i < len(normalize.Names()) && normalize.Builtin(n.Name())
		if only != "" && (!builtin || n.Name() != only) {
			continue
		}
		if builtin {
			profiles = append(profiles, n)
		}
		ref, err := normalize.NewReference(n.Profile())
		if err != nil {
			f.Fatal(err)
		}
		fast, refs = append(fast, n), append(refs, ref)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if diff, _ := normalize.VerbatimMismatch(s); diff != "" {
			t.Fatalf("Parse(%q): the fast paths fill another URL than the general parser:\n%s", s, diff)
		}
		for _, n := range profiles {
			checkNormalize(t, n, s)
		}
		for i, n := range fast {
			got, gerr := n.Normalize(s)
			if want, werr := refs[i].Normalize(s); got != want || errString(gerr) != errString(werr) {
				t.Fatalf("%s(%q): fast paths %q, %v; reference %q, %v", n.Name(), s, got, gerr, want, werr)
			}
			if n.Profile().Language != nil {
				checkAlternates(t, n, s)
			}
		}
	})
}

func fuzzSeeds(f *testing.F) []string {
	seeds := []string{
		"", "http://", "http://a", "HTTP://A.B:80/./a/../b/?b=2&a=1#f", "file:///C|/x/../y",
		"sc://h/%zz%2e%2E", "http://[::ffff:1.2.3.4]:0/", "http://0x7f.1./", "http://a%2eb/",
		"https://x/?a=1&&b=%7e&a=&c", "mailto:A@B", "sc:/.//x", "http://xn--ab-vld/", "http://aℵb/",
		"https://a.example/ca/old/page", "https://a.example/ca/moved/p?q#f", "https://a.example/ca/..;sid/x", // v-lang-rewrite
	}
	for _, c := range loadWPT(f, wptFile) {
		seeds = append(seeds, c.Input)
	}
	seeds = append(seeds, verbatimSeeds...)
	seeds = append(seeds, querySeeds...)
	seeds = append(seeds, reorderSeeds...)
	seeds = append(seeds, canonCheckSeeds...)
	seeds = append(seeds, rowSeeds...)
	profiles, _ := golden.Profiles()
	for _, p := range profiles {
		rows, err := golden.Load(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, r := range rows {
			seeds = append(seeds, r.Input)
		}
	}
	corpus := withVariants(shippedCorpus(f, false))
	for i := 0; i < len(corpus); i += 997 {
		seeds = append(seeds, corpus[i])
	}
	return seeds
}

func checkNormalize(t *testing.T, n *normalize.Normalizer, s string) {
	out, err := n.Normalize(s)
	if err != nil {
		if !errors.Is(err, normalize.ErrInvalid) && !errors.Is(err, normalize.ErrLimit) {
			t.Fatalf("%s(%q): unclassified error %v", n.Name(), s, err)
		}
		if _, err2 := n.Hash(s); normalize.KindOf(err2) != normalize.KindOf(err) {
			t.Fatalf("%s(%q): Normalize error %v but Hash error %v", n.Name(), s, err, err2)
		}
		return
	}
	again, err := n.Normalize(out)
	if err != nil || again != out {
		t.Fatalf("%s: not idempotent: %q → %q → %q (%v)", n.Name(), s, out, again, err)
	}
	if b, err := n.AppendNormalized([]byte("prefix"), s); err != nil || string(b) != "prefix"+out {
		t.Fatalf("%s(%q): AppendNormalized = %q, %v; Normalize = %q", n.Name(), s, b, err, out)
	}
	if r, err := n.Canonicalize(s); err != nil || r.URL != out {
		t.Fatalf("%s(%q): Canonicalize = %q, %v; Normalize = %q", n.Name(), s, r.URL, err, out)
	}
	if h, err := n.Hash(s); err != nil || h != n.HashCanonical(out) {
		t.Fatalf("%s(%q): Hash = %q, %v; hash of output = %q", n.Name(), s, h, err, n.HashCanonical(out))
	}
	if len(out) > 3*len(s)+64 {
		t.Fatalf("%s(%q): output %q is longer than 3·len+64", n.Name(), s, out)
	}
	u, err := normalize.Parse(out)
	if err != nil {
		t.Fatalf("%s(%q) = %q, which does not re-parse: %v", n.Name(), s, out, err)
	}
	if !strings.HasPrefix(out, u.Scheme()+":") {
		t.Fatalf("%s(%q) = %q re-parses with scheme %q", n.Name(), s, out, u.Scheme())
	}
	if n.Name() == "whatwg" {
		if u.String() != out {
			t.Fatalf("whatwg(%q) = %q, but that re-serializes as %q", s, out, u.String())
		}
		return
	}
	if sc := u.Scheme(); sc == "http" || sc == "https" {
		checkNetURL(t, n, s, out, u)
	}
}

// checkNetURL: an http(s) output of a canonicalizing profile must parse
// with net/url to the same scheme, host and query.
func checkNetURL(t *testing.T, n *normalize.Normalizer, s, out string, u *normalize.URL) {
	nu, err := url.Parse(out)
	if err != nil {
		t.Fatalf("%s(%q) = %q, which net/url rejects: %v", n.Name(), s, out, err)
	}
	host := strings.TrimSuffix(strings.TrimPrefix(u.Host(), "["), "]")
	if nu.Scheme != u.Scheme() || nu.Hostname() != host {
		t.Fatalf("%s(%q) = %q: net/url sees scheme %q host %q, we see %q %q", n.Name(), s, out, nu.Scheme, nu.Hostname(), u.Scheme(), host)
	}
	if q, _ := u.Query(); nu.RawQuery != q {
		t.Fatalf("%s(%q) = %q: net/url sees query %q, we see %q", n.Name(), s, out, nu.RawQuery, q)
	}
}

// checkAlternates: each alternate Canonicalize reports is the canonical
// URL with another language code in the language segment of its host, and
// nothing else changed (issue 16.9: a rewrite once left the first pass's
// segment offset, and an alternate cut into the rewritten URL).
func checkAlternates(t *testing.T, n *normalize.Normalizer, s string) {
	r, err := n.Canonicalize(s)
	if err != nil || len(r.Alternates) == 0 {
		return
	}
	l := r.Language
	if l == nil {
		t.Fatalf("%s(%q): alternates %v without a language", n.Name(), s, r.Alternates)
	}
	u, err := normalize.Parse(r.URL)
	if err != nil {
		t.Fatalf("%s(%q) = %q: %v", n.Name(), s, r.URL, err)
	}
	seg := -1
	for _, h := range n.Profile().Language.Hosts {
		if h.Host == u.Host() {
			seg = h.Segment
		}
	}
	segs := strings.Split(u.Path(), "/")[1:]
	if seg < 0 || seg >= len(segs) || segs[seg] != l.Preferred {
		t.Fatalf("%s(%q) = %q: language %+v is not the segment of a language host", n.Name(), s, r.URL, *l)
	}
	for _, alt := range r.Alternates {
		a, err := normalize.Parse(alt.URL)
		if err != nil {
			t.Fatalf("%s(%q): alternate %q does not parse: %v", n.Name(), s, alt.URL, err)
		}
		want := append([]string(nil), segs...)
		want[seg] = alt.Lang
		if a.Scheme() != u.Scheme() || a.Username() != u.Username() || a.Password() != u.Password() ||
			a.Host() != u.Host() || a.Port() != u.Port() || components(a) != components(u) ||
			a.Path() != "/"+strings.Join(want, "/") || !slices.Contains(l.Languages, alt.Lang) || alt.Lang == l.Preferred {
			t.Fatalf("%s(%q) = %q: alternate %+v differs in more than its language segment", n.Name(), s, r.URL, alt)
		}
	}
}

// components returns u's query and fragment, and whether each is present.
func components(u *normalize.URL) string {
	q, hq := u.Query()
	f, hf := u.Fragment()
	return fmt.Sprint(q, hq, f, hf)
}
