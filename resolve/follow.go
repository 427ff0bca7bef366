package resolve

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/urlnorm/urlnorm/normalize"
)

// Hop is one request of a redirect chain.
type Hop struct {
	URL      string `json:"url"`                // the URL requested (WHATWG serialization, no fragment)
	Method   string `json:"method"`             // HEAD, or GET after a 405/501 answer to HEAD
	Status   int    `json:"status,omitempty"`   // 0 when no response arrived
	Location string `json:"location,omitempty"` // the Location header of a redirect, as sent
}

// Result is what Resolve learned about one URL.
type Result struct {
	// URL is the canonical URL to store: the final URL of the chain
	// normalized with the profile (clara: https, host map …). With the
	// flags too_many_redirects, loop and bad_location it is the original
	// URL normalized instead (Rule 7: "store the original URL and flag").
	// When the chain ends on http, its https form is probed once: if it
	// answers 2xx, URL is https as usual; if not, URL is the final URL
	// normalized but left on http, flagged http_only (Rule 1's
	// exception). Empty when err != nil.
	URL      string `json:"url,omitempty"`
	Original string `json:"original"`         // the input, as given
	Final    string `json:"final,omitempty"`  // the last URL requested, before normalization (not set with an error)
	Status   int    `json:"status,omitempty"` // its response's status
	Chain    []Hop  `json:"chain"`
	// Probe is the https request made when the chain ended on http.
	Probe *Hop `json:"https_probe,omitempty"`
	// Flag is "" or a reason for manual review: a chain kind code
	// (too_many_redirects, loop, bad_location), FlagHTTPOnly, or, with
	// an error, a rejection kind code (left_allowlist, blocked_address,
	// redirect_scheme, redirect_credentials).
	Flag string `json:"flag,omitempty"`
}

// FlagHTTPOnly: the chain ended on an http URL whose https form does not
// answer 2xx (clara-policy Rule 1: "if a government site genuinely does
// not support HTTPS, store as HTTP and flag for manual review").
const FlagHTTPOnly = "http_only"

const (
	opResolve  = "resolve"
	opDiscover = "discover host"
)

// Resolve follows rawURL's redirects (clara-policy Rule 7 and "URL
// shorteners") and returns the canonical final URL.
//
// The first request goes to rawURL normalized by the profile without its
// host map (the pipeline's steps 1–7: https, tracking and session
// parameters, fragment …). If that is an upgraded https URL and its first
// hop fails on the network, the http URL is tried. A chain that ends on
// http has its https form probed once; if that does not answer 2xx, the
// result stays on http and is flagged http_only (Rule 1's exception).
// Every hop is checked before it is dialed (scheme, allowlist,
// credentials, then the SSRF guard on the dialed IP).
//
// Errors: ErrInput for a URL that cannot be fetched, ErrRejected (with
// Result.Flag set) when a hop is refused, ErrNetwork when a request fails.
// A 4xx or 5xx final answer is not an error: see Result.Status.
func (r *Resolver) Resolve(ctx context.Context, rawURL string) (Result, error) {
	res := Result{Original: rawURL, Chain: []Hop{}}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	start, err := r.startURL(r.fetch, rawURL)
	if err != nil {
		return res, err
	}
	hops, last, err := r.follow(ctx, opResolve, rawURL, start)
	var failed *Hop // the https attempt, when the http fallback ran
	if k := kindOf(err); k != nil && k.Class == ErrNetwork && len(hops) == 1 && ctx.Err() == nil {
		if plain, perr := r.startURL(r.fetchHTTP, rawURL); perr == nil && plain.Href() != start.Href() {
			failed = &hops[0]
			hops, last, err = r.follow(ctx, opResolve, rawURL, plain)
		}
	}
	res.Chain = hops
	switch k := kindOf(err); {
	case err == nil:
		res.Final, res.Status = hops[len(hops)-1].URL, hops[len(hops)-1].Status
	case k == KindTooManyRedirects || k == KindLoop || k == KindBadLocation:
		res.Final, res.Status = hops[len(hops)-1].URL, hops[len(hops)-1].Status
		return r.keepOriginal(res, k)
	default:
		if k != nil && k.Class == ErrRejected {
			res.Flag = k.Code
		}
		return res, err
	}
	n := r.canon
	if last.Scheme() == "http" {
		ok := false
		if failed != nil && dialHost(last) == dialHost(start) {
			res.Probe = failed // https was just tried on this host
		} else {
			res.Probe, ok = r.probeHTTPS(ctx, res.Final)
		}
		if !ok {
			n, res.Flag = r.canonHTTP, FlagHTTPOnly
		}
	}
	if res.URL, err = n.Normalize(res.Final); err != nil {
		// The profile refuses the page the chain ended on (too long, a
		// host its charset rejects …): keep the original, like any other
		// chain that cannot be used.
		return r.keepOriginal(res, KindBadLocation)
	}
	return res, nil
}

