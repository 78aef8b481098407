// Command middleware serves POST /api/v2/invoices/irn/generate twice, for
// run.sh to load with wrk: on one address the full einvoice router over a
// SQLite database (or PostgreSQL with -postgres) (request ids, recovery, logging, metrics, body limit,
// API-key authentication, rate limit, idempotency check, the handler and
// its IRN query), and on another a bare chi handler that writes the same
// JSON. The difference is what the middleware and the real work cost.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	_ "net/http/pprof" // served on -pprof only
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/rest"
)

// IRNBody is the request run.sh sends.
const IRNBody = `{"invoice_reference":"INV001","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}`

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run() error {
	bareAddr := flag.String("bare", "127.0.0.1:18081", "address of the bare chi handler")
	fullAddr := flag.String("full", "127.0.0.1:18082", "address of the full router")
	dir := flag.String("dir", "", "directory for the SQLite database and the credentials file (required)")
	pprofAddr := flag.String("pprof", "", "address serving net/http/pprof while the benchmark runs (e.g. 127.0.0.1:18083)")
	postgres := flag.String("postgres", "", "PostgreSQL server URL: the full router then runs on a fresh database there (dropped at exit) instead of SQLite under -dir")
	join := flag.String("join", "", "the -dir of a running bench server: serve its database too, as a second API (the full router only, on -full; its credentials hold)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *join != "" {
		return serveJoined(ctx, *join, *fullAddr)
	}
	if *dir == "" {
		return errors.New("-dir is required")
	}

	dsn := filepath.Join(*dir, "einvoice.db")
	if *postgres != "" {
		var drop func()
		var err error
		if dsn, drop, err = freshPostgres(ctx, *postgres); err != nil {
			return err
		}
		defer drop()
	}
	full, answer, creds, closeAll, err := fullRouter(ctx, dsn)
	if err != nil {
		return err
	}
	defer closeAll()
	if err := os.WriteFile(filepath.Join(*dir, "dsn"), []byte(dsn), 0o600); err != nil {
		return err
	}

	bare := chi.NewRouter()
	bare.Post("/api/v2/invoices/irn/generate", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(answer)
	})

	servers := []*http.Server{{Addr: *bareAddr, Handler: bare}, {Addr: *fullAddr, Handler: full}}
	if *pprofAddr != "" {
		servers = append(servers, &http.Server{Addr: *pprofAddr, Handler: http.DefaultServeMux})
	}
	errc := make(chan error, len(servers))
	for _, s := range servers {
		go func() { errc <- s.ListenAndServe() }()
	}
	// The credentials file tells run.sh that both servers are up.
	time.Sleep(200 * time.Millisecond)
	// Written whole, then renamed: run.sh reads it as soon as it exists.
	if err := os.WriteFile(filepath.Join(*dir, "credentials.tmp"), []byte(creds), 0o600); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(*dir, "credentials.tmp"), filepath.Join(*dir, "credentials")); err != nil {
		return err
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	for _, s := range servers {
		_ = s.Shutdown(context.Background())
	}
	return nil
}

// freshPostgres creates a database of its own on the server at base and
// returns its URL and a function dropping it.
func freshPostgres(ctx context.Context, base string) (string, func(), error) {
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	name := fmt.Sprintf("einvoice_bench_%d", time.Now().UnixNano())
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		_ = admin.Close()
		return "", nil, err
	}
	u, err := url.Parse(base)
	if err != nil {
		_ = admin.Close()
		return "", nil, err
	}
	u.Path = "/" + name
	return u.String(), func() {
		_, _ = admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		_ = admin.Close()
	}, nil
}

