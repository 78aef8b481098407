package main

import (
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/einvoice-ng/einvoice/rest"
)

// runDev runs the whole service on embedded defaults.
func runDev(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dev", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "HTTP listen address")
	dataDir := fs.String("data-dir", "./data", "directory for the SQLite database and generated secrets")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn, error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, err := filepath.Abs(*dataDir)
	if err != nil {
		return err
	}
	secrets, err := loadDevSecrets(dir)
	if err != nil {
		return err
	}
	c := &config{DatabaseURL: filepath.Join(dir, "einvoice.db"), HTTPAddr: *addr, AutoMigrate: true, LogLevel: *logLevel}
	for _, kv := range []struct {
		dst *[]byte
		src string
	}{{&c.JWTSecret, secrets.JWTSecret}, {&c.EncryptionKey, secrets.EncryptionKey}, {&c.APIKeyPepper, secrets.APIKeyPepper}} {
		if *kv.dst, err = base64.StdEncoding.DecodeString(kv.src); err != nil {
			return fmt.Errorf("data dir secrets: %w", err)
		}
	}
	c.TokenTTL = defaultTokenTTL
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
	defer a.close(context.WithoutCancel(ctx)) //nolint:errcheck // logged by close's callers
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(stdout, `einvoice %s (dev)
  API      %s/api/v2
  GraphQL  %s/graphql
  Health   %s/health
  Data     %s
Press Ctrl+C to stop.
`, version, base, base, base, dir)
	return serveHTTP(ctx, ln, a.handler, log)
}
