package resolve_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/resolve"
	"github.com/urlnorm/urlnorm/resolve/resolvetest"
)

// govResolver is a Resolver for a stand-in Internet: loopback servers that
// answer for these names. Real code leaves out ConnectTo, AllowPrivate and
// RootCAs. done releases both.
func govResolver() (r *resolve.Resolver, done func()) {
	srv := resolvetest.NewServer("bit.ly", "seg-social.es", "*.seg-social.es", "boe.es", "*.boe.es")
	srv.Handle("bit.ly", resolvetest.ByPath(map[string]http.HandlerFunc{
		"/imv":  resolvetest.Redirect(301, "https://seg-social.es/imv?utm_source=twitter"),
		"/shop": resolvetest.Redirect(301, "https://shop.example/deal"),
	}))
	srv.Handle("seg-social.es", resolvetest.Redirect(301, "https://www.seg-social.es/imv"))
	srv.Handle("www.seg-social.es", resolvetest.ByPath(map[string]http.HandlerFunc{
		"/imv":                                   resolvetest.Redirect(302, "/wps/portal/wss/internet/Trabajadores/"),
		"/wps/portal/wss/internet/Trabajadores/": resolvetest.OK,
	}))
	srv.Handle("boe.es", resolvetest.Redirect(301, "https://www.boe.es/"))
	srv.Handle("www.boe.es", resolvetest.OK)
	r, err := resolve.New(resolve.Config{
		Allowlist:  []string{"seg-social.es", "*.seg-social.es", "boe.es", "*.boe.es"},
		Shorteners: resolve.DefaultShorteners,
		// Test only: send every name to the loopback servers.
		ConnectTo: srv.ConnectTo(), AllowPrivate: true, RootCAs: srv.Pool,
	})
	if err != nil {
		panic(err)
	}
	return r, func() { r.Close(); srv.Close() }
}

// Rule 7 and URL shorteners: the final URL of the chain, canonical by the
// clara profile; a chain that leaves the allowlist is rejected. Hops are
// requested as the redirects name them; only the stored URL is cleaned.
func ExampleResolver_Resolve() {
	r, done := govResolver()
	defer done()

	res, err := r.Resolve(context.Background(), "https://bit.ly/imv")
	fmt.Println(res.URL, err)
	for _, h := range res.Chain {
		fmt.Println("  ", h.Status, h.URL)
	}

	res, err = r.Resolve(context.Background(), "https://bit.ly/shop")
	fmt.Println(res.Flag, errors.Is(err, resolve.ErrRejected))
	// Output:
	// https://www.seg-social.es/wps/portal/wss/internet/Trabajadores <nil>
	//    301 https://bit.ly/imv
	//    301 https://seg-social.es/imv?utm_source=twitter
	//    302 https://www.seg-social.es/imv
	//    200 https://www.seg-social.es/wps/portal/wss/internet/Trabajadores/
	// left_allowlist true
}

// Rule 5: learn canonical hosts and load them over the clara profile.
func ExampleBuildHostMap() {
	r, done := govResolver()
	defer done()

	learned := r.LearnHosts(context.Background(), []string{"boe.es", "seg-social.es"}, 2)
	m, _ := resolve.BuildHostMap(learned)
	fmt.Print(string(m.JSON()))

	p, err := resolve.ApplyHostMap(normalize.MustLookup("clara").Profile(), m)
	if err != nil {
		panic(err)
	}
	clara, _ := normalize.New(p)
	fmt.Println(clara.Normalize("http://seg-social.es/imv/"))
	// Output:
	// {
	//   "hosts": {
	//     "boe.es": "www.boe.es",
	//     "seg-social.es": "www.seg-social.es"
	//   }
	// }
	// https://www.seg-social.es/imv <nil>
}

func ExampleCanonicalHost() {
	for _, h := range []string{"SEDE.Gob.ES.", "bücher.de", "0x7f.1", "sede.gob.es@evil.com"} {
		fmt.Println(resolve.CanonicalHost(h))
	}
	// Output:
	// sede.gob.es <nil>
	// xn--bcher-kva.de <nil>
	// 127.0.0.1 <nil>
	//  urlnorm: canonical host "sede.gob.es@evil.com": invalid_host (want a bare host name or IP address)
}
