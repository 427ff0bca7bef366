package ops

import (
	"strconv"

	"github.com/urlnorm/urlnorm/normalize"
)

// Parts are the URL-part SQL functions' work (issue 13): parse the URL
// with the URL Standard parser (a reused normalize.Parser, as the adapters
// keep one per row loop), take one part and copy it out, as an adapter
// copies a result into the engine's vector; the parts of the scheme and
// the authority read the URL up to there (Parser.ParseAuthority), as udf's
// do. Each is compared with Normalize/default, the cost of
// normalize_url(url); the parts after the path skip it
// (Parser.ParseWithoutPath) and those of the path stop at its end
// (Parser.ParseThroughPath), as udf's do.
func Parts() []Op {
	type partFunc = func(u *normalize.URL, dst []byte) []byte
	type reach int
	const (
		whole reach = iota
		authority
		noPath
		toPath
	)
	// newText's newPart makes an instance's part function (with its own
	// state, if any).
	newText := func(name string, r reach, newPart func() partFunc) Op {
		return Op{Name: "Part/" + name, Group: GroupUrlnorm, New: func() func(string) bool {
			var buf []byte
			var p normalize.Parser
			parse := p.Parse
			switch r {
			case authority:
				parse = p.ParseAuthority
			case noPath:
				parse = p.ParseWithoutPath
			case toPath:
				parse = p.ParseThroughPath
			}
			part := newPart()
			return func(s string) bool {
				u, err := parse(s)
				if err != nil {
					return false
				}
				buf = part(u, buf[:0])
				SinkBytes = buf
				return true
			}
		}}
	}
	text := func(name string, part partFunc) Op { return newText(name, whole, func() partFunc { return part }) }
	auth := func(name string, part partFunc) Op { return newText(name, authority, func() partFunc { return part }) }
	tail := func(name string, part partFunc) Op { return newText(name, noPath, func() partFunc { return part }) }
	path := func(name string, part partFunc) Op { return newText(name, toPath, func() partFunc { return part }) }
	return []Op{
		text("parse only", func(u *normalize.URL, dst []byte) []byte { return dst }),
		auth("parse authority only (is_valid_url)", func(u *normalize.URL, dst []byte) []byte { return dst }),
		auth("scheme", func(u *normalize.URL, dst []byte) []byte { return append(dst, u.Scheme()...) }),
		auth("host", func(u *normalize.URL, dst []byte) []byte { return append(dst, u.Host()...) }),
		auth("port", func(u *normalize.URL, dst []byte) []byte { return strconv.AppendInt(dst, int64(u.Port()), 10) }),
		path("path", func(u *normalize.URL, dst []byte) []byte { return append(dst, u.Path()...) }),
		tail("query", func(u *normalize.URL, dst []byte) []byte { q, _ := u.Query(); return append(dst, q...) }),
		tail("fragment", func(u *normalize.URL, dst []byte) []byte { f, _ := u.Fragment(); return append(dst, f...) }),
		auth("registrable_domain", func(u *normalize.URL, dst []byte) []byte { return append(dst, u.RegistrableDomain()...) }),
		auth("public_suffix", func(u *normalize.URL, dst []byte) []byte { return append(dst, u.PublicSuffix()...) }),
		auth("subdomain", func(u *normalize.URL, dst []byte) []byte { return append(dst, u.Subdomain()...) }),
		path("extension", func(u *normalize.URL, dst []byte) []byte { return append(dst, u.Extension()...) }),
		path("path_segments", func(u *normalize.URL, dst []byte) []byte {
			for s := range u.AllPathSegments() { // each copied out as found, as udf's segments
				dst = append(dst, s...)
			}
			return dst
		}),
		tail("query_param(utm_source)", func(u *normalize.URL, dst []byte) []byte {
			v, _ := u.QueryParam("utm_source")
			return append(dst, v...)
		}),
		tail("query_params", func(u *normalize.URL, dst []byte) []byte {
			for _, p := range u.QueryParams() {
				dst = append(append(dst, p.Name...), p.Value...)
			}
			return dst
		}),
		text("all parts (parse_url)", func(u *normalize.URL, dst []byte) []byte {
			// Every part, each copied out as udf's parseURL writes each
			// member to the engine's builder.
			q, _ := u.Query()
			f, _ := u.Fragment()
			d := u.DomainParts(normalize.AllSuffixes)
			for _, s := range [...]string{u.Scheme(), u.Username(), u.Password(), u.Host(), u.HostKind().String(),
				u.Path(), q, f, d.RegistrableDomain, d.PublicSuffix, d.Subdomain} {
				dst = append(dst, s...)
			}
			return strconv.AppendInt(dst, int64(u.Port()), 10)
		}),
	}
}
