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
	parts := []struct {
		name string
		read func(u *normalize.URL) int
		auth bool // a part of the authority: Parser.ParseAuthority, as udf's
	}{
		{"parse", func(u *normalize.URL) int { return 0 }, false},
		{"parse_authority", func(u *normalize.URL) int { return 0 }, true},
		{"host", func(u *normalize.URL) int { return len(u.Host()) }, true},
		{"registrable_domain", func(u *normalize.URL) int { return len(u.RegistrableDomain()) }, true},
		{"domain_parts", func(u *normalize.URL) int { return len(u.DomainParts(normalize.AllSuffixes).Subdomain) }, true},
		{"extension", func(u *normalize.URL) int { return len(u.Extension()) }, false},
		{"path_segments", func(u *normalize.URL) int {
			segs, _ = u.AppendPathSegments(segs[:0])
			return len(segs)
		}, false},
		{"query_param", func(u *normalize.URL) int { v, _ := u.QueryParam("utm_source"); return len(v) }, false},
		{"parse_url", func(u *normalize.URL) int {
			// Every part, and one copy of the URL (udf's parseURL takes
			// the parts from URL.Clone), as the Part/all parts op.
			href = append(href[:0], u.String()...)
			q, _ := u.Query()
			f, _ := u.Fragment()
			d := u.DomainParts(normalize.AllSuffixes)
			return len(u.Scheme()) + len(u.Username()) + len(u.Password()) + len(u.Host()) + len(u.HostKind().String()) +
				len(u.Path()) + len(q) + len(f) + len(d.RegistrableDomain) + len(d.PublicSuffix) + len(d.Subdomain) + u.Port()
		}, false},
	}
	corpora := benchCorpora(b)
	for _, part := range parts {
		for _, c := range corpora {
			b.Run(part.name+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				var p normalize.Parser
				parse := p.Parse
				if part.auth {
					parse = p.ParseAuthority
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
