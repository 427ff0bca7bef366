package normalize_test

import (
	"fmt"
	"strings"

	"github.com/urlnorm/urlnorm/normalize"
)

func ExampleURL_DomainParts() {
	u, _ := normalize.Parse("https://a.b.example.co.uk/x")
	fmt.Printf("%+v\n", u.DomainParts(normalize.AllSuffixes))
	gh, _ := normalize.Parse("https://alice.github.io/")
	fmt.Println(gh.RegistrableDomain(), gh.DomainParts(normalize.ICANNSuffixes).RegistrableDomain)
	// Output:
	// {PublicSuffix:co.uk RegistrableDomain:example.co.uk Subdomain:a.b}
	// alice.github.io github.io
}

func ExampleURL_QueryParam() {
	u, _ := normalize.Parse("https://example.com/search?q=caf%C3%A9+au+lait&page=2&q=tea")
	q, ok := u.QueryParam("q")
	fmt.Printf("%q %v\n", q, ok)
	_, ok = u.QueryParam("utm_source")
	fmt.Println(ok)
	fmt.Println(u.QueryParams())
	// Output:
	// "café au lait" true
	// false
	// [{q café au lait} {page 2} {q tea}]
}

func ExampleURL_Extension() {
	u, _ := normalize.Parse("https://example.com/files/report.v2.PDF?dl=1")
	segs, _ := u.PathSegments()
	fmt.Printf("%s %q\n", u.Extension(), segs)
	// Output: PDF ["files" "report.v2.PDF"]
}

func ExampleNormalizer_CanonicalURL() {
	u, _ := normalize.MustLookup("clara").CanonicalURL("http://sepe.es/HomeSepe/?utm_source=x&id=7")
	id, _ := u.QueryParam("id")
	fmt.Println(u.Scheme(), u.Host(), u.Path(), id)
	// Output: https www.sepe.es /HomeSepe 7
}

// A Parser reuses one URL from call to call: parsing a column of URLs
// allocates nothing once its buffers have grown. What it returns is valid
// until the next call, so keep a copy of what must outlive it.
func ExampleParser() {
	var p normalize.Parser
	var hosts []string
	for _, raw := range []string{"HTTPS://WWW.Example.COM:8443/a", "https://shop.example.co.uk/b?x=1", "nope"} {
		u, err := p.Parse(raw)
		if err != nil {
			fmt.Println(normalize.KindOf(err))
			continue
		}
		hosts = append(hosts, strings.Clone(u.Host()))
	}
	fmt.Println(hosts)
	// Output:
	// missing_scheme
	// [www.example.com shop.example.co.uk]
}

// ParseAuthority reads a URL only up to the end of its authority: the
// scheme, the host and the port, with Parse's answers and errors, for less
// work (url_host and is_valid_url in SQL).
func ExampleParser_ParseAuthority() {
	var p normalize.Parser
	u, _ := p.ParseAuthority("HTTP://WWW.Example.COM:8080/a/../b?q=1")
	fmt.Println(u.Scheme(), u.Host(), u.Port(), u.RegistrableDomain())
	_, err := p.ParseAuthority("https://exa mple.com/")
	fmt.Println(normalize.KindOf(err))
	// Output:
	// http www.example.com 8080 example.com
	// invalid_host
}

// ParseWithoutPath reads what comes after the path (and before it), not
// the path itself: url_query and url_fragment use it.
func ExampleParser_ParseWithoutPath() {
	var p normalize.Parser
	u, _ := p.ParseWithoutPath("https://example.com/a/../b?utm_source=x&id=7#top")
	q, _ := u.Query()
	f, _ := u.Fragment()
	v, _ := u.QueryParam("id")
	fmt.Printf("%s %q %s %s %s\n", u.Host(), u.Path(), q, f, v)
	// Output:
	// example.com "" utm_source=x&id=7 top 7
}

// AppendPathSegments fills a reused list, where PathSegments makes a new
// one per URL.
func ExampleURL_AppendPathSegments() {
	var segs []string
	for _, raw := range []string{"https://example.com/a/b/", "https://example.com/", "mailto:x@example.com"} {
		u, _ := normalize.Parse(raw)
		var ok bool
		segs, ok = u.AppendPathSegments(segs[:0])
		fmt.Printf("%q %v\n", segs, ok)
	}
	// Output:
	// ["a" "b" ""] true
	// [""] true
	// [] false
}
