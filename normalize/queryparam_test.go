package normalize

import (
	"testing"
)

// TestQueryParamMatchesReference holds QueryParam (a key decoded only when
// it can decode to the name, no iterator) to queryParamRef (every key
// decoded, rawPairs): over every URL of the lists with a query, each
// decoded name of its pairs, its raw keys and a few names of no pair; and
// hand queries with '+', escapes that decode to the name or to U+FFFD,
// empty pairs and names, keys longer and shorter than the name.
func TestQueryParamMatchesReference(t *testing.T) {
	var p Parser
	n := 0
	check := func(raw string, names ...string) {
		t.Helper()
		u, err := p.Parse(raw)
		if err != nil {
			return
		}
		if _, ok := u.Query(); !ok {
			if v, ok := u.QueryParam("a"); ok || v != "" {
				t.Fatalf("%q: QueryParam(a) = %q, %v without a query", raw, v, ok)
			}
			return
		}
		all := []string{"", "a", "a b", "a+b", "a%20b", "utm_source", "\uFFFD", "ab", "b"}
		for _, q := range u.QueryParams() {
			all = append(all, q.Name, q.Name+"x", q.Value)
			if len(q.Name) > 1 {
				all = append(all, q.Name[1:])
			}
		}
		for k := range rawPairs(func() string { q, _ := u.Query(); return q }()) {
			all = append(all, k)
		}
		for _, name := range append(all, names...) {
			v, ok := u.QueryParam(name)
			w, wok := u.queryParamRef(name)
			if v != w || ok != wok {
				t.Fatalf("%q: QueryParam(%q) = %q, %v; reference %q, %v", raw, name, v, ok, w, wok)
			}
			if ok {
				n++
			}
		}
	}
	for _, s := range partsLists(t) {
		check(s)
	}
	for _, q := range []string{
		"", "a", "a=1", "a+b=1", "a%20b=2", "a%2Bb=3", "+=4", "%20=5", "=x", "&&a=1&&", "a&a=2", "a=1&a=2", "A=1&a=2",
		"%FF=1", "%C3%A9=e", "%E2%82=t", "%zz=1", "%=1", "%2=1", "ab%=1", "a%2=1", "utm_source=x&utm_source=y",
		"utm%5Fsource=z", "utm+source=1&utm_source=2", "xutm_source=1&utm_sourcex=2&utm_source=3",
		"a=%20%2B+&b", "a==b", "a=b=c",
	} {
		check("https://h.io/?"+q, "a", "a b", "é", "+", " ", "\uFFFD", "\uFFFD\uFFFD", "utm_source", "utm source")
		check("foo://h/?"+q, "a", "a b")
	}
	if n < 1000 {
		t.Fatalf("only %d matches", n)
	}
}

// FuzzQueryParam holds QueryParam to queryParamRef for any query and name.
func FuzzQueryParam(f *testing.F) {
	for _, s := range []string{"a=1", "a+b=1&a%20b=2", "%FF=1&\uFFFD=2", "&&=x&", "utm_source=x"} {
		f.Add(s, "a b")
		f.Add(s, "utm_source")
	}
	var p Parser
	f.Fuzz(func(t *testing.T, q, name string) {
		u, err := p.Parse("https://h.io/?" + q)
		if err != nil {
			return
		}
		v, ok := u.QueryParam(name)
		w, wok := u.queryParamRef(name)
		if v != w || ok != wok {
			t.Fatalf("query %q: QueryParam(%q) = %q, %v; reference %q, %v", q, name, v, ok, w, wok)
		}
	})
}
