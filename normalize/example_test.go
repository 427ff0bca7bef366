package normalize_test

import (
	"errors"
	"fmt"

	"github.com/urlnorm/urlnorm/normalize"
)

func ExampleLookup() {
	n, err := normalize.Lookup("default")
	if err != nil {
		panic(err)
	}
	url, err := n.Normalize("HTTP://WWW.EXAMPLE.COM:80/a/b/../c/?z=1&a=2#frag")
	fmt.Println(url, err)
	// Output: http://www.example.com/a/c?a=2&z=1 <nil>
}

func ExampleNormalizer_Hash_variants() {
	n := normalize.MustLookup("default")
	a, _ := n.Hash("https://Example.com/page?b=2&a=1")
	b, _ := n.Hash("https://example.com/page/?a=1&b=2#top")
	fmt.Println(a == b, len(a))
	// Output: true 64
}

func ExampleNormalizer_Normalize_errors() {
	n := normalize.MustLookup("default")
	for _, in := range []string{"example.com/page", "http://exa mple.com/", ""} {
		_, err := n.Normalize(in)
		fmt.Println(normalize.KindOf(err), errors.Is(err, normalize.ErrInvalid))
	}
	// Output:
	// missing_scheme true
	// invalid_host true
	// empty_input true
}

func ExampleNormalizer_Canonicalize() {
	n := normalize.MustLookup("default")
	r, _ := n.Canonicalize("https://example.com/docs/#install")
	fmt.Println(r.URL, r.Fragment, r.Profile, r.Version)
	// Output: https://example.com/docs install default 1.0.0
}

func ExampleResolve() {
	href, err := normalize.Resolve("https://example.com/a/b/page.html", "../img/logo.png?v=2")
	fmt.Println(href, err)
	// Output: https://example.com/a/img/logo.png?v=2 <nil>
}

// A custom profile is data: start from a built-in, change rules, compile.
func ExampleNew() {
	p := normalize.MustLookup("rfc3986").Profile()
	p.Name, p.Version = "rfc3986-sorted", "1"
	p.Query.Order = normalize.OrderKey
	p.Fragment.Remove = true
	n, err := normalize.New(p)
	if err != nil {
		panic(err)
	}
	url, _ := n.Normalize("http://Example.com/display?lang=en&article=fred#top")
	fmt.Println(url)
	// Output: http://example.com/display?article=fred&lang=en
}

func ExampleParseProfile_errors() {
	_, err := normalize.ParseProfile("mine.json", []byte(`{"name": "mine", "version": "1", "hash": "md5"}`))
	fmt.Println(errors.Is(err, normalize.ErrConfig))
	fmt.Println(err)
	_, err = normalize.ParseProfile("mine.json", []byte(`{"name": "mine", "version": "1", "hash": "sha256", "qurey": {}}`))
	fmt.Println(err)
	// Output:
	// true
	// urlnorm: load profile "mine.json": config (field hash): unknown hash "md5" (want sha256 or xxhash64)
	// urlnorm: load profile "mine.json": config (field qurey): json: unknown field "qurey"
}

// AppendNormalized writes into a buffer the caller reuses: the SQL
// adapters' path, with no allocation per URL.
func ExampleNormalizer_AppendNormalized() {
	n := normalize.MustLookup("default")
	var buf []byte
	for _, raw := range []string{"HTTP://Example.COM:80/a/../b/?z=1&a=2#x", "https://example.com/c"} {
		var err error
		if buf, err = n.AppendNormalized(buf[:0], raw); err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(string(buf))
	}
	// Output:
	// http://example.com/b?a=2&z=1
	// https://example.com/c
}
