package normalize

import "testing"

// TestQueryTabIsVQueryWithoutPct pins what queryKept's '%' search assumes:
// for a profile without form encoding and query.lowercase (!directScan),
// the bytes of vQuery (the only ones a verbatim query has) that queryTab
// takes are all but '%'. Built-ins and user profiles with each query rule.
func TestQueryTabIsVQueryWithoutPct(t *testing.T) {
	var ps []Profile
	for _, name := range Names() {
		ps = append(ps, MustLookup(name).Profile())
	}
	for _, q := range []QueryRules{
		{Order: OrderPair, BareEmptyValue: true}, {Order: OrderKey, ExplicitEmptyValue: true},
		{Lowercase: true}, {FormEncoding: true}, {FormEncoding: true, FormSpace: "+"}, {SortDecoded: true, Order: OrderKey},
	} {
		p := MustLookup("whatwg").Profile()
		p.Name, p.Query = "v", q
		ps = append(ps, p)
	}
	checked := 0
	for _, p := range ps {
		n, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		if n.directScan {
			continue
		}
		checked++
		for c := range 256 {
			if vQuery[c] == vOK && (n.queryTab[c] == vOK) != (c != '%') {
				t.Errorf("%s: queryTab[%q] = %d, vQuery takes it", p.Name, byte(c), n.queryTab[c])
			}
		}
	}
	if checked == 0 {
		t.Fatal("no profile without form encoding and query.lowercase")
	}
}
