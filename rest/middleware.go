package rest

import (
	"context"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

var requestIDRE = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// Shared header values, set directly under canonical keys: these run on
// every request. Header.Set and Add replace or copy them, never change them.
var (
	nosniff = []string{"nosniff"}
	noStore = []string{"no-store"}
)

// privateAnswer marks a response that holds credentials or a tenant's
// data: no cache (browser, proxy or CDN) may keep it.
func privateAnswer(w http.ResponseWriter) {
	w.Header()["Cache-Control"] = noStore
}

// requestID echoes a sane incoming X-Request-ID or makes one, and puts it
// and the client's address in the context for the audit log. It also
// gives the request's work its deadline (Options.RequestTimeout), in the
// same new context: GraphQL WebSocket connections are exempt, their
// lifetime being bounded by their token (graph.Options).
func (a *api) requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-ID")
		if !requestIDRE.MatchString(id) {
			id = uuid.NewString()
		}
		h := w.Header()
		h["X-Request-Id"] = []string{id} // canonical key: no rewrite per request
		// Browsers must never guess another type for a JSON answer (an
		// error echoing input rendered as HTML).
		h["X-Content-Type-Options"] = nosniff
		ctx := model.WithRequestMeta(r.Context(), model.RequestMeta{IP: a.clientIP(r), UserAgent: r.UserAgent(), RequestID: id})
		if a.opts.RequestTimeout > 0 && !isGraphQLSocket(r) {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, a.opts.RequestTimeout)
			defer cancel()
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// isGraphQLSocket tells the upgrade request of a GraphQL WebSocket.
func isGraphQLSocket(r *http.Request) bool {
	return r.Method == http.MethodGet && r.URL.Path == "/graphql" && strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

func requestID(ctx context.Context) string { return model.RequestMetaFrom(ctx).RequestID }

// clientIP is the client's address for rate limits and the audit log: the
// connection's peer, or what the trusted proxies report.
func (a *api) clientIP(r *http.Request) string { return a.opts.TrustedProxies.ClientIP(r) }

// limitAddress is the client's address as rate limits count it: IPv6 per
// /64 (model.AddressKey).
func (a *api) limitAddress(r *http.Request) string { return model.AddressKey(a.clientIP(r)) }

// recoverer turns a panic into a logged 500 in the contract's shape.
func (a *api) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				a.log.Error("panic", "request_id", requestID(r.Context()), "panic", v, "stack", string(debug.Stack()))
				writeJSON(w, http.StatusInternalServerError, errorBody{Detail: "Internal Server Error", Code: model.CodeInternal})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// statusWriter remembers the status for the request log.
type statusWriter struct {
	http.ResponseWriter
	status int
	// unmatched is set by the router's answers to unknown routes and
	// methods, whose path and method are the client's own words.
	unmatched bool
}

// markUnmatched records on the request's statusWriter that no route
// matched, so that the request is counted as "unmatched".
func markUnmatched(w http.ResponseWriter) {
	for w != nil {
		if sw, ok := w.(*statusWriter); ok {
			sw.unmatched = true
			return
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return
		}
		w = u.Unwrap()
	}
}

// responseStatus is the status written so far on w's statusWriter (200
// when the handler wrote a body without one), 0 when nothing was written
// or w has no statusWriter.
func responseStatus(w http.ResponseWriter) int {
	for w != nil {
		if sw, ok := w.(*statusWriter); ok {
			return sw.status
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return 0
		}
		w = u.Unwrap()
	}
	return 0
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRequests writes one structured line per request and records the
// request metrics. It never logs headers, query strings or bodies, so
// credentials (client secrets, tokens, passwords) stay out of the logs.
func (a *api) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		elapsed := time.Since(start)
		// chi records the matched pattern on the request as it routes it;
		// reading it back spares building the pattern again.
		route := r.Pattern
		if route == "" {
			route = chi.RouteContext(r.Context()).RoutePattern()
		}
		if sw.unmatched {
			route = ""
		}
		status := sw.status
		if status == 0 {
			status = http.StatusOK
		}
		method := a.metrics.observe(route, r.Method, status, elapsed)
		if route == "" {
			route = unmatchedRoute
		}
		a.log.LogAttrs(r.Context(), slog.LevelInfo, "request", slog.String("request_id", requestID(r.Context())),
			slog.String("method", method), slog.String("route", route), slog.Int("status", status),
			slog.Float64("duration_ms", float64(elapsed.Microseconds())/1000), slog.String("ip", model.RequestMetaFrom(r.Context()).IP))
	})
}

// limitBody bounds request bodies.
func (a *api) limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isBatchSubmission(r) {
			var ok bool
			if r, ok = a.limitBatchBody(w, r); !ok {
				return
			}
		} else if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, a.opts.MaxBodyBytes)
		}
		next.ServeHTTP(w, r)
	})
}

