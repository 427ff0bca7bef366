package normalize_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// suffixHosts are hosts whose answers differ although they share labels (a
// node of the list that is not a rule, wildcards and exceptions, private
// rules), hosts of every length around the cache's bounds (a word's 8
// bytes, the short table's 24, the long table's 56), and hosts that differ
// from another in one byte of one word only.
func suffixHosts() []string {
	hosts := []string{
		"foo.amazonaws.com", "bucket.s3.dualstack.us-east-1.amazonaws.com", "s3.dualstack.us-east-1.amazonaws.com",
		"www.city.kawasaki.jp", "a.b.kawasaki.jp", "b.kawasaki.jp", "kawasaki.jp",
		"alice.github.io", "github.io", "io", "a.co.uk", "co.uk", "localhost", "x.unlisted-tld",
		"a..b.com", ".com", "", "t.co", "a", strings.Repeat("a.", 40) + "com",
		// Equal but for one bit of their first word ('.' and 'n'), a bit
		// set in the second word: keys compared as (a^b)|(c^d), not
		// ((a^b)|c)^d, tell them apart.
		"a.aaaaaaaaaaaaaaaaaa.com", "anaaaaaaaaaaaaaaaaaa.com",
	}
	for n := 1; n <= 66; n++ {
		for _, suffix := range []string{"com", "co.uk", "github.io", "kawasaki.jp"} {
			hosts = append(hosts, hostOfLen(n, suffix))
		}
	}
	base := hostOfLen(56, "co.uk")
	for i := range len(base) - len(".co.uk") {
		if base[i] != '.' {
			hosts = append(hosts, base[:i]+"z"+base[i+1:], base[:i+1]) // one byte differs; a prefix
		}
	}
	return hosts
}

// hostOfLen returns a host of n bytes: labels "ab" before suffix, or one
// label of n bytes when suffix does not fit.
func hostOfLen(n int, suffix string) string {
	p := n - len(suffix) - 1
	if p < 1 {
		return strings.Repeat("q", n)
	}
	prefix := []byte(strings.Repeat("ab.", p/3+1)[:p])
	if prefix[p-1] == '.' {
		prefix[p-1] = 'c'
	}
	return string(prefix) + "." + suffix
}

// TestSuffixCache checks cached answers against computed ones for
// suffixHosts, twice in each order, through the process's cache and
// through small caches: one set per table (every host evicts the one
// before it, so a key compared wrongly shows) and a few sets.
func TestSuffixCache(t *testing.T) {
	hosts := suffixHosts()
	reversed := slices.Clone(hosts)
	slices.Reverse(reversed)
	for _, c := range []struct {
		name string
		lens func(string) normalize.DomainLens
	}{
		{"process", normalize.SuffixLens},
		{"one set", normalize.NewSuffixCache(1, 1).Lens},
		{"few sets", normalize.NewSuffixCache(8, 2).Lens},
	} {
		for _, order := range [][]string{hosts, reversed} {
			for pass := range 2 {
				for _, h := range order {
					if got, want := c.lens(h), normalize.ComputeSuffixLens(h); got != want {
						t.Errorf("%s cache, pass %d, %q: cached %+v, computed %+v", c.name, pass, h, got, want)
					}
				}
			}
		}
	}
}

// TestSuffixCacheWays checks each pair of consecutive suffixHosts in
// fresh caches of one set, so that where each host goes is known: a, b
// (b compared with a in way 0) and filler, a, b (with a in way 1).
func TestSuffixCacheWays(t *testing.T) {
	hosts := suffixHosts()
	for i := 1; i < len(hosts); i++ {
		a, b := hosts[i-1], hosts[i]
		filler := "filler.com" // the table of hosts ≤ 24 bytes
		if len(a) > 24 {
			filler = hostOfLen(40, "com")
		}
		for _, seq := range [][]string{{a, b, a}, {filler, a, b, a}} {
			c := normalize.NewSuffixCache(1, 1)
			for _, h := range seq {
				if got, want := c.Lens(h), normalize.ComputeSuffixLens(h); got != want {
					t.Errorf("%q after %q: cached %+v, computed %+v", h, seq, got, want)
				}
			}
		}
	}
}

// TestSuffixCacheConcurrent reads and fills caches from several goroutines
// at once (run under -race by make test-race) and checks every answer
// against the computed one: the process's cache, and one of a few sets,
// where writers collide on every set and readers meet sets being written.
func TestSuffixCacheConcurrent(t *testing.T) {
	hosts := suffixHosts()
	for _, raw := range shippedCorpus(t, false) {
		if u, err := normalize.Parse(raw); err == nil && u.HostKind() == normalize.HostDomain && !strings.HasSuffix(u.Host(), ".") {
			hosts = append(hosts, u.Host())
		}
	}
	for _, lens := range []func(string) normalize.DomainLens{normalize.SuffixLens, normalize.NewSuffixCache(4, 2).Lens} {
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for i := range hosts {
					h := hosts[(i*(g+1)+g*997)%len(hosts)]
					if got, want := lens(h), normalize.ComputeSuffixLens(h); got != want {
						t.Errorf("%q: cached %+v, computed %+v", h, got, want)
						return
					}
				}
			})
		}
		wg.Wait()
	}
}

// FuzzSuffixCache checks, for any two strings, that a cache of one set
// per table answers as the computation does when they take turns (each
// evicts or meets the other in the same set), and the process's cache too.
//
//	go test ./normalize -run '^$' -fuzz FuzzSuffixCache -fuzztime 2m
func FuzzSuffixCache(f *testing.F) {
	hosts := suffixHosts()
	for i := 1; i < len(hosts); i++ {
		f.Add(hosts[i-1], hosts[i])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		one := normalize.NewSuffixCache(1, 1)
		for _, h := range []string{a, b, a, b, b, a} {
			want := normalize.ComputeSuffixLens(h)
			if got := one.Lens(h); got != want {
				t.Fatalf("one-set cache %q (with %q): cached %+v, computed %+v", h, a+"|"+b, got, want)
			}
			if got := normalize.SuffixLens(h); got != want {
				t.Fatalf("process cache %q: cached %+v, computed %+v", h, got, want)
			}
		}
	})
}
