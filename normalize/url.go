package normalize

import (
	"bytes"
	"strconv"
	"unsafe"
)

// HostKind says what a parsed host is.
type HostKind uint8

const (
	HostNone   HostKind = iota // no host (e.g. "mailto:x", "sc:/p")
	HostEmpty                  // empty host ("file:///p", "sc:///p")
	HostDomain                 // a domain, lowercase ASCII (punycode)
	HostIPv4                   // dotted-decimal IPv4 address
	HostIPv6                   // bracketed, compressed IPv6 address
	HostOpaque                 // an opaque host of a non-special URL
)

// hostKindNames are the host types of parse_url: the URL Standard's kinds
// of host (a domain, an IPv4 or IPv6 address, an opaque host, the empty
// host).
var hostKindNames = [...]string{HostNone: "none", HostEmpty: "empty", HostDomain: "domain",
	HostIPv4: "ipv4", HostIPv6: "ipv6", HostOpaque: "opaque"}

// String names the kind as parse_url's host_type does: "domain", "ipv4",
// "ipv6", "opaque", "empty", or "none" for a URL without a host.
func (k HostKind) String() string {
	if int(k) < len(hostKindNames) {
		return hostKindNames[k]
	}
	return "HostKind(" + strconv.Itoa(int(k)) + ")"
}

// URL is a URL parsed per the WHATWG URL Standard. Its serialization (the
// standard's "href") is held in one buffer and every component is a range of
// it, so serializing is free and reading a component allocates nothing.
//
// Layout of buf:
//
//	scheme ":" [ "//" [ user [ ":" pass ] "@" ] host [ ":" port ] ] [ "/." ] path [ "?" query ] [ "#" fragment ]
//
// The zero URL is not valid; obtain one with Parse or ParseRef.
type URL struct {
	buf []byte

	schemeEnd  int // buf[:schemeEnd] is the scheme
	userStart  int // start of username (after "//")
	userEnd    int
	passStart  int // start of password (after ':'); == passEnd when none
	passEnd    int
	hostStart  int
	hostEnd    int
	authEnd    int // end of ":port"; == hostEnd without a port
	pathStart  int
	pathEnd    int
	queryStart int // index after '?', -1 when the query is null
	fragStart  int // index after '#', -1 when the fragment is null

	port      int32 // -1 when null
	hostKind  HostKind
	hostChars uint8 // csDNS, csRFC3986 bits of a domain
	special   bool
	opaque    bool // the path is an opaque path (a "cannot-be-a-base" URL)
	plainPath bool // known: the path has no '%', ';' or "//" (false: unknown)
}

// str returns buf[i:j] as a string sharing u's memory. Not bstr(buf[i:j]):
// the slice expression costs two more bounds checks on every component
// read (0.6 % of the instructions of a whatwg Normalize).
func (u *URL) str(i, j int) string {
	if i >= j {
		return ""
	}
	return unsafe.String(&u.buf[i], j-i)
}

// String returns the URL's serialization (the WHATWG href). The string
// shares memory with u; it stays valid until u is parsed into again.
func (u *URL) String() string { return u.str(0, len(u.buf)) }

// Clone returns a copy of u that owns its memory. A URL from a Parser
// shares the Parser's buffer, which the next Parse overwrites, or the
// input's memory (see Parser); the parts of the copy (Scheme, Host, Path
// …, the domain parts) stay valid, for one allocation however many of
// them are read.
func (u *URL) Clone() URL {
	c := *u
	c.buf = bytes.Clone(u.buf)
	return c
}

// Href returns a copy of the serialization that does not alias u.
func (u *URL) Href() string { return string(u.buf) }

// Scheme returns the lowercase scheme without ':'.
func (u *URL) Scheme() string { return u.str(0, u.schemeEnd) }

// Username returns the percent-encoded username.
func (u *URL) Username() string {
	if u.hostKind == HostNone {
		return ""
	}
	return u.str(u.userStart, u.userEnd)
}

// Password returns the percent-encoded password.
func (u *URL) Password() string { return u.str(u.passStart, u.passEnd) }

// Host returns the serialized host ("" for none or empty).
func (u *URL) Host() string { return u.str(u.hostStart, u.hostEnd) }

// HostKind reports what kind of host the URL has.
func (u *URL) HostKind() HostKind { return u.hostKind }

// Port returns the port, or -1 when it is null (absent or the scheme's
// default): the URL Standard drops a special scheme's default port while
// parsing, so a port it returns was written and is not the default.
func (u *URL) Port() int { return int(u.port) }

// Path returns the serialized path (opaque or "/"-separated segments).
func (u *URL) Path() string { return u.str(u.pathStart, u.pathEnd) }

// OpaquePath reports whether the URL has an opaque path (like "mailto:x").
func (u *URL) OpaquePath() bool { return u.opaque }

// Query returns the query without '?' and whether it is non-null.
func (u *URL) Query() (string, bool) {
	if u.queryStart < 0 {
		return "", false
	}
	end := len(u.buf)
	if u.fragStart >= 0 {
		end = u.fragStart - 1
	}
	return u.str(u.queryStart, end), true
}

// Fragment returns the fragment without '#' and whether it is non-null.
func (u *URL) Fragment() (string, bool) {
	if u.fragStart < 0 {
		return "", false
	}
	return u.str(u.fragStart, len(u.buf)), true
}

// Special reports whether the scheme is a special scheme (http, https, ws,
// wss, ftp, file).
func (u *URL) Special() bool { return u.special }

func (u *URL) reset() {
	u.buf = u.buf[:0]
	u.schemeEnd, u.userStart, u.userEnd, u.passStart, u.passEnd = 0, 0, 0, 0, 0
	u.hostStart, u.hostEnd, u.authEnd, u.pathStart, u.pathEnd = 0, 0, 0, 0, 0
	u.queryStart, u.fragStart = -1, -1
	u.port = -1
	u.hostKind = HostNone
	u.hostChars = 0
	u.special, u.opaque, u.plainPath = false, false, false
}

// setAuthority sets every field of u but its buffer to those of the URL
// whose serialization ends with the scheme and the authority that
// scanAuthority read into v, as written by the serializer (v.lower and
// v.cut applied: the buffer holds that serialization): as reset and then
// the parser would set them; no path, query nor fragment.
func (u *URL) setAuthority(v *verbatimURL) {
	end := v.authEnd - v.cut // offsets after the host move back by the default port's length
	h := v.hostStart
	u.schemeEnd = v.schemeEnd
	u.userStart, u.userEnd, u.passStart, u.passEnd = h, h, h, h
	u.hostStart, u.hostEnd, u.authEnd, u.pathStart, u.pathEnd = h, v.hostEnd, end, end, end
	u.queryStart, u.fragStart = -1, -1
	u.port = v.port
	u.hostKind, u.hostChars = HostDomain, csDNS|csRFC3986
	u.special, u.opaque, u.plainPath = true, false, false
}

// specialPort returns the default port of a special scheme, -1 for file and
// -2 for non-special schemes.
func specialPort(scheme string) int {
	switch scheme {
	case "http", "ws":
		return 80
	case "https", "wss":
		return 443
	case "ftp":
		return 21
	case "file":
		return -1
	}
	return -2
}

func appendPort(dst []byte, port int32) []byte {
	return strconv.AppendInt(dst, int64(port), 10)
}
