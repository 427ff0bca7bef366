package normalize_test

import (
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

var sinkLen int

// BenchmarkParts/<part>/<corpus>: one URL per op parsed by a reused
// Parser and one part read from it, as the SQL part functions do per row
// (issue 13: each costs no more than BenchmarkNormalize/default; issue
// 18: ≤ 0.5×). Instructions per URL:
//
//	benchmarks/instructions.sh 'BenchmarkParts$/^registrable_domain$/^web$'
func BenchmarkParts(b *testing.B) {
	var segs []string
	var href []byte
	// How much of the URL a part reads, as udf's: all of it (Parser.Parse),
	// its authority (ParseAuthority), all but its path (ParseWithoutPath)
	// or up to its path's end (ParseThroughPath).
	const (
		whole = iota
		auth
		noPath
		toPath
	)
	parts := []struct {
		name  string
		read  func(u *normalize.URL) int
		reach int
	}{
		{"parse", func(u *normalize.URL) int { return 0 }, whole},
		{"parse_authority", func(u *normalize.URL) int { return 0 }, auth},
		{"parse_without_path", func(u *normalize.URL) int { return 0 }, noPath},
		{"parse_through_path", func(u *normalize.URL) int { return 0 }, toPath},
		{"host", func(u *normalize.URL) int { return len(u.Host()) }, auth},
		{"registrable_domain", func(u *normalize.URL) int { return len(u.RegistrableDomain()) }, auth},
		{"domain_parts", func(u *normalize.URL) int { return len(u.DomainParts(normalize.AllSuffixes).Subdomain) }, auth},
		{"path", func(u *normalize.URL) int { return len(u.Path()) }, toPath},
		{"extension", func(u *normalize.URL) int { return len(u.Extension()) }, toPath},
		{"path_segments", func(u *normalize.URL) int {
			n := 0 // each segment read as found, as udf's segments writes each to the builder
			for s := range u.AllPathSegments() {
				n += len(s)
			}
			return n
		}, toPath},
		{"append_path_segments", func(u *normalize.URL) int {
			segs, _ = u.AppendPathSegments(segs[:0])
			return len(segs)
		}, toPath},
		{"query", func(u *normalize.URL) int { q, _ := u.Query(); return len(q) }, noPath},
		{"fragment", func(u *normalize.URL) int { f, _ := u.Fragment(); return len(f) }, noPath},
		{"query_param", func(u *normalize.URL) int { v, _ := u.QueryParam("utm_source"); return len(v) }, noPath},
		{"parse_url", func(u *normalize.URL) int {
			// Every part, each copied out, as udf's parseURL writes each
			// to the host's builder (the Part/all parts op).
			href = append(href[:0], u.String()...)
			q, _ := u.Query()
			f, _ := u.Fragment()
			d := u.DomainParts(normalize.AllSuffixes)
			return len(u.Scheme()) + len(u.Username()) + len(u.Password()) + len(u.Host()) + len(u.HostKind().String()) +
				len(u.Path()) + len(q) + len(f) + len(d.RegistrableDomain) + len(d.PublicSuffix) + len(d.Subdomain) + u.Port()
		}, whole},
	}
	corpora := benchCorpora(b)
	for _, part := range parts {
		for _, c := range corpora {
			b.Run(part.name+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				var p normalize.Parser
				parse := p.Parse
				switch part.reach {
				case auth:
					parse = p.ParseAuthority
				case noPath:
					parse = p.ParseWithoutPath
				case toPath:
					parse = p.ParseThroughPath
				}
				urls := c.urls
				for i := 0; b.Loop(); i++ {
					if u, err := parse(urls[i%len(urls)]); err == nil {
						sinkLen = part.read(u)
					}
				}
			})
		}
	}
}