// probeHTTPS asks whether the https form of a chain's http final URL (as
// the profile without its host map writes it: Rule 1 makes it https)
// answers 2xx. It is one HEAD (GET on 405/501), under the same checks as
// every hop; an explicit port, whose https form would be a guess, is not
// probed.
func (r *Resolver) probeHTTPS(ctx context.Context, final string) (*Hop, bool) {
	s, err := r.fetch.Normalize(final)
	if err != nil {
		return nil, false
	}
	u, err := normalize.Parse(s)
	if err != nil || u.Scheme() != "https" || u.Port() >= 0 {
		return nil, false
	}
	host := dialHost(u)
	if host == "" {
		return nil, false
	}
	resp, method, err := r.request(ctx, u, host)
	hop := &Hop{URL: hrefOf(u), Method: method}
	if err != nil {
		return hop, false
	}
	hop.Status = resp.StatusCode
	return hop, resp.StatusCode >= 200 && resp.StatusCode < 300
}

func (r *Resolver) keepOriginal(res Result, k *Kind) (Result, error) {
	res.Flag = k.Code
	var err error
	if res.URL, err = r.canon.Normalize(res.Original); err != nil {
		return res, inputErr(opResolve, res.Original, KindInvalidURL, normalize.KindOf(err), err)
	}
	return res, nil
}

// startURL normalizes raw with n and checks it can be fetched.
func (r *Resolver) startURL(n *normalize.Normalizer, raw string) (*normalize.URL, error) {
	s, err := n.Normalize(raw)
	if err != nil {
		k := KindInvalidURL
		if errors.Is(err, normalize.KindScheme) {
			k = KindScheme // the profile allows only some schemes (clara: http, https)
		}
		return nil, inputErr(opResolve, raw, k, normalize.KindOf(err), err)
	}
	u, err := normalize.Parse(s)
	if err != nil {
		return nil, inputErr(opResolve, raw, KindInvalidURL, normalize.KindOf(err), err)
	}
	switch {
	case u.Scheme() != "http" && u.Scheme() != "https":
		return nil, inputErr(opResolve, raw, KindScheme, "only http and https are fetched", nil)
	case u.Username() != "" || u.Password() != "":
		return nil, inputErr(opResolve, raw, KindCredentials, "credentials are never sent", nil)
	case dialHost(u) == "":
		return nil, inputErr(opResolve, raw, KindInvalidHost, "not a DNS name or IP address", nil)
	}
	return u, nil
}

func inputErr(op, input string, k *Kind, reason string, err error) error {
	return &Error{Op: op, Input: input, Hop: -1, Kind: k, Reason: reason, Err: err}
}

// DiscoverHost finds a domain's canonical host (clara-policy Rule 5): a
// HEAD request to http://domain/, every redirect followed under the same
// checks as Resolve, and the final URL's host. Answers are cached per
// domain for CacheTTL, and concurrent calls for one domain share one
// chain of requests (which runs to its own Timeout even if a caller's ctx
// ends first). A chain that Resolve would flag is an error here.
func (r *Resolver) DiscoverHost(ctx context.Context, domain string) (string, error) {
	d, reason := canonicalHost(domain)
	if reason != "" {
		return "", inputErr(opDiscover, domain, KindInvalidHost, reason, nil)
	}
	start, err := normalize.Parse("http://" + d + "/")
	if err != nil {
		return "", inputErr(opDiscover, domain, KindInvalidHost, normalize.KindOf(err), err)
	}
	discover := func(ctx context.Context) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
		defer cancel()
		_, last, err := r.follow(ctx, opDiscover, domain, start)
		if err != nil {
			return "", err
		}
		return dialHost(last), nil
	}
	if r.cfg.CacheTTL < 0 {
		return discover(ctx)
	}
	host, err := r.cache.get(ctx, d, func() (string, error) {
		return discover(context.WithoutCancel(ctx))
	})
	if err != nil && kindOf(err) == nil {
		err = &Error{Op: opDiscover, Input: domain, Hop: -1, Kind: classify(err), Err: err}
	}
	return host, err
}

