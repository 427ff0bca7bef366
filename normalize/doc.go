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
// or the value and the profile rule that refused it ('!' in host
// "a!b.com": host.charset dns). Codes are stable; reasons are for people
// and may be reworded. No input makes the package panic; FuzzNormalize
// checks it.
//
// # Files, and where each is tested
//
//	profile.go   Profile and its sections, ParseProfile    compile_test, example_test, docs_test
//	compile.go   New: checks and compiles each section     compile_test (one row per refusal), tracking_test
//	engine.go    Normalize, run: scheme, host, percent     golden_test, canary_test, idempotency_test, assume_test, pass_test
//	path.go      path rules                                golden_test, language_test, clara_test
//	query.go     query rules                               golden_test, keyvalue_test, tracking_test, limits_test
//	knobs.go     the peers' rules (issue 15), finishURL    knobs_test, fuzzprofiles_test, golden_test
//	decode.go    percent.decode_repeatedly                 knobs_test, fuzzprofiles_test
//	www.go       host.strip_www, the public suffix test    knobs_test
//	safebrowsing.go  Safe Browsing's lookup expressions    safebrowsing_test
//	parse.go     the WHATWG parser                         wpt_test, hascontrol_test
//	verbatim.go  input already in serialized form          fastpath_test, fuzz_test
//	host.go      the host parser, IPv4, IPv6, IDNA         wpt_test, limits_test (long IDN labels)
//	url.go       URL, its components                       wpt_test
//	chars.go     byte classes, percent-encoding            wpt_test
//	pattern.go   parameter patterns                        pattern_test, tracking_test
//	why.go       Error.Reason                              why_test, limits_test
//	errors.go    Error, Kind, classes                      limits_test, why_test
//	hash.go      sha256 and xxhash64 digests               hash_test, hex_test, canary_test
//	linktype.go  LinkType, ClassifyURL                     linktype_test
//	result.go    Canonicalize's Result                     clara_test, result_alias_test
//	registry.go  built-ins, Lookup, Register               golden_test, canary_test
//
// Every fast path is compared with the general code it shortcuts
// (useReference; fastpath_test over the corpus, fuzz_test on any input),
// and FuzzNormalize checks idempotency, parsing round trips and bounds;
// FuzzProfiles does the same for random profiles drawn from every rule.
//
// # Adding a rule
//
//  1. Add the field to its section in profile.go, with a comment citing
//     the source document; its zero value must mean "leave this alone".
//  2. Check and compile it in the section's function in compile.go, the
//     one code that refuses a bad profile (Validate runs it): errors go
//     through p.bad and name the field. Add a TestProfileErrors row per
//     refusal.
//  3. Apply it on the general path (engine.go, path.go or query.go), and
//     make every fast path that could skip it see it: asParsed must not
//     copy what the rule changes, needParams, bySegment and pctAny must
//     turn on for it (compileVerbatim's allow-list, and compileQueryKept's
//     for a query rule, keep verbatimCanon off for a profile with the rule
//     until it is taught the rule).
//  4. If it refuses input, fail through st.p.fail with the rule's field
//     name (host.charset dns), and add a TestErrorReasons row.
//  5. Turn it on in a referenceProfiles variant (fastpath_test.go), so
//     that TestFastPathsMatchReference and FuzzNormalize compare the fast
//     paths with it, and draw it in drawProfile (fuzzprofiles_test.go), so
//     that FuzzProfiles combines it with every other rule; a new fast path
//     gets its switch in useReference.
//  6. Document it in docs/profiles.md (its field table; TestProfilesDoc
//     runs the examples) and, if a source system's file sets it, in
//     package sourceconfig.
//  7. A change to a built-in's output needs a version bump in
//     profiles/*.json (and in docs/profiles.md's table), reviewed golden
//     rows (testdata/golden) and the canary re-pinned: go test ./normalize
//     -run TestCanary -update-canary.
package normalize
