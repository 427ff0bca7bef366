package resolve

import (
	"fmt"
	"net/netip"
	"syscall"
)

// The SSRF guard. It decides on the IP address about to be dialed — after
// DNS, so neither DNS rebinding nor numeric host spellings ("0x7f.1",
// "2130706433", which glibc's getaddrinfo resolves to 127.0.0.1) can get
// around it — and refuses every address that is not a globally reachable
// unicast address: the IANA IPv4 and IPv6 special-purpose registries plus
// known cloud metadata endpoints.

// special is one refused range.
type special struct {
	prefix  netip.Prefix
	name    string
	private bool // reachable when Config.AllowPrivate is set
}

func sp(prefix, name string, private bool) special {
	return special{netip.MustParsePrefix(prefix), name, private}
}

// specialV4: IANA IPv4 Special-Purpose Address Registry, every entry that
// is not globally reachable, plus deprecated and metadata ranges. The first
// match wins, so metadata endpoints inside private ranges come first.
var specialV4 = []special{
	sp("0.0.0.0/8", "this network (RFC 791)", false),
	sp("10.0.0.0/8", "private-use (RFC 1918)", true),
	sp("100.100.100.200/32", "Alibaba Cloud metadata endpoint", false),
	sp("100.64.0.0/10", "shared address space, CGNAT (RFC 6598)", true),
	sp("127.0.0.0/8", "loopback (RFC 1122)", true),
	sp("169.254.0.0/16", "link-local, cloud metadata (RFC 3927)", false),
	sp("172.16.0.0/12", "private-use (RFC 1918)", true),
	sp("192.0.0.0/24", "IETF protocol assignments (RFC 6890)", false),
	sp("192.0.2.0/24", "documentation TEST-NET-1 (RFC 5737)", false),
	sp("192.88.99.0/24", "6to4 relay anycast, deprecated (RFC 7526)", false),
	sp("192.168.0.0/16", "private-use (RFC 1918)", true),
	sp("198.18.0.0/15", "benchmarking (RFC 2544)", false),
	sp("198.51.100.0/24", "documentation TEST-NET-2 (RFC 5737)", false),
	sp("203.0.113.0/24", "documentation TEST-NET-3 (RFC 5737)", false),
	sp("224.0.0.0/4", "multicast (RFC 5771)", false),
	sp("240.0.0.0/4", "reserved, limited broadcast (RFC 1112, RFC 919)", false),
	sp("168.63.129.16/32", "Azure platform and metadata endpoint", false),
}

// specialV6: IANA IPv6 Special-Purpose Address Registry. Addresses outside
// 2000::/3 (global unicast) are refused after this table; IPv4-mapped
// (::ffff:0:0/96) and NAT64 (64:ff9b::/96) addresses are judged by the IPv4
// address they carry.
var specialV6 = []special{
	sp("::1/128", "loopback (RFC 4291)", true),
	sp("::/128", "unspecified (RFC 4291)", false),
	sp("::/96", "IPv4-compatible, deprecated (RFC 4291)", false),
	sp("64:ff9b:1::/48", "local-use NAT64 (RFC 8215)", false),
	sp("100::/64", "discard-only (RFC 6666)", false),
	sp("2001::/23", "IETF protocol assignments, Teredo (RFC 2928, RFC 4380)", false),
	sp("2001:db8::/32", "documentation (RFC 3849)", false),
	sp("2002::/16", "6to4 (RFC 3056)", false),
	sp("3fff::/20", "documentation (RFC 9637)", false),
	sp("5f00::/16", "SRv6 SIDs (RFC 9602)", false),
	sp("fd00:ec2::254/128", "AWS metadata endpoint (IPv6)", false),
	sp("fc00::/7", "unique local (RFC 4193)", true),
	sp("fe80::/10", "link-local (RFC 4291)", false),
	sp("fec0::/10", "site-local, deprecated (RFC 3879)", false),
	sp("ff00::/8", "multicast (RFC 4291)", false),
}

var (
	nat64         = netip.MustParsePrefix("64:ff9b::/96")
	globalUnicast = netip.MustParsePrefix("2000::/3")
)

// blockedError is the guard's refusal.
type blockedError struct {
	IP     netip.Addr
	Reason string
}

func (e *blockedError) Error() string {
	return fmt.Sprintf("address %s refused by the SSRF guard: %s", e.IP, e.Reason)
}

// checkIP returns a *blockedError if ip may not be dialed.
func checkIP(ip netip.Addr, allowPrivate bool) error {
	orig := ip
	// A zoned address never matches a prefix (netip.Prefix.Contains), so
	// judge the address without its zone.
	ip = ip.WithZone("").Unmap()
	if !ip.IsValid() {
		return &blockedError{orig, "not an IP address"}
	}
	if ip.Is6() && nat64.Contains(ip) {
		b := ip.As16()
		ip = netip.AddrFrom4([4]byte(b[12:]))
	}
	table := specialV6
	if ip.Is4() {
		table = specialV4
	}
	for _, s := range table {
		if s.prefix.Contains(ip) {
			if s.private && allowPrivate {
				return nil
			}
			return &blockedError{orig, s.name}
		}
	}
	if ip.Is6() && !globalUnicast.Contains(ip) {
		return &blockedError{orig, "not global unicast (RFC 4291)"}
	}
	return nil
}

// control is the net.Dialer Control hook: it runs after name resolution,
// on the address the socket is about to connect to.
func (r *Resolver) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &blockedError{Reason: "unparsable dial address " + address}
	}
	return checkIP(ap.Addr(), r.cfg.AllowPrivate)
}