// follow requests start and each redirect target in turn. It returns the
// hops made, the last URL requested and, when the chain stops early, an
// *Error whose kind says why.
func (r *Resolver) follow(ctx context.Context, op, input string, start *normalize.URL) ([]Hop, *normalize.URL, error) {
	hops := []Hop{}
	cur, host := start, dialHost(start)
	fail := func(k *Kind, target, reason string, err error) error {
		return &Error{Op: op, Input: input, Hop: len(hops) - 1, URL: target, Kind: k, Reason: reason, Err: err}
	}
	if !r.mayVisit(host) {
		return hops, cur, fail(KindLeftAllowlist, hrefOf(cur), "host "+host+" is not on the allowlist", nil)
	}
	seen := map[string]bool{}
	for {
		href := hrefOf(cur)
		seen[href] = true
		resp, method, err := r.request(ctx, cur, host)
		hops = append(hops, Hop{URL: href, Method: method})
		hop := &hops[len(hops)-1]
		if err != nil {
			return hops, cur, fail(classify(err), href, "", err)
		}
		hop.Status = resp.StatusCode
		if !isRedirect(resp.StatusCode) {
			if r.allow != nil && !r.allow.has(host) {
				return hops, cur, fail(KindLeftAllowlist, href, "the chain ends on "+host+", which is not on the allowlist", nil)
			}
			return hops, cur, nil
		}
		locs := resp.Header.Values("Location")
		if len(locs) > 0 {
			hop.Location = locs[0]
		}
		next, nextHost, k, reason := r.target(cur, locs)
		if k != nil {
			target := ""
			if next != nil {
				target = hrefOf(next)
			}
			return hops, cur, fail(k, target, reason, nil)
		}
		nextHref := hrefOf(next)
		if seen[nextHref] {
			return hops, cur, fail(KindLoop, nextHref, "redirect back to an earlier URL of the chain", nil)
		}
		if len(hops) > r.cfg.MaxHops {
			return hops, cur, fail(KindTooManyRedirects, nextHref, "more than "+strconv.Itoa(r.cfg.MaxHops)+" redirects", nil)
		}
		cur, host = next, nextHost
	}
}

// target parses a redirect's Location against the current URL and checks
// the result before anything is dialed.
func (r *Resolver) target(cur *normalize.URL, locs []string) (*normalize.URL, string, *Kind, string) {
	switch {
	case len(locs) == 0 || strings.TrimSpace(locs[0]) == "":
		return nil, "", KindBadLocation, "redirect without a Location"
	case len(locs) > 1:
		return nil, "", KindBadLocation, "several Location headers"
	}
	// The WHATWG parser reads Location as a browser does: relative and
	// scheme-relative references, '\' as '/', spaces percent-encoded,
	// tabs and newlines removed, IPv4 number forms made dotted decimal.
	next, err := normalize.ParseRef(cur, locs[0])
	if err != nil {
		return nil, "", KindBadLocation, "unparsable Location: " + normalize.KindOf(err)
	}
	host := dialHost(next)
	switch {
	case next.Scheme() != "http" && next.Scheme() != "https":
		return next, "", KindRedirectScheme, "only http and https are followed"
	case host == "":
		return next, "", KindBadLocation, "host is not a DNS name or IP address"
	case !r.mayVisit(host):
		return next, "", KindLeftAllowlist, "host " + host + " is not on the allowlist"
	case next.Username() != "" || next.Password() != "":
		return next, "", KindRedirectCredentials, "credentials are never sent"
	}
	return next, host, nil, ""
}

// mayVisit reports whether a request to host is allowed: any host without
// an allowlist, else an allowlisted host or a shortener.
func (r *Resolver) mayVisit(host string) bool {
	return r.allow == nil || r.allow.has(host) || r.short.has(host)
}

func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// hrefOf is u's serialization without its fragment (never sent, and not
// part of a redirect's identity).
func hrefOf(u *normalize.URL) string {
	s := u.Href()
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	return s
}
