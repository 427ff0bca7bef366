package udf_test

import (
	"fmt"

	"github.com/urlnorm/urlnorm/udf"
)

// A host of its own (a Python binding, a Beam transform) inherits the
// whole row contract by calling udf: it passes each row's values and
// which are NULL, and converts the result.
func ExampleFunc_Text() {
	f := udf.Overload("try_normalize_url", 2)
	rows := []struct {
		url, profile string
		urlNull      bool
	}{
		{"HTTP://Example.COM:80/a/../b/?z=1&a=2#x", "default", false},
		{"no scheme", "default", false}, // try_: NULL on bad data
		{"", "default", true},           // NULL in, NULL out
		{"", "nope", true},              // an unknown profile raises anyway
	}
	var buf []byte
	for _, r := range rows {
		out, null, err := f.Text(buf[:0], []string{r.url, r.profile}, []bool{r.urlNull, false})
		buf = out
		switch {
		case err != nil:
			fmt.Println("error:", err)
		case null:
			fmt.Println("NULL")
		default:
			fmt.Println(string(out))
		}
	}
	// Output:
	// http://example.com/b?a=2&z=1
	// NULL
	// NULL
	// error: try_normalize_url(url, 'nope'): unknown_profile: known profiles: clara, crawler-commons, curiousnow-v0, default, edge-gateway, normalize-url, rfc3986, safebrowsing, w3lib, whatwg
}

// Value gives a result in its typed form (a STRUCT as one value per
// member), Text in the JSON a host without composite types returns.
func ExampleFunc_Value() {
	f := udf.Overload("canonicalize_url", 1)
	v, _ := f.Value([]string{"https://example.com/docs/#install"}, nil)
	rec := v.([]any)
	for i, m := range f.Returns.Members[:6] {
		fmt.Printf("%s=%v ", m.Name, rec[i])
	}
	fmt.Println()
	// Output: url=https://example.com/docs hash=de106e607d0e711199de3fb7eb98fe5d412ee49ac326eadd3db848ee272ad2cb link_type=homepage profile=default version=1.0.0 fragment=install
}
