package sourceconfig_test

import (
	"fmt"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/normalize/sourceconfig"
)

func ExampleParseProfileYAML() {
	p, err := sourceconfig.ParseProfileYAML("strict.yaml", []byte(`
name: strict
version: "2"
scheme: {allowed: [https]}
host: {strip_trailing_dot: true, charset: dns}
path: {trailing_slash: remove_except_root}
percent: {uppercase_hex: true, decode_unreserved: true, encode_stray: true}
query:
  order: key
  drop_empty: true
  remove:
    - reason: tracking
      patterns: ["utm_*", fbclid, "~*^mc_(cid|eid)$"]
fragment: {remove: true}
hash: sha256
limits: {max_length: 2048}
`))
	if err != nil {
		panic(err)
	}
	n, _ := normalize.New(p)
	url, _ := n.Normalize("https://Example.com./a/?utm_source=x&b=1&MC_CID=7&a=2#f")
	fmt.Println(url)
	_, err = n.Normalize("http://example.com/")
	fmt.Println(normalize.KindOf(err))
	// Output:
	// https://example.com/a?a=2&b=1
	// unsupported_scheme
}
