package normalize

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Profile is a complete, serializable canonicalization policy. Built-in
// profiles ship as embedded JSON files (profiles/*.json); users load their
// own with ParseProfile (or sourceconfig's YAML and configuration
// loaders). The zero value of every rule means "leave this alone", so a
// profile states each change it makes.
//
// Any change to a built-in's output must come with a Version bump: golden
// files pin every built-in's outputs and hashes per version.
type Profile struct {
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	Description string   `json:"description,omitempty"`
	Source      string   `json:"source,omitempty"` // the document the profile implements
	Notes       []string `json:"notes,omitempty"`  // decisions where the source is silent

	Scheme     SchemeRules   `json:"scheme"`
	Host       HostRules     `json:"host"`
	Userinfo   UserinfoRules `json:"userinfo,omitzero"`
	Port       PortRules     `json:"port"`
	Path       PathRules     `json:"path"`
	Percent    PercentRules  `json:"percent"`
	Query      QueryRules    `json:"query"`
	Fragment   FragmentRules `json:"fragment"`
	Hosts      []HostRule    `json:"hosts,omitempty"`      // per-host overrides, by exact host; each host once
	Pagination *Pagination   `json:"pagination,omitempty"` // clara-policy Rule 9
	Language   *Language     `json:"language,omitempty"`   // clara-policy Rule 10
	Hash       string        `json:"hash"`                 // "sha256" or "xxhash64"
	Limits     Limits        `json:"limits"`
}

// SchemeRules: the scheme is always lowercased by the parser.
type SchemeRules struct {
	// Allowed lists the accepted schemes; empty accepts any scheme.
	Allowed []string `json:"allowed,omitempty"`
	// Upgrade rewrites a scheme to another, e.g. {"http": "https"}.
	Upgrade map[string]string `json:"upgrade,omitempty"`
	// Assume is the scheme given to input without one ("example.com/p");
	// empty makes such input an error. Input starting with "/" is always
	// an error (no host).
	Assume string `json:"assume,omitempty"`
}

// Host charsets.
const (
	CharsetWHATWG  = "whatwg"  // anything the URL Standard's host parser accepts
	CharsetRFC3986 = "rfc3986" // reg-name: unreserved and sub-delims
	CharsetDNS     = "dns"     // letters, digits, '-', '_' and '.'
)

// HostRules apply to the host after the URL Standard's host parser, which
// already lowercases domains, maps IDNs to punycode and canonicalizes IPv4
// and IPv6 addresses.
type HostRules struct {
	// StripTrailingDot removes trailing dots from a domain ("example.com.").
	StripTrailingDot bool `json:"strip_trailing_dot,omitempty"`
	// Charset restricts the characters of a domain of a special URL:
	// "whatwg" (default), "rfc3986" or "dns".
	Charset string `json:"charset,omitempty"`
	// RequireDot rejects domains without a dot other than "localhost".
	RequireDot bool `json:"require_dot,omitempty"`
	// LowercaseOpaque lowercases the opaque host of a non-special URL
	// (RFC 3986 §6.2.2.1: the host is case-insensitive in every scheme).
	LowercaseOpaque bool `json:"lowercase_opaque,omitempty"`
	// Map replaces a host by its canonical host (clara-policy Rule 5).
	// Keys and values are normalized hosts; a value may not be a key.
	Map map[string]string `json:"map,omitempty"`
	// StripWWW removes a leading "www." label (StripWWWLabel) or a
	// "www" label followed by digits too ("www2.", StripWWWDigits), unless
	// what remains is a public suffix ("www.co.uk" stays) or starts with
	// such a label itself ("www.www2.example.com" stays): normalize-url's
	// stripWWW. It applies before Map.
	StripWWW string `json:"strip_www,omitempty"`
}

// HostRules.StripWWW values.
const (
	StripWWWLabel  = "www"        // "www.example.com" → "example.com"
	StripWWWDigits = "www_digits" // also "www2.example.com" → "example.com"
)

// UserinfoRules: Remove drops the username and password ("u:p@"), as
// Safe Browsing, normalize-url and crawler-commons do.
type UserinfoRules struct {
	Remove bool `json:"remove,omitempty"`
}

