package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/einvoice-ng/einvoice/rest"
)

const defaultTokenTTL = time.Hour

// runAPI runs the production API server from the environment.
func runAPI(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		return fmt.Errorf("api takes no arguments; configure it with EINVOICE_* environment variables")
	}
	c, err := envConfig(getenv)
	if err != nil {
		return err
	}
	log := newLogger(stderr, c.LogLevel)
	ln, err := listen(c.HTTPAddr)
	if err != nil {
		return err
	}
	defer ln.Close()
	a, err := buildApp(ctx, c, log, rest.Options{})
	if err != nil {
		return err
	}
	defer a.close(context.WithoutCancel(ctx)) //nolint:errcheck
	log.Info("einvoice api listening", "addr", ln.Addr().String(), "version", version, "database", a.store.Dialect())
	return serveHTTP(ctx, ln, a.handler, log)
}
