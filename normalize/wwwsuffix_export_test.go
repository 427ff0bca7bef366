package normalize

// IsSuffix is the verbatim path's public-suffix test for what follows a
// www label (suffix.go), for a domain that is no IP address.
var IsSuffix = isSuffix

// AfterWWWIsSuffix is the verbatim path's test of what follows a www
// label without its trailing dots (dots: it had some; upper: it may have
// uppercase letters).
var AfterWWWIsSuffix = afterWWWIsSuffix

// MayBeAddr is publicSuffixLen's guard before netip.ParseAddr.
var MayBeAddr = mayBeAddr
