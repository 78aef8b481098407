package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"

	"go.temporal.io/sdk/converter"
)

// runCodecServer serves the Temporal payload codec over HTTP (POST /encode
// and /decode, as the Temporal Web UI and CLI expect), so that people
// allowed to read histories see payloads in clear. It holds the payload
// keys and decrypts for anyone who reaches it: serve it only on a private
// address, behind the same authentication as the Web UI.
func runCodecServer(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("temporal-codec", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8234", "listen address (keep it private)")
	origin := fs.String("ui-origin", "http://localhost:8233", "origin of the Temporal Web UI allowed to call from a browser")
	if err := fs.Parse(args); err != nil {
		return err
	}
	key := getenv("EINVOICE_ENCRYPTION_KEY")
	if key == "" && getenv("EINVOICE_TEMPORAL_PAYLOAD_KEY") == "" {
		return fmt.Errorf("missing required configuration: EINVOICE_ENCRYPTION_KEY or EINVOICE_TEMPORAL_PAYLOAD_KEY (the keys of the workers)")
	}
	var enc []byte
	if key != "" {
		var err error
		if enc, err = decodeKey(key); err != nil {
			return fmt.Errorf("EINVOICE_ENCRYPTION_KEY: %w", err)
		}
	}
	codec, err := payloadCodecFromEnv(getenv, enc)
	if err != nil {
		return err
	}
	log := newLogger(stderr, getenv("EINVOICE_LOG_LEVEL"))
	ln, err := listen(*addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	h := codecCORS(strings.TrimRight(*origin, "/"), converter.NewPayloadCodecHTTPHandler(codec))
	fmt.Fprintf(stdout, "einvoice temporal-codec %s on http://%s (key %s), for the Web UI at %s\n", version, ln.Addr(), codec.KeyID(), *origin)
	return serveHTTP(ctx, ln, h, log)
}

// codecCORS lets the Web UI's origin call the codec from a browser.
func codecCORS(origin string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Origin") == origin {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Allow-Credentials", "true")
			h.Set("Access-Control-Allow-Headers", "Content-Type, X-Namespace, Authorization")
			h.Set("Access-Control-Allow-Methods", "POST, OPTIONS")
			h.Set("Vary", "Origin")
		}
		w.Header().Set("Cache-Control", "no-store")
		if r.Method == http.MethodOptions {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}
