// Package egress decides where einvoice may connect when a tenant's
// settings name the destination: a tax authority's API today, webhook
// endpoints next. One Policy serves both moments a destination is judged:
// when a tenant saves it (CheckURL, with the same resolver-based checks)
// and at every connection (the dialer's Control function sees the address
// actually dialled, after DNS resolution, so a name that resolves to a
// public address when saved and to a private one later, DNS rebinding, is
// refused too). HTTP clients built here follow no redirects and ignore
// proxy settings, so that the address checked is the address reached.
package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"
)

// ErrForbidden marks a destination the policy refuses.
var ErrForbidden = errors.New("egress: destination not allowed")

// Policy says which destinations may be reached. The zero Policy refuses
// every special-purpose address and allows no origin list check (see
// CheckURL).
type Policy struct {
	// AllowPrivate lets connections reach special-purpose addresses
	// (loopback, private, link-local, CGNAT, unique-local, metadata and the
	// like). Only development set-ups and tests, where the authority runs
	// on the same host, set it.
	AllowPrivate bool
	// Origins, when not empty, are the only scheme://host[:port] origins a
	// URL may have (CheckURL); the server's configuration sets them.
	Origins []string
	// Resolver resolves host names for CheckURL; default
	// net.DefaultResolver.
	Resolver interface {
		LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
	}
}

// special are the address ranges no tenant-chosen destination may reach:
// the IANA special-purpose registries (RFC 6890 and successors) for IPv4
// and IPv6, minus the globally reachable ones. Loopback, RFC 1918 private,
// link-local (with the 169.254.169.254 metadata endpoint), multicast and
// unspecified addresses are refused through netip's predicates as well.
var special = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8",       // "this network"
		"10.0.0.0/8",      // private
		"100.64.0.0/10",   // carrier-grade NAT
		"127.0.0.0/8",     // loopback
		"169.254.0.0/16",  // link-local, cloud metadata
		"172.16.0.0/12",   // private
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // documentation
		"192.88.99.0/24",  // 6to4 relay anycast
		"192.168.0.0/16",  // private
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // documentation
		"203.0.113.0/24",  // documentation
		"224.0.0.0/4",     // multicast
		"240.0.0.0/4",     // reserved, broadcast
		"::/96",           // unspecified, loopback, IPv4-compatible
		"64:ff9b:1::/48",  // local-use NAT64
		"100::/64",        // discard-only
		"2001::/23",       // IETF protocol assignments (Teredo, ORCHIDs, ...)
		"2001:db8::/32",   // documentation
		"2002::/16",       // 6to4: wraps any IPv4 address
		"3fff::/20",       // documentation
		"5f00::/16",       // segment routing SIDs
		"fc00::/7",        // unique-local, fd00:ec2::254 metadata
		"fe80::/10",       // link-local
		"fec0::/10",       // site-local (deprecated)
		"ff00::/8",        // multicast
		// IPv4-mapped (::ffff:0:0/96) and NAT64 (64:ff9b::/96) addresses
		// are judged by the IPv4 address they carry (see Forbidden).
		"169.254.169.254/32", // listed on its own for the record
		"fd00:ec2::254/128",  // likewise
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// Forbidden reports why a is not a public unicast address, or "" when it
// is. IPv4-mapped and NAT64 addresses are judged by the IPv4 address they
// carry.
func Forbidden(a netip.Addr) string {
	a = a.Unmap()
	if a.Is6() && nat64.Contains(a) {
		b := a.As16()
		return Forbidden(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
	}
	switch {
	case !a.IsValid():
		return "not an IP address"
	case a.IsLoopback():
		return "a loopback address"
	case a.IsPrivate():
		return "a private address"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "a link-local address"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "a multicast address"
	case a.IsUnspecified():
		return "an unspecified address"
	}
	for _, p := range special {
		if p.Contains(a) {
			return "a special-purpose address (" + p.String() + ")"
		}
	}
	return ""
}

// CheckAddr returns an ErrForbidden error when the policy refuses a.
func (p Policy) CheckAddr(a netip.Addr) error {
	if p.AllowPrivate {
		return nil
	}
	if why := Forbidden(a); why != "" {
		return fmt.Errorf("%w: %s is %s", ErrForbidden, a.Unmap(), why)
	}
	return nil
}

// Control is a net.Dialer Control function: it refuses a connection whose
// address, resolved and about to be dialled, the policy refuses.
func (p Policy) Control(network, address string, _ syscall.RawConn) error {
	if !strings.HasPrefix(network, "tcp") && !strings.HasPrefix(network, "udp") {
		return fmt.Errorf("%w: network %s", ErrForbidden, network)
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot read address %q", ErrForbidden, address)
	}
	return p.CheckAddr(ap.Addr())
}

// Dialer returns a dialer that applies the policy to every address it
// connects to.
func (p Policy) Dialer() *net.Dialer {
	return &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: p.Control}
}

// Transport returns an HTTP transport whose connections obey the policy.
// It ignores HTTP(S)_PROXY: through a proxy, the address checked would be
// the proxy's, not the destination's.
func (p Policy) Transport() *http.Transport {
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           p.Dialer().DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// Client returns an HTTP client over Transport that follows no redirect: a
// 3xx answer is returned as it is, so that credentials and bodies never
// travel to a second address the policy did not judge.
func (p Policy) Client() *http.Client {
	return &http.Client{Transport: p.Transport(), CheckRedirect: NoRedirects}
}

// NoRedirects is an http.Client CheckRedirect that returns every 3xx answer
// to the caller instead of following it.
func NoRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// Origin returns the scheme://host[:port] of u, lower-cased, with the
// scheme's default port dropped.
func Origin(u *url.URL) string {
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		return scheme + "://" + host + ":" + port
	}
	return scheme + "://" + host
}

// NormalizeOrigins checks and normalizes a configured origin list (absolute
// http or https URLs without path, query or credentials).
func NormalizeOrigins(list []string) ([]string, error) {
	var out []string
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil ||
			strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("%q is not an origin such as https://einvoice1.nrs.gov.ng", s)
		}
		if o := Origin(u); !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out, nil
}

// resolveTimeout bounds the name resolution of CheckURL.
const resolveTimeout = 2 * time.Second

// CheckURL judges a destination when a tenant saves it, with the rules the
// dialer applies at every connection: an absolute http(s) URL without
// credentials, query or fragment, whose origin is one of Origins (when
// set) and whose host resolves to no address the policy refuses. A name
// that does not resolve now is not refused (the dialer judges it again at
// every connection). The error, an ErrForbidden one, says why.
func (p Policy) CheckURL(ctx context.Context, raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Hostname() == "" {
		return nil, fmt.Errorf("%w: not an absolute http or https URL", ErrForbidden)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return nil, fmt.Errorf("%w: the URL must not carry credentials, a query or a fragment", ErrForbidden)
	}
	if len(p.Origins) > 0 && !slices.Contains(p.Origins, Origin(u)) {
		return nil, fmt.Errorf("%w: %s is not one of the hosts this server calls (%s)", ErrForbidden, Origin(u), strings.Join(p.Origins, ", "))
	}
	if p.AllowPrivate {
		return u, nil
	}
	host := u.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		return u, p.CheckAddr(a)
	}
	r := p.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	rctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	addrs, err := r.LookupNetIP(rctx, "ip", host)
	if err != nil {
		return u, nil
	}
	for _, a := range addrs {
		if err := p.CheckAddr(a); err != nil {
			return nil, fmt.Errorf("%w (%s resolves to it)", err, host)
		}
	}
	return u, nil
}
