package normalize_test

import (
	"fmt"

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
