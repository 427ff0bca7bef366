package ops

import (
	"strconv"

	"github.com/urlnorm/urlnorm/normalize"
)

// Parts are the URL-part SQL functions' work (issue 13): parse the URL
// with the URL Standard parser (a reused normalize.Parser, as the adapters
// keep one per row loop), take one part and copy it out, as an adapter
// copies a result into the engine's vector. Each is compared with
// Normalize/default, the cost of normalize_url(url).
func Parts() []Op {
	text := func(name string, part func(u *normalize.URL, dst []byte) []byte) Op {
		return Op{Name: "Part/" + name, Group: GroupUrlnorm, New: func() func(string) bool {
			var buf []byte
			var p normalize.Parser
			return func(s string) bool {
				u, err := p.Parse(s)
				if err != nil {
					return false
				}
				buf = part(u, buf[:0])
				SinkBytes = buf
				return true
			}
		}}
	}
	return []Op{
		text("parse only", func(u *normalize.URL, dst []byte) []byte { return dst }),
		text("scheme", func(u *normalize.URL, dst []byte) []byte { return append(dst, u.Scheme()...) }),
		text("host", func(u *normalize.URL, dst []byte) []byte { return append(dst, u.Host()...) }),
		text("port", func(u *normalize.URL, dst []byte) []byte { return strconv.AppendInt(dst, int64(u.Port()), 10) }),
		text("path", func(u *normalize.URL, dst []byte) []byte { return append(dst, u.Path()...) }),
		text("query", func(u *normalize.URL, dst []byte) []byte { q, _ := u.Query(); return append(dst, q...) }),
		text("fragment", func(u *normalize.URL, dst []byte) []byte { f, _ := u.Fragment(); return append(dst, f...) }),
		text("registrable_domain", func(u *normalize.URL, dst []byte) []byte { return append(dst, u.RegistrableDomain()...) }),
		text("public_suffix", func(u *normalize.URL, dst []byte) []byte { return append(dst, u.PublicSuffix()...) }),
		text("subdomain", func(u *normalize.URL, dst []byte) []byte { return append(dst, u.Subdomain()...) }),
		text("extension", func(u *normalize.URL, dst []byte) []byte { return append(dst, u.Extension()...) }),
		text("path_segments", func(u *normalize.URL, dst []byte) []byte {
			segs, _ := u.PathSegments()
			for _, s := range segs {
				dst = append(dst, s...)
			}
			return dst
		}),
		text("query_param(utm_source)", func(u *normalize.URL, dst []byte) []byte {
			v, _ := u.QueryParam("utm_source")
			return append(dst, v...)
		}),
		text("query_params", func(u *normalize.URL, dst []byte) []byte {
			for _, p := range u.QueryParams() {
				dst = append(append(dst, p.Name...), p.Value...)
			}
			return dst
		}),
		text("all parts (parse_url)", func(u *normalize.URL, dst []byte) []byte {
			q, _ := u.Query()
			f, _ := u.Fragment()
			d := u.DomainParts(normalize.AllSuffixes)
			for _, s := range []string{u.Scheme(), u.Username(), u.Password(), u.Host(), u.HostKind().String(),
				u.Path(), q, f, d.RegistrableDomain, d.PublicSuffix, d.Subdomain} {
				dst = append(dst, s...)
			}
			return strconv.AppendInt(dst, int64(u.Port()), 10)
		}),
	}
}