// PortRules: the parser removes the default port of special schemes (http
// 80, https 443, ws 80, wss 443, ftp 21); Defaults adds schemes to that.
type PortRules struct {
	Defaults map[string]int `json:"defaults,omitempty"`
	// RemoveAll drops every port, default or not (Safe Browsing).
	RemoveAll bool `json:"remove_all,omitempty"`
}

// Trailing slash policies.
const (
	SlashKeep             = "keep"
	SlashRemove           = "remove"             // every trailing slash, the root's too
	SlashRemoveExceptRoot = "remove_except_root" // "/" stays
)

// PathRules apply to hierarchical paths; opaque paths ("mailto:x") are only
// percent-normalized. Dot segments are always resolved by the parser.
type PathRules struct {
	// TrailingSlash: "keep" (default), "remove" or "remove_except_root".
	TrailingSlash string `json:"trailing_slash,omitempty"`
	// CollapseSlashes turns runs of '/' into one.
	CollapseSlashes bool `json:"collapse_slashes,omitempty"`
	// EmptyPathSlash gives a URL with a host and an empty path the path "/".
	EmptyPathSlash bool `json:"empty_path_slash,omitempty"`
	// RemoveParams drops ";name=value" path parameters whose name matches
	// (";jsessionid=…", clara-policy Rule 8). Each group has a reason.
	RemoveParams []ParamGroup `json:"remove_params,omitempty"`
	// RemoveCookieless drops ASP.NET cookieless ids, path segments of the
	// form "(S(id))" or "(A(id)S(id)F(id))", by the name of each id ("S"
	// is the session); a segment left with no id goes.
	RemoveCookieless []ParamGroup `json:"remove_cookieless,omitempty"`
	// RemoveLoneRoot removes the root path "/" when nothing follows it
	// (no query, no fragment): "http://x.com/" → "http://x.com", but
	// "http://x.com/?a=1" stays (normalize-url's removeSingleSlash).
	RemoveLoneRoot bool `json:"remove_lone_root,omitempty"`
	// KeepSchemeSlashes keeps "//" after an embedded scheme when
	// CollapseSlashes collapses the others: "/r/http://x.com//y" →
	// "/r/http://x.com/y" (normalize-url). The scheme is a lowercase
	// letter and 1 to 50 of [a-z0-9+.-], then ':', after a character that
	// is not a letter, digit or '_'.
	KeepSchemeSlashes bool `json:"keep_scheme_slashes,omitempty"`
	// Lowercase lowercases the path's ASCII letters (escapes keep their
	// hex digits), before the other path rules see it.
	Lowercase bool `json:"lowercase,omitempty"`
}

// PercentRules normalize percent-encoding in userinfo, path, query and
// fragment (RFC 3986 §6.2.2.1–2). Reserved characters (%2F, %23, %25, %26,
// %3D …) are never decoded.
type PercentRules struct {
	UppercaseHex     bool `json:"uppercase_hex,omitempty"`
	DecodeUnreserved bool `json:"decode_unreserved,omitempty"`
	// EncodeStray turns a '%' not followed by two hex digits into "%25".
	EncodeStray bool `json:"encode_stray,omitempty"`
	// DecodeRepeatedly decodes every escape, reserved ones included, until
	// none is left ("%2541" → "%41" → "A"; Safe Browsing), then
	// percent-encodes what the component needs encoded (its URL Standard
	// encode set, '%' and '#'). A decoded '/' separates path segments, a
	// decoded '&' or '=' query parameters; dot segments are resolved again.
	DecodeRepeatedly bool `json:"decode_repeatedly,omitempty"`
}

// Query orders.
const (
	OrderKeep     = "keep"
	OrderPair     = "pair"      // bytewise on the normalized "key=value"
	OrderKeyValue = "key_value" // by key, then by value
	OrderKey      = "key"       // by key, stable: repeated keys keep their order
)

