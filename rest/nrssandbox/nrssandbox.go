// Package nrssandbox is a stand-in for the NRS e-invoicing platform's API
// (MBS), for development and tests where the real sandbox is out of reach.
// It speaks NRS's paths, headers (x-api-key, x-api-secret) and envelopes
// ({"code":200,"data":...}; errors as HTTP 400 with
// {"code":400,"data":null,"message":"error has occurred","error":{...}},
// authentication failures included) and keeps a real, in-memory invoice state
// machine:
//
//	validate → sign → transmit (B2B, B2G) → confirm → update (PAID, ...)
//
// Out-of-order calls are refused. Invoices are validated with the NRS rules
// of model/nrs, IRNs against the businesses of a Registry, and QR payloads
// can be checked with the sandbox-only POST /api/v1/invoice/qr/verify, which
// decrypts them with the business's private key.
//
// Invoice references with reserved prefixes (SBXSIGNFAIL, SBXSLOW, SBXRETRY,
// SBXDOWN, SBXDUP) force failures so that clients can rehearse them; see
// docs/nrs-sandbox.md. Nothing here is persisted; memory is bounded.
package nrssandbox

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/model/nrs"
)

// Defaults of Options.
const (
	DefaultSlowDelay      = 3 * time.Second
	DefaultRetryFailures  = 2
	DefaultRetryAfter     = time.Second
	DefaultMaxInvoices    = 10000
	DefaultMaxStoredBytes = 64 << 20
	DefaultMaxBodyBytes   = 1 << 20
)

// Options configures a Handler. The zero value gives the defaults.
type Options struct {
	// Registry holds the businesses; default an empty one (see
	// Handler.Registry).
	Registry *Registry
	// Authority validates invoices; default nrs.New with default options.
	Authority *nrs.Authority
	// AdminToken enables the admin endpoints (POST and GET
	// /sandbox/businesses) for callers sending "Authorization: Bearer
	// <AdminToken>". Empty disables them.
	AdminToken string
	// SlowDelay is how long SBXSLOW invoices wait before answering;
	// default 3 s.
	SlowDelay time.Duration
	// RetryFailures is how many 503 answers an SBXRETRY invoice gets per
	// endpoint before the call goes through, when the reference does not
	// say (SBXRETRY3... means 3); default 2.
	RetryFailures int
	// RetryAfter is sent as Retry-After (whole seconds) with the 503
	// answers of SBXRETRY and SBXDOWN; default 1 s, negative omits the
	// header.
	RetryAfter time.Duration
	// MaxInvoices and MaxStoredBytes bound the invoices kept; the oldest go
	// first. Defaults 10000 and 64 MiB.
	MaxInvoices    int
	MaxStoredBytes int64
	// MaxBodyBytes bounds a request body; default 1 MiB.
	MaxBodyBytes int64
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives unexpected failures; default slog.Default().
	Logger *slog.Logger
}

// Handler is the stand-in, an http.Handler safe for concurrent use.
type Handler struct {
	opts     Options
	reg      *Registry
	rules    *nrs.Authority
	invoices *ledger
	mux      http.Handler
}

// New builds a Handler.
func New(opts Options) (*Handler, error) {
	if opts.Registry == nil {
		opts.Registry = NewRegistry(0)
	}
	if opts.Authority == nil {
		a, err := nrs.New(nrs.Options{})
		if err != nil {
			return nil, err
		}
		opts.Authority = a
	}
	if opts.SlowDelay <= 0 {
		opts.SlowDelay = DefaultSlowDelay
	}
	if opts.RetryFailures <= 0 {
		opts.RetryFailures = DefaultRetryFailures
	}
	if opts.RetryAfter == 0 {
		opts.RetryAfter = DefaultRetryAfter
	}
	if opts.MaxInvoices <= 0 {
		opts.MaxInvoices = DefaultMaxInvoices
	}
	if opts.MaxStoredBytes <= 0 {
		opts.MaxStoredBytes = DefaultMaxStoredBytes
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	h := &Handler{
		opts:     opts,
		reg:      opts.Registry,
		rules:    opts.Authority,
		invoices: newLedger(opts.MaxInvoices, opts.MaxStoredBytes),
	}
	h.mux = h.routes()
	return h, nil
}

// Registry returns the handler's registry, to register businesses with or to
// pass to service.Config.SandboxRegistrar.
func (h *Handler) Registry() *Registry { return h.reg }

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

func (h *Handler) routes() http.Handler {
	r := chi.NewRouter()
	r.NotFound(h.adapt("router", func(http.ResponseWriter, *http.Request) error {
		return &apiError{status: http.StatusNotFound, public: "resource not found"}
	}))
	r.MethodNotAllowed(h.adapt("router", func(http.ResponseWriter, *http.Request) error {
		return &apiError{status: http.StatusMethodNotAllowed, public: "method not allowed"}
	}))
	r.Get("/api", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]bool{"healthy": true})
	})
	r.Route("/api/v1/invoice", func(r chi.Router) {
		r.Post("/irn/validate", h.adapt("validate_irn", h.validateIRN))
		r.Post("/validate", h.adapt("validate_invoice", h.validateInvoice))
		r.Post("/sign", h.adapt("sign_invoice", h.signInvoice))
		r.Post("/transmit/{irn}", h.adapt("transmit_invoice", h.transmit))
		r.Patch("/transmit/{irn}", h.adapt("confirm_receipt", h.confirmReceipt))
		r.Get("/transmit/lookup/{irn}", h.adapt("lookup_transmission", h.lookup))
		r.Get("/confirm/{irn}", h.adapt("confirm_invoice", h.confirm))
		r.Get("/download/{irn}", h.adapt("download_invoice", h.download))
		r.Patch("/update/{irn}", h.adapt("update_invoice", h.update))
		r.Get("/resources/{name}", h.adapt("resources", h.resource))
		r.Post("/qr/verify", h.adapt("verify_qr", h.verifyQR))
	})
	r.Post("/sandbox/businesses", h.adapt("register_business", h.admin(h.registerBusiness)))
	r.Get("/sandbox/businesses", h.adapt("list_businesses", h.admin(h.listBusinesses)))
	return r
}

// writeJSON writes v as the whole answer.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// writeData writes NRS's success envelope.
func writeData(w http.ResponseWriter, status int, data any) {
	writeJSON(w, status, map[string]any{"code": status, "data": data})
}

// ok is the data of NRS's action answers.
var ok = map[string]bool{"ok": true}