// fullRouter builds einvoice's router (router), signs up a tenant and
// warms the caches. It returns the router, the JSON the route answers, the
// key as shell variables and a cleanup.
// router builds einvoice's router over dsn as `einvoice api` does (the
// schema migrated first when migrate), with rate limits too high to
// trigger, and returns it with a cleanup.
func router(ctx context.Context, dsn string, migrate bool) (http.Handler, func(), error) {
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return nil, nil, err
	}
	if migrate {
		if _, err := st.Migrations().Up(ctx); err != nil {
			_ = st.Close()
			return nil, nil, err
		}
	}
	// One key for every process serving the database (-join).
	box, err := secret.NewBox(bytes.Repeat([]byte("k"), 32))
	if err != nil {
		_ = st.Close()
		return nil, nil, err
	}
	n, err := nrs.New(nrs.Options{})
	if err != nil {
		_ = st.Close()
		return nil, nil, err
	}
	// Logs are formatted as in production but not written: the disk is
	// not what is measured.
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	svc, err := app.New(st, app.Config{
		JWTSecret: bytes.Repeat([]byte("b"), 32), Box: box, Hasher: secret.NewHasher(bytes.Repeat([]byte("p"), 32)),
		AuditKey:    bytes.Repeat([]byte("a"), 32),
		Authorities: model.NewAuthorities([]model.Authority{n}, nil), Logger: log,
	})
	if err != nil {
		_ = st.Close()
		return nil, nil, err
	}
	high := rest.Limit{Count: 1 << 30, Period: time.Second}
	h := rest.New(svc, rest.Options{Version: "bench", Logger: log, RateLimits: rest.RateLimits{Sandbox: high, Production: high, GraphQLAnonymous: high}})

	cleanup := func() {
		_ = svc.Close(context.Background())
		_ = st.Close()
	}
	return h, cleanup, nil
}

// serveJoined serves the database of the bench server whose -dir is dir
// with a router of its own on addr, until ctx ends: a second API.
func serveJoined(ctx context.Context, dir, addr string) error {
	dsn, err := os.ReadFile(filepath.Join(dir, "dsn"))
	if err != nil {
		return err
	}
	h, cleanup, err := router(ctx, string(dsn), false)
	if err != nil {
		return err
	}
	defer cleanup()
	srv := &http.Server{Addr: addr, Handler: h}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	return srv.Shutdown(context.Background())
}

func fullRouter(ctx context.Context, dsn string) (http.Handler, []byte, string, func(), error) {
	h, cleanup, err := router(ctx, dsn, true)
	if err != nil {
		return nil, nil, "", nil, err
	}
	fail := func(err error) (http.Handler, []byte, string, func(), error) {
		cleanup()
		return nil, nil, "", nil, err
	}
	call := func(method, path, token string, body any, hdr map[string]string) (map[string]any, []byte, error) {
		b, _ := json.Marshal(body)
		if s, ok := body.(string); ok {
			b = []byte(s)
		}
		r := httptest.NewRequest(method, path, bytes.NewReader(b))
		r.Header.Set("Content-Type", "application/json")
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			return nil, nil, fmt.Errorf("%s %s: %d %s", method, path, w.Code, w.Body)
		}
		var out map[string]any
		err := json.Unmarshal(w.Body.Bytes(), &out)
		return out, w.Body.Bytes(), err
	}
	su, _, err := call("POST", "/api/v2/auth/signup", "", map[string]any{"email": "bench@example.com", "password": "correct horse battery",
		"organization_name": "Bench", "organization_slug": "bench"}, nil)
	if err != nil {
		return fail(err)
	}
	tok := su["access_token"].(string)
	pr, _, err := call("POST", "/api/v2/projects", tok, map[string]any{"organization_id": su["organization"].(map[string]any)["id"], "name": "Bench shop", "environment": "sandbox"}, nil)
	if err != nil {
		return fail(err)
	}
	k, _, err := call("POST", "/api/v2/projects/"+pr["id"].(string)+"/keys", tok, map[string]any{"key_name": "bench"}, nil)
	if err != nil {
		return fail(err)
	}
	id, sec := k["client_id"].(string), k["client_secret"].(string)
	_, answer, err := call("POST", "/api/v2/invoices/irn/generate", "", IRNBody, map[string]string{"X-Client-Id": id, "X-Client-Secret": sec})
	if err != nil {
		return fail(err)
	}
	creds := fmt.Sprintf("CLIENT_ID=%s\nCLIENT_SECRET=%s\nBODY='%s'\n", id, sec, IRNBody)
	return h, answer, creds, cleanup, nil
}