// QueryRules. The query is split on '&' into parameters when any rule needs
// parameters (a removal, an order other than keep, form encoding …).
type QueryRules struct {
	// Order: "keep" (default), "pair", "key_value" or "key".
	Order string `json:"order,omitempty"`
	// DropEmpty removes a '?' with nothing after it (also after removals).
	DropEmpty bool `json:"drop_empty,omitempty"`
	// DropEmptyPairs removes empty parameters ("a=1&&b=2").
	DropEmptyPairs bool `json:"drop_empty_pairs,omitempty"`
	// BareEmptyValue writes "k=" as "k".
	BareEmptyValue bool `json:"bare_empty_value,omitempty"`
	// ExplicitEmptyValue writes "k" as "k=" (w3lib, normalize-url); an
	// empty parameter ("a&&b") stays empty.
	ExplicitEmptyValue bool `json:"explicit_empty_value,omitempty"`
	// FormEncoding decodes keys and values as application/x-www-form-
	// urlencoded and re-encodes them: space as '+', every byte but the
	// unreserved ones percent-encoded.
	FormEncoding bool `json:"form_encoding,omitempty"`
	// FormRaw lists more bytes that FormEncoding writes as they are, from
	// !$()*,/:;=?@[\]^`{|} ('=' in values only).
	FormRaw string `json:"form_raw,omitempty"`
	// FormSpace is how FormEncoding writes a space: "+" (default) or "%20".
	FormSpace string `json:"form_space,omitempty"`
	// SortDecoded makes Order compare keys and values by their decoded
	// bytes (escapes decoded, '+' a space under FormEncoding) rather than
	// as written: the order of w3lib and URLSearchParams.sort.
	SortDecoded bool `json:"sort_decoded,omitempty"`
	// Lowercase lowercases the query's ASCII letters (escapes keep their
	// hex digits), before removal and order see it.
	Lowercase bool `json:"lowercase,omitempty"`
	// Remove lists parameters to drop, by reason ("tracking", "session").
	Remove []ParamGroup `json:"remove,omitempty"`
	// Keep lists parameters never removed by Remove (not by Pagination).
	Keep []string `json:"keep,omitempty"`
}

// ParamGroup is a named list of parameter patterns (see pattern syntax in
// the package documentation); Reason names what the group removes
// ("tracking", "session") in Canonicalize's report.
type ParamGroup struct {
	Reason   string   `json:"reason"`
	Patterns []string `json:"patterns"`
}

// FragmentRules: Remove drops the fragment (it is reported by Canonicalize).
type FragmentRules struct {
	Remove bool `json:"remove,omitempty"`
	// StripTextDirective removes a text fragment directive, from the
	// first ":~:text" (any case) to the end, keeping the rest
	// ("#section:~:text=hello" → "#section"); a fragment left empty goes
	// with its '#' (normalize-url's stripTextFragment).
	StripTextDirective bool `json:"strip_text_directive,omitempty"`
}

// HostRule overrides rules for one host (exact match on the normalized
// host). It carries the curious-now overrides file and edge-gateway's
// hosts.yaml.
type HostRule struct {
	Host string `json:"host"`
	// Tracking modifies the "tracking" removal group for this host.
	Tracking *ParamSet `json:"tracking,omitempty"`
	// Rewrite rules are applied, in order, to the normalized URL; the
	// result is normalized again. A from_prefix ending in '/' also matches
	// the URL that prefix normalizes to.
	Rewrite []Rewrite `json:"rewrite,omitempty"`
	// Paths refine the tracking set by URL path; the first match wins.
	Paths []PathRule `json:"paths,omitempty"`
}

// ParamSet changes an inherited list of patterns, edge-gateway style:
// Params replaces it, ParamsAdd extends it, Strip false disables removal.
// A level without Strip inherits its parent's flag, and the patterns
// accumulate even while removal is disabled, so a URL pattern can turn
// removal back on with "strip": true.
type ParamSet struct {
	Strip     *bool    `json:"strip,omitempty"`
	Params    []string `json:"params,omitempty"`
	ParamsAdd []string `json:"params_add,omitempty"`
}

// PathRule applies a ParamSet to paths matching Match: a glob ('*' matches
// any run of characters, '/' included), e.g. "/api/*", or a regexp with
// edge-gateway's prefixes, "~^/api/v[0-9]+/" (case-sensitive) or "~*…"
// (case-insensitive). Globs are case-sensitive: paths are.
type PathRule struct {
	Match    string    `json:"match"`
	Tracking *ParamSet `json:"tracking,omitempty"`
}

