package normalize

import (
	"reflect"
	"strings"
	"testing"
)

// rules21Profiles returns the built-in profiles and custom ones whose
// query rules cover what keyRules decides: exact names (in either case,
// longer than 16 bytes, listed twice, in two groups and in pagination or
// query.keep too), globs, regexps with and without (?i), several groups
// (the first that has a key gives the reason), keep lists of names, globs
// and regexps, pagination of each kind, hosts and paths with their own
// tracking groups, and more groups than keyRules has bits (perMatcher).
func rules21Profiles(t *testing.T) []Profile {
	var ps []Profile
	for _, name := range Names() {
		ps = append(ps, MustLookup(name).Profile())
	}
	custom := func(name string, f func(p *Profile)) {
		p := MustLookup("whatwg").Profile()
		p.Name = name
		f(&p)
		ps = append(ps, p)
	}
	custom("r21-groups", func(p *Profile) {
		p.Query.Remove = []ParamGroup{
			{Reason: "first", Patterns: []string{"Sid", "utm_*", "~*^[a-z]*session[a-z]*$", "ABCDEFGHIJKLMNOPQRSTU", "dup", "dup"}},
			{Reason: "second", Patterns: []string{"sid", "utm_source", "gclid", "~^Ref[0-9]+$", "*_id", "dup", "kept"}},
			{Reason: "third", Patterns: []string{"x*y*z", "~^$", "fbclid", "abcdefghijklmnopqrstu", "kept2"}},
		}
		p.Query.Keep = []string{"kept", "~^keep[0-9]$", "keepme*", "utm_keep", "kept2"}
		p.Pagination = &Pagination{Params: []string{"page", "p*g", "~*^offset$", "utm_page", "kept"}}
	})
	custom("r21-order", func(p *Profile) {
		p.Query.Order = OrderKey
		p.Query.Remove = []ParamGroup{
			{Reason: "late", Patterns: []string{"~*^[A-Za-z]*session[A-Za-z]*$", "aspsessionid*"}},
			{Reason: "names", Patterns: []string{"jsessionid", "utm_source", "phpsessid"}},
		}
		p.Query.Keep = []string{"*id"}
		p.Pagination = &Pagination{Params: []string{"p"}}
	})
	custom("r21-why", func(p *Profile) {
		// query.keep of names only: the first group's regexp and glob must
		// still be run on the keys the second has by name, for the reason.
		p.Query.Remove = []ParamGroup{
			{Reason: "first", Patterns: []string{"~^sess.*$", "utm_*"}},
			{Reason: "second", Patterns: []string{"session", "utm_source", "id"}},
		}
		p.Query.Keep = []string{"id"}
	})
	custom("r21-keeponly", func(p *Profile) {
		p.Query.Remove = []ParamGroup{{Reason: "all", Patterns: []string{"*"}}}
		p.Query.Keep = []string{"id", "~^q$", "Lang*"}
	})
	custom("r21-pageonly", func(p *Profile) {
		p.Pagination = &Pagination{Params: []string{"page", "~^p[0-9]*$", "start*"}}
		p.Query.Keep = []string{"page"}
	})
	custom("r21-hosts", func(p *Profile) {
		p.Query.Remove = []ParamGroup{{Reason: "tracking", Patterns: []string{"utm_*", "fbclid", "ref"}}, {Reason: "other", Patterns: []string{"ref", "x"}}}
		p.Query.Keep = []string{"x"}
		p.Pagination = &Pagination{Params: []string{"page"}}
		p.Hosts = []HostRule{
			{Host: "example.com", Tracking: &ParamSet{ParamsAdd: []string{"sid", "~^s[0-9]$"}}, Paths: []PathRule{
				{Match: "/keep/*", Tracking: &ParamSet{Strip: new(bool)}},
				{Match: "/more/*", Tracking: &ParamSet{Params: []string{"page", "y*", "REF"}}},
			}},
			{Host: "other.org", Tracking: &ParamSet{Params: []string{"a", "b*"}}},
		}
	})
	custom("r21-many", func(p *Profile) {
		for i := range maxKeyGroups + 2 {
			p.Query.Remove = append(p.Query.Remove, ParamGroup{Reason: "g" + strings.Repeat("x", i), Patterns: []string{"k" + strings.Repeat("x", i%7), "~^m{" + string(rune('1'+i%9)) + "}$"}})
		}
		p.Query.Keep = []string{"kxx"}
		p.Pagination = &Pagination{Params: []string{"kxxx"}}
	})
	for _, p := range ps {
		if err := p.Validate(); err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
	}
	return ps
}

