// Package resolve is urlnorm's network side: it follows redirect chains
// and discovers each domain's canonical host for clara-policy Rules 5 and
// 7 and its URL-shortener rule, with an allowlist checked on every hop and
// an SSRF guard on every dialed address.
//
// Nothing in package normalize or in the SQL functions calls it: SQL
// functions stay deterministic and offline. The resolver feeds the offline
// clara profile through a host map (HostMap, written by "urlnorm
// learn-hosts"), and Resolve returns a final URL normalized by the profile.
//
// Security model, in the order a hop is checked:
//
//  1. Parsing: input URLs go through the profile; redirect targets
//     (Location) through the WHATWG parser against the current URL, as a
//     browser reads them.
//  2. Scheme: only http and https.
//  3. Host: compared in canonical form (CanonicalHost: lowercase, punycode,
//     no trailing dot, IPv4 number forms resolved), never as a string
//     prefix; the allowlist and shortener lists are checked before the
//     hop is dialed, and the same ASCII host is what the HTTP client dials,
//     sends as Host and verifies in TLS.
//  4. Credentials: URLs with user:password@ are refused; requests carry
//     only User-Agent and Accept (no cookies, Authorization or Referer).
//  5. Address: after DNS, the dialer refuses every address that is not
//     globally reachable unicast (loopback, private, link-local and cloud
//     metadata, CGNAT, multicast, documentation, benchmarking, reserved,
//     IPv4-mapped and NAT64 forms of those), once before connecting and
//     again in the socket's Control hook. The check runs on the address
//     actually dialed, so DNS rebinding and numeric host spellings do not
//     get around it. No proxy is ever used.
//  6. Limits: at most MaxHops redirects, HEAD first and a GET (whose body is
//     read only up to MaxBodyBytes) when HEAD gets 405 or 501, a response
//     header cap, per-dial, TLS, header, per-hop and total timeouts, and a
//     per-host rate limit.
//
// See docs/resolver.md for the flags, the CLI and what each refusal means.
package resolve
