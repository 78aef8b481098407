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
	tc, starter, err := temporalStarter(c.TemporalAddress, c.TemporalNamespace, stderr)
	if err != nil {
		return err
	}
	if tc != nil {
		defer tc.Close()
		c.Runs = starter
	} else {
		log.Warn("TEMPORAL_ADDRESS is not set: certification runs answer 503")
	}
	a, err := buildApp(ctx, c, log, rest.Options{HealthChecks: map[string]func(context.Context) error{"temporal": temporalCheck(starter)}})
	if err != nil {
		return err
	}
	defer a.close(context.WithoutCancel(ctx)) //nolint:errcheck
	log.Info("einvoice api listening", "addr", ln.Addr().String(), "version", version, "database", a.store.Dialect(),
		"temporal", c.TemporalAddress)
	return serveHTTP(ctx, ln, a.handler, log)
}