// rules21Keys returns keys for the profile p: each of its patterns' names
// as written, in other cases, cut, made longer, with a byte that is not
// ASCII; and a fixed list of others.
func rules21Keys(p Profile) []string {
	keys := []string{"", "a", "A", "p", "P", "id", "ID", "ref", "REF", "Ref1", "ref1", "sid", "SID", "x", "y", "xyz", "xAyBz",
		"session", "SESSION", "mysessionid", "my_session", "sessio", "jsessionid", "JSESSIONID", "aspsessionidABC",
		"utm_source", "UTM_SOURCE", "utm_", "utm_keep", "utm_page", "utm_x", "gclid", "fbclid", "page", "PAGE", "pagina",
		"offset", "OFFSET", "start", "start2", "keep1", "keep12", "keepme", "KEEPME_too", "kept", "kept2", "dup", "DUP",
		"abcdefghijklmnopqrstu", "ABCDEFGHIJKLMNOPQRSTU", "abcdefghijklmnopqrstuv", "abcdefghijklmnopqrst",
		"user_id", "_id", "s1", "s", "b", "bb", "lang", "Language", "q", "Q", "pg", "pxg", "k", "kx", "kxx", "kxxx", "kxxxxxx",
		"m", "mm", "mmmmmmmmm", "mmmmmmmmmm", "se\xffssion", "\xc3\xa9", "k\u212a", "ſession"}
	var srcs []string
	for _, g := range p.Query.Remove {
		srcs = append(srcs, g.Patterns...)
	}
	srcs = append(srcs, p.Query.Keep...)
	if p.Pagination != nil {
		srcs = append(srcs, p.Pagination.Params...)
	}
	for _, s := range srcs {
		s = strings.TrimLeft(s, "~*^")
		s = strings.TrimRight(s, "$*")
		keys = append(keys, s, strings.ToUpper(s), strings.ToLower(s), s+"x", "x"+s, s+"\x80")
		if len(s) > 1 {
			keys = append(keys, s[1:], s[:len(s)-1], strings.ToUpper(s[:1])+s[1:])
		}
	}
	return keys
}

// allKeyRules returns the keyRules of n (the profile's, each host's and
// each path's), in a fixed order.
func allKeyRules(n *Normalizer) []*keyRules {
	rs := []*keyRules{&n.baseKeys}
	for _, h := range n.prof.Hosts {
		hr, _ := n.hosts.get(h.Host)
		rs = append(rs, &hr.keys)
		for i := range hr.paths {
			rs = append(rs, &hr.paths[i].keys)
		}
	}
	return rs
}

// TestKeyRulesMatchReference: the decision once per key (keyRules.removes:
// one lookup of the exact names of every matcher, the globs and regexps
// of those that have them) says what the matcher by matcher decision says
// (removesBy, with the same compiled matchers, and the reference's, which
// has no filter, name set nor prefilter, and decides matcher by matcher:
// perMatcher), for every built-in profile and the custom ones of
// rules21Profiles, on every set of groups (profile, hosts, paths) and
// the keys of rules21Keys. Without why, the answer is the same removal,
// and a reason of a group that removes the key without query.keep
// keeping it.
func TestKeyRulesMatchReference(t *testing.T) {
	for _, p := range rules21Profiles(t) {
		n, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := NewReference(p)
		rs, refs := allKeyRules(n), allKeyRules(ref)
		if (p.Name == "r21-many") != rs[0].perMatcher || !refs[0].perMatcher {
			t.Fatalf("%s: perMatcher %v, reference's %v", p.Name, rs[0].perMatcher, refs[0].perMatcher)
		}
		for i, r := range rs {
			for _, k := range rules21Keys(p) {
				reason, page := r.removes(k, true)
				byM, byMPage := removesBy(r.page, r.groups, r.keep, k)
				want, wantPage := refs[i].removes(k, true)
				if reason != want || page != wantPage || byM != want || byMPage != wantPage {
					t.Errorf("%s rules %d: removes(%q) = %q %v, per matcher %q %v; the reference %q %v", p.Name, i, k, reason, page, byM, byMPage, want, wantPage)
				}
				if want != "" && !n.mayRemove(k) {
					t.Errorf("%s rules %d: %q removed (%q) but mayRemove is false", p.Name, i, k, want)
				}
				reason, page = r.removes(k, false)
				if (reason != "") != (want != "") || page != wantPage || reason != "" && !page && !groupRemoves(ref, refs[i].groups, reason, k) {
					t.Errorf("%s rules %d: removes(%q) without why = %q %v; the reference %q %v", p.Name, i, k, reason, page, want, wantPage)
				}
			}
		}
	}
}

// groupRemoves reports whether a group of gs with the given reason has
// the key k and query.keep does not keep it (n's matchers).
func groupRemoves(n *Normalizer, gs ruleSet, reason, k string) bool {
	for _, g := range gs {
		if g.reason == reason && g.m.match(k) && !n.keep.match(k) {
			return true
		}
	}
	return false
}

// TestKeyRulesCanonicalizeMatchesReference: Canonicalize (whose removed
// parameters have their reasons, and pagination its key) and Normalize
// give the reference's results on URLs whose queries hold the keys of
// rules21Keys, for every profile of rules21Profiles, verbatim and on the
// general path, under a host and path rule or none.
func TestKeyRulesCanonicalizeMatchesReference(t *testing.T) {
	for _, p := range rules21Profiles(t) {
		n, _ := New(p)
		ref, _ := NewReference(p)
		keys := rules21Keys(p)
		var urls []string
		for _, prefix := range []string{"http://a.test/x?", "HTTP://a.test/x/../y?", "http://example.com/keep/1?", "http://example.com/more/1?", "http://example.com/z?", "http://other.org/?"} {
			for i, k := range keys {
				q := k + "=v&z=1&" + keys[(i*7+3)%len(keys)] + "&" + keys[(i*13+5)%len(keys)] + "=%41"
				urls = append(urls, prefix+q, prefix+"b=2&"+k+"=1", prefix+k)
			}
		}
		for _, u := range urls {
			got, err := n.Canonicalize(u)
			want, wantErr := ref.Canonicalize(u)
			if (err == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: Canonicalize(%q) = %+v, %v; the reference %+v, %v", p.Name, u, got, err, want, wantErr)
				continue
			}
			s, err := n.Normalize(u)
			if s != want.URL || (err == nil) != (wantErr == nil) {
				t.Errorf("%s: Normalize(%q) = %q, %v; the reference %q", p.Name, u, s, err, want.URL)
			}
		}
	}
}
