package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// servePprof serves net/http/pprof on EINVOICE_PPROF_ADDR (e.g.
// 127.0.0.1:6060; port 0 picks a free one, printed) while a long-running
// subcommand (dev, api, worker, nrs-sandbox) runs, for CPU and allocation
// profiles: `go tool pprof
// http://127.0.0.1:6060/debug/pprof/profile?seconds=30`. Unset (the
// default), nothing is served. It is an operator's setting: bind it to a
// loopback or private address, never a public one.
func servePprof(ctx context.Context, addr string, stderr io.Writer) error {
	if addr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("EINVOICE_PPROF_ADDR: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	fmt.Fprintf(stderr, "pprof on http://%s/debug/pprof/\n", ln.Addr())
	return nil
}
