package normalize

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// Error classes. Every error returned by this package matches exactly one of
// them with errors.Is, so callers (and the SQL try_ functions) can tell bad
// data from bad configuration.
var (
	// ErrInvalid: the input is not a URL the profile can canonicalize.
	ErrInvalid = errors.New("invalid URL")
	// ErrLimit: the input exceeds a configured limit (length, query parameters).
	ErrLimit = errors.New("limit exceeded")
	// ErrConfig: a profile or configuration file is malformed.
	ErrConfig = errors.New("invalid configuration")
)

// Kind is the precise reason for an error; it belongs to one class.
// Kinds are stable identifiers: golden files and SQL fixtures match them.
type Kind struct {
	Code  string // stable snake_case code, e.g. "invalid_host"
	Class error  // ErrInvalid, ErrLimit or ErrConfig
}

func (k *Kind) Error() string { return k.Code }

// Is makes errors.Is(kind, class) true.
func (k *Kind) Is(target error) bool { return target == k.Class }

// The kinds this package reports.
var (
	KindEmpty          = &Kind{"empty_input", ErrInvalid}
	KindMissingScheme  = &Kind{"missing_scheme", ErrInvalid}
	KindScheme         = &Kind{"unsupported_scheme", ErrInvalid}
	KindMissingHost    = &Kind{"missing_host", ErrInvalid}
	KindHost           = &Kind{"invalid_host", ErrInvalid}
	KindIPv4           = &Kind{"invalid_ipv4", ErrInvalid}
	KindIPv6           = &Kind{"invalid_ipv6", ErrInvalid}
	KindPort           = &Kind{"invalid_port", ErrInvalid}
	KindURL            = &Kind{"invalid_url", ErrInvalid}
	KindTooLong        = &Kind{"too_long", ErrLimit}
	KindTooManyParams  = &Kind{"too_many_params", ErrLimit}
	KindConfig         = &Kind{"config", ErrConfig}
	KindUnknownProfile = &Kind{"unknown_profile", ErrConfig}
)

// Error describes a failed operation on one input. It carries the operation,
// the input (truncated for display), the kind and a human reason.
type Error struct {
	Op     string // "normalize", "resolve", "load profile", ...
	Input  string // the offending input, or the file name for config errors
	Kind   *Kind
	Reason string // human-readable detail, may be empty
	Err    error  // underlying error, may be nil
}

// maxQuoted bounds how much of an input an error message repeats.
const maxQuoted = 80

func (e *Error) Error() string {
	s := "urlnorm: " + e.Op + " " + Quote(e.Input) + ": " + e.Kind.Code
	if e.Reason != "" {
		s += " (" + e.Reason + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Is reports the error's kind and class.
func (e *Error) Is(target error) bool {
	return target == e.Kind || target == e.Kind.Class
}

func (e *Error) Unwrap() error { return e.Err }

// Quote returns s quoted for an error message, truncated to a readable
// length at a rune boundary.
func Quote(s string) string { return quoteN(s, maxQuoted) }

// quoteN is Quote with at most n bytes of s.
func quoteN(s string, n int) string {
	if len(s) <= n {
		return strconv.Quote(s)
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// KindOf returns the kind code of err ("" for nil, "internal" for errors
// that did not come from this package).
func KindOf(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Kind.Code
	}
	var k *Kind
	if errors.As(err, &k) {
		return k.Code
	}
	return "internal"
}

func newError(op, input string, k *Kind, reason string) *Error {
	return &Error{Op: op, Input: input, Kind: k, Reason: reason}
}
