package resolve

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"

	"github.com/urlnorm/urlnorm/normalize"
)

// Error classes. Every error the resolver returns matches exactly one of
// them with errors.Is, so a caller can tell "this URL is bad" from "policy
// refused to follow it" from "the network failed, try again later".
var (
	// ErrInput: the URL or domain given is not something the resolver
	// will fetch (unparsable, not http/https, carries credentials …).
	ErrInput = errors.New("invalid input")
	// ErrRejected: a hop was refused by policy before it was dialed
	// (allowlist, SSRF guard, scheme, credentials), or the chain could not
	// be followed to its end (too long, a loop, a malformed Location).
	ErrRejected = errors.New("rejected")
	// ErrNetwork: DNS, connect, TLS, HTTP or a timeout. Retrying later may
	// succeed.
	ErrNetwork = errors.New("network failure")
)

// Kinds are normalize.Kind values (a stable code and one of the classes
// above): errors.Is(err, resolve.KindLoop) and errors.Is(err,
// resolve.ErrRejected) both hold for a loop. Resolve reports the rejection
// kinds as Result.Flag too.
type Kind = normalize.Kind

// Input kinds: the URL or domain passed to Resolve or DiscoverHost.
var (
	KindInvalidURL  = &Kind{Code: "invalid_url", Class: ErrInput}        // not a URL the profile accepts
	KindScheme      = &Kind{Code: "unsupported_scheme", Class: ErrInput} // not http or https
	KindCredentials = &Kind{Code: "credentials", Class: ErrInput}        // user:password@ in the URL
	KindInvalidHost = &Kind{Code: "invalid_host", Class: ErrInput}       // not a dialable DNS name or IP
)

// Rejection kinds: a hop refused before it was dialed.
var (
	KindLeftAllowlist       = &Kind{Code: "left_allowlist", Class: ErrRejected}       // host not on the allowlist
	KindBlocked             = &Kind{Code: "blocked_address", Class: ErrRejected}      // SSRF guard: non-public IP
	KindRedirectScheme      = &Kind{Code: "redirect_scheme", Class: ErrRejected}      // Location is not http/https
	KindRedirectCredentials = &Kind{Code: "redirect_credentials", Class: ErrRejected} // Location carries user:password@
)

// Chain kinds: the chain cannot be followed to its end. Resolve keeps the
// original URL and reports these as Result.Flag without an error
// (clara-policy Rule 7: "store the original URL and flag for manual
// review"); DiscoverHost returns them as errors.
var (
	KindTooManyRedirects = &Kind{Code: "too_many_redirects", Class: ErrRejected}
	KindLoop             = &Kind{Code: "loop", Class: ErrRejected}
	KindBadLocation      = &Kind{Code: "bad_location", Class: ErrRejected} // missing, unparsable or undialable Location
)

// Network kinds.
var (
	KindTimeout  = &Kind{Code: "timeout", Class: ErrNetwork}
	KindCanceled = &Kind{Code: "canceled", Class: ErrNetwork}
	KindDNS      = &Kind{Code: "dns", Class: ErrNetwork}
	KindDial     = &Kind{Code: "dial", Class: ErrNetwork}
	KindTLS      = &Kind{Code: "tls", Class: ErrNetwork}
	KindHTTP     = &Kind{Code: "http", Class: ErrNetwork} // malformed or oversized response
)

// Error describes a failed Resolve or DiscoverHost.
type Error struct {
	Op     string // "resolve" or "discover host"
	Input  string // the URL or domain given
	Hop    int    // index in Result.Chain of the hop at fault; -1 for the input itself
	URL    string // the hop's URL (a redirect target for rejections), if any
	Kind   *Kind
	Reason string // human detail, may be empty
	Err    error  // underlying error, may be nil
}

func (e *Error) Error() string {
	s := "urlnorm: " + e.Op + " " + normalize.Quote(e.Input) + ": " + e.Kind.Code
	if e.URL != "" {
		s += " at " + normalize.Quote(e.URL)
	}
	if e.Reason != "" {
		s += " (" + e.Reason + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Is reports the error's kind and class.
func (e *Error) Is(target error) bool { return target == e.Kind || target == e.Kind.Class }

func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the kind code of err: "" for nil, the normalize kind of
// a normalize error (a configuration error, say), "internal" for others.
func KindOf(err error) string {
	if k := kindOf(err); k != nil {
		return k.Code
	}
	return normalize.KindOf(err)
}

// ClassOf returns "input", "rejected" or "network" for an error of this
// package, "" for nil and "internal" otherwise.
func ClassOf(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrInput):
		return "input"
	case errors.Is(err, ErrRejected):
		return "rejected"
	case errors.Is(err, ErrNetwork):
		return "network"
	}
	return "internal"
}

func kindOf(err error) *Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return nil
}

// classify maps an error of the HTTP transport to a kind. The guard's own
// error is found anywhere in the chain (the transport wraps dial errors).
func classify(err error) *Kind {
	var b *blockedError
	var dns *net.DNSError
	var op *net.OpError
	var ne net.Error
	switch {
	case errors.As(err, &b):
		return KindBlocked
	case errors.Is(err, context.Canceled):
		return KindCanceled
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return KindTimeout
	case errors.As(err, &dns):
		return KindDNS
	case isTLS(err):
		return KindTLS
	case errors.As(err, &op) && op.Op == "dial":
		return KindDial
	}
	return KindHTTP
}

func isTLS(err error) bool {
	var rh tls.RecordHeaderError
	var al tls.AlertError
	var cv *tls.CertificateVerificationError
	var ua x509.UnknownAuthorityError
	var he x509.HostnameError
	var ci x509.CertificateInvalidError
	return errors.As(err, &rh) || errors.As(err, &al) || errors.As(err, &cv) ||
		errors.As(err, &ua) || errors.As(err, &he) || errors.As(err, &ci)
}