// isPortalRoute tells routes that take bearer tokens, which answer 401 with
// WWW-Authenticate.
func isPortalRoute(r *http.Request) bool {
	return r.Header.Get("X-Client-Id") == ""
}

// requireUser authenticates a portal bearer token; POSTs then honour
// Idempotency-Key.
func (a *api) requireUser(next http.Handler) http.Handler {
	inner := a.idempotent(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		privateAnswer(w)
		h := r.Header.Get("Authorization")
		scheme, token, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="einvoice"`)
			writeJSON(w, http.StatusUnauthorized, errorBody{Detail: "missing bearer access token", Code: model.CodeUnauthenticated})
			return
		}
		u, err := a.app.Auth.AuthenticateToken(r.Context(), strings.TrimSpace(token))
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="einvoice", error="invalid_token"`)
			a.writeError(w, r, err)
			return
		}
		inner.ServeHTTP(w, r.WithContext(model.WithPrincipal(r.Context(), u)))
	})
}

// optionalUser authenticates a bearer token when one is sent; a request
// without one goes on anonymous (GraphQL decides per field), a bad one is 401.
// Its answers are never cached: anonymous ones may carry tokens (signup,
// login).
func (a *api) optionalUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		privateAnswer(w)
		if r.Header.Get("Authorization") == "" {
			next.ServeHTTP(w, r)
			return
		}
		a.requireUser(next).ServeHTTP(w, r)
	})
}

// userFrom returns the portal user of the request, or nil.
func userFrom(r *http.Request) *model.Principal {
	if p := model.PrincipalFrom(r.Context()); p != nil && !p.IsKey() {
		return p
	}
	return nil
}

// requireKey authenticates X-Client-Id / X-Client-Secret, checks scope and
// counts the call as op; the key's rate limit applies next, then POSTs
// honour Idempotency-Key.
func (a *api) requireKey(scope model.Scope, op string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		inner := a.limitKey(a.idempotent(next))
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			privateAnswer(w)
			id, sec := r.Header.Get("X-Client-Id"), r.Header.Get("X-Client-Secret")
			if id == "" || sec == "" {
				writeJSON(w, http.StatusUnauthorized, errorBody{Detail: "missing X-Client-Id or X-Client-Secret header", Code: model.CodeUnauthenticated})
				return
			}
			k, err := a.app.Keys.Authenticate(r.Context(), id, sec)
			if err == nil {
				err = a.app.Usage.Authorize(k, scope, op)
			}
			if err != nil {
				a.writeError(w, r, err)
				return
			}
			a.nrsStatus(w, r, k)
			inner.ServeHTTP(w, r.WithContext(model.WithPrincipal(r.Context(), k)))
			// Only a successful call is metered: not one refused by the
			// rate limits, invalid, or failed.
			if status := responseStatus(w); status >= 200 && status < 300 {
				a.app.Usage.Meter(k, op)
			}
		})
	}
}

// NRSStatusHeader is the response header of invoice routes while NRS (in
// the key's environment) is not ok: "degraded" or "down".
const NRSStatusHeader = "NRS-Status"

// nrsStatus sets NRS-Status on the answers of invoice routes while the
// circuit breakers of the key's environment say NRS is not ok. It reads a
// value kept in memory: no query.
func (a *api) nrsStatus(w http.ResponseWriter, r *http.Request, k *model.Principal) {
	if a.opts.NRSHealth == nil || !isInvoiceRoute(r.URL.Path) {
		return
	}
	if h := a.opts.NRSHealth(k.Environment); h != "" && h != model.AuthorityOK && h != model.AuthorityUnknown {
		w.Header().Set(NRSStatusHeader, h)
	}
}

// isInvoiceRoute tells the invoice routes (/api/v2/invoices/..., and v1's).
func isInvoiceRoute(path string) bool {
	for _, p := range []string{"/api/v2/invoices/", "/api/v1/invoices/"} {
		if strings.HasPrefix(path, p) || path == strings.TrimSuffix(p, "/") {
			return true
		}
	}
	return false
}

// keyFrom returns the API key of the request, or nil.
func keyFrom(r *http.Request) *model.Principal {
	if p := model.PrincipalFrom(r.Context()); p.IsKey() {
		return p
	}
	return nil
}

// pathUUID parses a UUID path parameter, 422 at ["path", name] when bad.
func pathUUID(r *http.Request, name string) (uuid.UUID, error) {
	id, err := model.ParseUUID(chi.URLParam(r, name))
	if err != nil {
		return uuid.Nil, model.Invalid(model.ProblemUUIDParsing, "Input should be a valid UUID", "path", name)
	}
	return id, nil
}
