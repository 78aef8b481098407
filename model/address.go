package model

import "net/netip"

// AddressKey is the part of a client address that rate limits count
// under: an IPv4 address whole, an IPv6 address by its /64 (one customer
// network: a host picks any of its 2^64 addresses at will), an IPv4
// address mapped into IPv6 as the IPv4 address. Anything else (no address
// at all) is returned as it is.
func AddressKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return ip
	}
	return p.String()
}
