package normalize

import (
	"strings"
	"sync"
)

// SafeBrowsingExpressions returns the lookup expressions Google Safe
// Browsing hashes to look a URL up in its lists (v4 "Suffix/Prefix
// Expressions"): every combination of a host suffix and a path prefix of
// the URL canonicalized by the safebrowsing profile, with its query, in
// the order of the published rules, without duplicates:
//
//   - hosts: the exact host, then up to four more formed from its last
//     five labels by removing leading labels, never the top-level label
//     alone; an IP address only as itself;
//   - paths: the path with the query (if it has a non-empty one), the
//     path, then up to four prefixes: "/" and successive directories, each
//     with its trailing '/'.
//
// "http://a.b.c/1/2.html?param=1" gives a.b.c/1/2.html?param=1,
// a.b.c/1/2.html, a.b.c/, a.b.c/1/, b.c/1/2.html?param=1, b.c/1/2.html,
// b.c/, b.c/1/. Hex digits of escapes are uppercase, as the published
// rules say (google/safebrowsing writes lowercase). An input the profile
// refuses, and a URL without a host (mailto:x), is an error.
func SafeBrowsingExpressions(raw string) ([]string, error) {
	n, err := safeBrowsingQuery()
	if err != nil {
		return nil, err
	}
	out, err := n.Normalize(raw)
	if err != nil {
		return nil, withOp(err, "safebrowsing_expressions")
	}
	u, err := Parse(out)
	if err != nil {
		return nil, withOp(err, "safebrowsing_expressions") // not reached: outputs re-parse (FuzzNormalize)
	}
	if u.hostKind == HostNone || u.hostKind == HostEmpty {
		return nil, &Error{Op: "safebrowsing_expressions", Input: raw, Kind: KindMissingHost,
			Reason: "the lookup expressions need a host, and " + quoteValue(out) + " has none"}
	}
	query, _ := u.Query()
	hosts, paths := sbHosts(u), sbPaths(u.Path(), query)
	exprs := make([]string, 0, len(hosts)*len(paths))
	seen := make(map[string]bool, cap(exprs))
	for _, h := range hosts {
		for _, p := range paths {
			if e := h + p; !seen[e] {
				seen[e] = true
				exprs = append(exprs, e)
			}
		}
	}
	return exprs, nil
}

// safeBrowsingQuery is the safebrowsing profile keeping the query (its
// escapes decoded to a fixed point and encoded again, an empty one
// dropped): the library's canonicalURL has no query, but its longest
// lookup expression has.
var safeBrowsingQuery = sync.OnceValues(func() (*Normalizer, error) {
	b, err := Lookup("safebrowsing")
	if err != nil {
		return nil, err
	}
	p := b.Profile()
	p.Name, p.Query = "safebrowsing-expressions", QueryRules{DropEmpty: true}
	return New(p)
})

// sbHosts returns the host suffixes of u.
func sbHosts(u *URL) []string {
	host := u.Host()
	if u.hostKind != HostDomain {
		return []string{host}
	}
	labels := strings.Split(host, ".")
	hosts := []string{host}
	for i := max(len(labels)-5, 1); i < len(labels)-1; i++ {
		hosts = append(hosts, strings.Join(labels[i:], "."))
	}
	return hosts
}

// sbPaths returns the path prefixes of path, the exact path with the
// query first.
func sbPaths(path, query string) []string {
	var paths []string
	if query != "" {
		paths = append(paths, path+"?"+query)
	}
	paths = append(paths, path, "/")
	for i, dirs := 1, 1; dirs < 4; dirs++ {
		j := strings.IndexByte(path[i:], '/')
		if j < 0 {
			break
		}
		i += j + 1
		paths = append(paths, path[:i])
	}
	return paths
}
