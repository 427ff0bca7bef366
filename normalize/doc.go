// Package normalize canonicalizes URLs: one WHATWG URL Standard parser and
// serializer, and profiles — complete, serializable policies — that say
// what canonical means for a use (dedup, idempotency keys, cache keys,
// citations).
//
// It is pure Go: no cgo, no network. A Normalizer is safe for concurrent
// use, and its outputs are idempotent (N(N(x)) == N(x)) and deterministic.
//
//	n, err := normalize.Lookup("default")
//	url, err := n.Normalize("HTTP://Example.COM:80/a/../b/?z=1&a=2#x") // "http://example.com/b?a=2&z=1"
//	key, err := n.Hash(url)                                            // sha256 hex of the canonical URL
//
// # Profiles
//
// Built-in profiles ship as embedded JSON (profiles/*.json) and carry a
// version; golden files (testdata/golden) pin their outputs, and a canary
// test fails when outputs change without a version bump. Custom profiles
// load from JSON (ParseProfile) or are built in Go from a built-in's
// Profile(); New compiles one, Register makes it available to Lookup and so
// to the SQL functions. Package sourceconfig reads profiles from YAML and
// the source systems' configuration files.
//
// # Parameter patterns
//
// Query (and path) parameter lists use one syntax everywhere:
//
//	fbclid       exact name, ASCII case-insensitive
//	utm_*        wildcard, '*' matches any run of bytes, case-insensitive
//	~^gclid.*    regular expression (RE2), case-sensitive
//	~*^gclid.*   regular expression, case-insensitive
//
// # Errors
//
// Every error is an *Error with an operation, the input and a Kind whose
// stable Code ("missing_scheme", "invalid_host", "too_long", …) belongs to
// exactly one class: ErrInvalid (bad data), ErrLimit (over a configured
// limit) or ErrConfig (a bad profile or an unknown profile name). Its
// Reason says why, as net/url's messages name the bad character: the
// offending byte and its 0-based offset in the input ("' ' at byte 10"),
// or the value and the profile rule that refused it ("'!' in host
// \"a!b.com\": host.charset dns"). Codes are stable; reasons are for
// people and may be reworded. No input makes the package panic;
// FuzzNormalize checks it.
package normalize