// Rewrite is a prefix rewrite (curious-now-v0 §3).
type Rewrite struct {
	FromPrefix string `json:"from_prefix"`
	ToPrefix   string `json:"to_prefix"`
}

// Pagination removes page-number parameters and reports them
// (clara-policy Rule 9: store the base URL, annotate the page).
type Pagination struct {
	Params []string `json:"params"`
}

// Language rewrites language path segments on configured hosts to the
// preferred language and reports the other languages as alternates
// (clara-policy Rule 10).
type Language struct {
	Preferred string         `json:"preferred"`
	Hosts     []LanguageHost `json:"hosts"`
}

// LanguageHost: on Host, path segment Segment (0-based) holds one of
// Languages. Preferred, when set, is this host's code for the preferred
// language (clara-policy Rule 10 names es, cas and castellano).
type LanguageHost struct {
	Host      string   `json:"host"`
	Segment   int      `json:"segment"`
	Languages []string `json:"languages"`
	Preferred string   `json:"preferred,omitempty"`
}

// Limits bound the work done per input.
type Limits struct {
	MaxLength int `json:"max_length,omitempty"` // bytes; 0 means DefaultMaxLength
	MaxParams int `json:"max_params,omitempty"` // query parameters; 0 means DefaultMaxParams
}

// Default limits.
const (
	DefaultMaxLength = 64 << 10
	DefaultMaxParams = 1000
)

// Hash names.
const (
	HashSHA256   = "sha256"
	HashXXHash64 = "xxhash64"
)

// ParseProfile reads a profile from JSON. Unknown fields are an error.
// name is used in error messages (a file name, say).
func ParseProfile(name string, data []byte) (Profile, error) {
	var p Profile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Profile{}, configError(name, jsonField(err), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Profile{}, configError(name, "", fmt.Errorf("trailing data after the profile"))
	}
	if err := p.Validate(); err != nil {
		return Profile{}, withFile(err, name)
	}
	return p, nil
}

// JSON returns the profile as indented JSON, loadable by ParseProfile.
func (p Profile) JSON() []byte {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		panic(err) // a Profile always marshals
	}
	return append(b, '\n')
}

// check reports whether s's patterns compile (they are compiled only where
// removal is on, but must be valid everywhere).
func (s *ParamSet) check() error {
	if s == nil {
		return nil
	}
	if _, err := compileMatcher(s.Params); err != nil {
		return err
	}
	_, err := compileMatcher(s.ParamsAdd)
	return err
}

// MarshalJSON writes an empty, non-nil Params as "params": [] (it replaces
// the inherited list with nothing), which omitempty would drop.
func (s ParamSet) MarshalJSON() ([]byte, error) {
	type plain ParamSet
	if s.Params == nil || len(s.Params) > 0 {
		return json.Marshal(plain(s))
	}
	return json.Marshal(struct {
		plain
		Params []string `json:"params"`
	}{plain(s), s.Params})
}

// apply returns the pattern list and strip flag after s modifies them.
func (s *ParamSet) apply(patterns []string, strip bool) ([]string, bool) {
	if s == nil {
		return patterns, strip
	}
	if s.Params != nil {
		patterns = append([]string(nil), s.Params...)
	}
	if len(s.ParamsAdd) > 0 {
		patterns = append(patterns[:len(patterns):len(patterns)], s.ParamsAdd...)
	}
	if s.Strip != nil {
		strip = *s.Strip
	}
	return patterns, strip
}

// configError builds an ErrConfig error naming the file (or profile) and
// the field.
func configError(file, field string, err error) error {
	reason := ""
	if field != "" {
		reason = "field " + field
	}
	return &Error{Op: "load profile", Input: file, Kind: KindConfig, Reason: reason, Err: err}
}

func withFile(err error, file string) error {
	if e, ok := err.(*Error); ok && file != "" {
		e2 := *e
		e2.Input = file
		return &e2
	}
	return err
}

// jsonField extracts the offending field from a encoding/json error.
func jsonField(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return te.Field
	}
	msg := err.Error()
	if i := strings.Index(msg, "unknown field "); i >= 0 {
		return strings.Trim(msg[i+len("unknown field "):], `"`)
	}
	return ""
}
