package rest

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
)

// ProxyTrust says which proxies in front of the API may report the client's
// address. A proxy appends the address it received the request from to
// X-Forwarded-For, so the entries a client wrote itself are on the left and
// only the entries on the right, appended by proxies we run, can be
// believed. The client is the rightmost address that no trusted proxy
// accounts for. The zero ProxyTrust trusts no proxy: the client is the
// connection's peer. X-Real-IP is never read: a proxy that does not set it
// passes the client's own value through.
type ProxyTrust struct {
	// Hops is how many proxies every request passes through (a load
	// balancer, then an ingress: 2). The client is the address the
	// outermost of them appended: the Hops-th entry of X-Forwarded-For
	// from the right.
	Hops int
	// Networks are the addresses of the trusted proxies. Starting with the
	// connection's peer, addresses inside them are skipped from the right;
	// the first one outside is the client.
	Networks []netip.Prefix
}

// IsZero reports whether t trusts no proxy.
func (t ProxyTrust) IsZero() bool { return t.Hops <= 0 && len(t.Networks) == 0 }

// String renders t as ParseProxyTrust reads it.
func (t ProxyTrust) String() string {
	switch {
	case len(t.Networks) > 0:
		parts := make([]string, len(t.Networks))
		for i, n := range t.Networks {
			parts[i] = n.String()
		}
		return strings.Join(parts, ",")
	case t.Hops > 0:
		return strconv.Itoa(t.Hops)
	}
	return "off"
}

// maxProxyHops bounds ProxyTrust.Hops: no real chain of proxies is longer.
const maxProxyHops = 10

// ParseProxyTrust reads EINVOICE_TRUST_PROXY: empty, "false" or "off"
// (trust no proxy); a number of proxy hops ("1", "2"; "true" is 1, as it
// meant one proxy before hops could be counted); or a comma-separated list
// of proxy addresses and networks ("10.0.0.0/8, 192.0.2.7").
func ParseProxyTrust(v string) (ProxyTrust, error) {
	v = strings.TrimSpace(v)
	switch strings.ToLower(v) {
	case "", "false", "off", "0":
		return ProxyTrust{}, nil
	case "true":
		return ProxyTrust{Hops: 1}, nil
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n < 0 || n > maxProxyHops {
			return ProxyTrust{}, fmt.Errorf("trusted proxy hops %d: want 0 to %d", n, maxProxyHops)
		}
		return ProxyTrust{Hops: n}, nil
	}
	var t ProxyTrust
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			a, aerr := netip.ParseAddr(part)
			if aerr != nil {
				return ProxyTrust{}, fmt.Errorf("trusted proxy %q: want a number of hops, or IP addresses and CIDR networks", part)
			}
			p = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
		}
		t.Networks = append(t.Networks, p.Masked())
	}
	return t, nil
}

// trusts reports whether a is one of the trusted proxies' networks.
func (t ProxyTrust) trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, n := range t.Networks {
		if n.Contains(a) {
			return true
		}
	}
	return false
}

// ClientIP returns the address of the client behind r: the connection's
// peer, or the address the trusted proxies report (see ProxyTrust).
func (t ProxyTrust) ClientIP(r *http.Request) string {
	peer := peerAddr(r)
	if t.IsZero() {
		return peer
	}
	chain := forwardedFor(r)
	if len(t.Networks) > 0 {
		cur, err := netip.ParseAddr(peer)
		if err != nil || !t.trusts(cur) {
			return peer // the peer is not our proxy: its headers are the client's
		}
		for i := len(chain) - 1; i >= 0; i-- {
			a, err := parseHop(chain[i])
			if err != nil {
				// Only a client writes garbage, and every address to its
				// right is a trusted proxy: the last of them saw the
				// client.
				return cur.Unmap().String()
			}
			if !t.trusts(a) {
				return a.Unmap().String()
			}
			cur = a
		}
		return cur.Unmap().String() // every hop is a proxy: the leftmost saw the client
	}
	if len(chain) == 0 {
		return peer // not through the proxies at all
	}
	i := len(chain) - t.Hops
	if i < 0 {
		i = 0 // fewer entries than proxies: the leftmost is the outermost one's
	}
	a, err := parseHop(chain[i])
	if err != nil {
		return peer
	}
	return a.Unmap().String()
}

// parseHop reads one X-Forwarded-For entry: an address, with or without a
// port ("192.0.2.7", "192.0.2.7:4711", "[2001:db8::1]:4711").
func parseHop(s string) (netip.Addr, error) {
	if a, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return a, nil
	}
	ap, err := netip.ParseAddrPort(s)
	if err != nil {
		return netip.Addr{}, err
	}
	return ap.Addr(), nil
}

// forwardedFor returns the X-Forwarded-For entries of every such header
// line, in order. A client may send several lines; proxies append to the
// last, and a line can only ever add entries on the left of what proxies
// append.
func forwardedFor(r *http.Request) []string {
	lines := r.Header.Values("X-Forwarded-For")
	if len(lines) == 0 {
		return nil
	}
	var out []string
	for _, line := range lines {
		for _, part := range strings.Split(line, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// peerAddr is the connection's remote address without its port.
func peerAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
