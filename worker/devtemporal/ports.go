package devtemporal

import (
	"errors"
	"fmt"
	"net"
	"strconv"
)

// loopback is the address every internal Temporal service binds to.
const loopback = "127.0.0.1"

// splitAddr splits a host:port address. An empty host means loopback and
// "localhost" is turned into the loopback IP, because the Temporal server
// binds to IP addresses only.
func splitAddr(addr string) (host string, port int, err error) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	port, err = strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("invalid port %q", p)
	}
	switch h {
	case "", "localhost":
		h = loopback
	}
	if net.ParseIP(h) == nil {
		return "", 0, fmt.Errorf("host %q is not an IP address", h)
	}
	return h, port, nil
}

// dialHost returns the host a local client uses to reach a listener bound to
// host: the loopback address when host is a wildcard address.
func dialHost(host string) string {
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		return loopback
	}
	return host
}

// freePorts returns one TCP port per entry of hosts, each free on its host
// right now. Every probe listener stays open until all ports are chosen, so
// the ports differ from one another; another process may still take one
// before the server binds it, which Start then reports as an error.
func freePorts(hosts ...string) ([]int, error) {
	listeners := make([]net.Listener, 0, len(hosts))
	defer func() {
		for _, l := range listeners {
			_ = l.Close()
		}
	}()
	ports := make([]int, 0, len(hosts))
	for _, host := range hosts {
		l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			return nil, fmt.Errorf("find a free port on %s: %w", host, err)
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// checkFree reports an error if nothing can listen on host:port now. The
// Temporal server treats a failed bind as fatal, so Start checks fixed ports
// first to give a clear error instead.
func checkFree(host string, port int) error {
	l, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		var opErr *net.OpError
		if errors.As(err, &opErr) {
			return fmt.Errorf("address %s is not available: %w", net.JoinHostPort(host, strconv.Itoa(port)), opErr.Err)
		}
		return err
	}
	return l.Close()
}
