// Package nrssandbox is a stand-in for the NRS e-invoicing platform's API
// (MBS, the Merchant Buyer Solution), for development, tests and
// certification rehearsals where the real sandbox is out of reach. It is a
// service of its own: it depends on the authority's rules (model/nrs) and its
// own tables (sandboxdb), never on the application.
//
// It answers the 33 endpoints of ../shared/nrs/mbs-api.md at MBS's paths,
// with MBS's headers (x-api-key, x-api-secret), envelopes
// ({"code":200,"data":...}; errors {"code":400,"data":null,"message":"error
// has occurred","error":{"id","handler","details","public_message"}}; an
// unknown route {"code":404,"data":null,"message":"no route found ..."}),
// handler names and captured texts, and serves NRS's own code lists as NRS
// serves them. Where MBS's answer is unpublished, the stand-in answers with
// the fields integrators read; docs/nrs-sandbox.md marks every such choice as
// einvoice's reading.
//
// State (businesses, parties, invoices, scenario counters) lives in the
// database, so the stand-in runs as its own process, embedded in any number
// of API processes sharing one database, or in dev, and survives restarts.
// Businesses are registered through the stand-in's admin endpoint (or
// RegisterSandboxBusiness in process); a business belongs to the owner that
// registered it. Each business is bounded on its own (invoices, payload
// bytes, parties), rate-limited, and limited in concurrent requests; callers
// are rate-limited by IP before authentication.
//
// Extras MBS does not have, documented as such: the admin endpoints
// (/sandbox/businesses), faults (outages and throttles of a business's
// endpoints for a while, /sandbox/faults and
// /sandbox/businesses/{id}/faults), QR verification (POST /api/v1/invoice/qr/verify) and
// invoice references with reserved prefixes (SBXSIGNFAIL, SBXSLOW, SBXRETRY,
// SBXDOWN, SBXDUP) that force failures so that clients can rehearse them,
// and (SBXLOSTRST, SBXLOSTLATE, SBXLOST5XX) that commit a sign, transmit or
// update and then lose its answer, with counters of how many sign and
// transmit requests each IRN received (Counts), so that a client can prove
// it submits exactly once.
package nrssandbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrs"
	"github.com/einvoice-ng/einvoice/model/nrs/codes"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// Defaults of Options.
const (
	DefaultSlowDelay              = 3 * time.Second
	DefaultLateDelay              = 5 * time.Second
	DefaultRetryFailures          = 2
	DefaultRetryAfter             = time.Second
	DefaultMaxBusinesses          = 10000
	DefaultMaxInvoicesPerBusiness = 5000
	DefaultMaxBytesPerBusiness    = 32 << 20
	DefaultMaxPartiesPerBusiness  = 1000
	DefaultMaxBodyBytes           = 1 << 20
	DefaultMaxConcurrent          = 16
)

// Default rate limits (einvoice's reading: MBS publishes none).
var (
	DefaultBusinessRate = RateLimit{Count: 100, Period: time.Second}
	DefaultIPRate       = RateLimit{Count: 500, Period: time.Second}
)

// Options configures a Handler. DB is required; the zero value of every other
// field gives its default.
type Options struct {
	// DB holds the stand-in's state; migrated (sandboxdb.DB.Migrate).
	DB *sandboxdb.DB
	// Authority validates invoices; default nrs.New with default options.
	Authority *nrs.Authority
	// AdminToken enables the admin endpoints (/sandbox/businesses) for
	// callers sending "Authorization: Bearer <AdminToken>". Empty disables
	// them (they answer as unknown routes); RegisterSandboxBusiness works
	// either way.
	AdminToken string
	// SlowDelay is how long SBXSLOW invoices wait before answering;
	// default 3 s.
	SlowDelay time.Duration
	// LateDelay is how long SBXLOSTLATE answers wait after committing;
	// default 5 s.
	LateDelay time.Duration
	// RetryFailures is how many 503 answers an SBXRETRY invoice gets per
	// endpoint before the call goes through, when the reference does not
	// say (SBXRETRY3... means 3); default 2.
	RetryFailures int
	// RetryAfter is sent as Retry-After (whole seconds) with the 503
	// answers of SBXRETRY and SBXDOWN; default 1 s, negative omits it.
	RetryAfter time.Duration
	// MaxBusinesses bounds the registered businesses; default 10,000.
	MaxBusinesses int
	// MaxInvoicesPerBusiness and MaxBytesPerBusiness bound each business's
	// invoices: past either, that business's oldest invoices go (never
	// another business's). Defaults 5,000 and 32 MiB.
	MaxInvoicesPerBusiness int
	MaxBytesPerBusiness    int64
	// MaxPartiesPerBusiness bounds CreateParty per business; default 1,000.
	MaxPartiesPerBusiness int
	// MaxBodyBytes bounds a request body; default 1 MiB.
	MaxBodyBytes int64
	// BusinessRate limits each business's requests, IPRate each client
	// address's before authentication; defaults 100/s and 500/s, bursts of
	// Count. RateLimit{Count: -1} turns one off.
	BusinessRate RateLimit
	IPRate       RateLimit
	// MaxConcurrent bounds each business's requests in flight; default 16,
	// negative for no bound.
	MaxConcurrent int
	// PlainDownloads answers DownloadInvoice with the invoice in clear as
	// data, instead of the sealed envelope live integrations receive
	// ({"iv_hex","pub","data"}, model/nrs.SealDownload, sealed with the
	// caller's API key).
	PlainDownloads bool
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives unexpected failures; default slog.Default().
	Logger *slog.Logger
	// SealKey (32 bytes) seals the businesses' QR private keys in the
	// database (AES-256-GCM, as einvoice seals its secrets); New seals
	// keys kept in clear before. Empty: a random key of this process, so
	// that keys registered stay readable only while it runs (tests).
	SealKey []byte
}

// Handler is the stand-in, an http.Handler safe for concurrent use.
type Handler struct {
	opts   Options
	db     *sandboxdb.DB
	rules  *nrs.Authority
	limits *limiter
	keys   keyCache
	mux    http.Handler
	box    *secret.Box
}

// New builds a Handler.
func New(opts Options) (*Handler, error) {
	if opts.DB == nil {
		return nil, errors.New("nrssandbox: a database is required (sandboxdb.Open, then Migrate)")
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
	if opts.LateDelay <= 0 {
		opts.LateDelay = DefaultLateDelay
	}
	if opts.RetryFailures <= 0 {
		opts.RetryFailures = DefaultRetryFailures
	}
	if opts.RetryAfter == 0 {
		opts.RetryAfter = DefaultRetryAfter
	}
	if opts.MaxBusinesses <= 0 {
		opts.MaxBusinesses = DefaultMaxBusinesses
	}
	if opts.MaxInvoicesPerBusiness <= 0 {
		opts.MaxInvoicesPerBusiness = DefaultMaxInvoicesPerBusiness
	}
	if opts.MaxBytesPerBusiness <= 0 {
		opts.MaxBytesPerBusiness = DefaultMaxBytesPerBusiness
	}
	if opts.MaxPartiesPerBusiness <= 0 {
		opts.MaxPartiesPerBusiness = DefaultMaxPartiesPerBusiness
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.BusinessRate == (RateLimit{}) {
		opts.BusinessRate = DefaultBusinessRate
	}
	if opts.IPRate == (RateLimit{}) {
		opts.IPRate = DefaultIPRate
	}
	if opts.MaxConcurrent == 0 {
		opts.MaxConcurrent = DefaultMaxConcurrent
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	box, err := newSealBox(opts.SealKey)
	if err != nil {
		return nil, fmt.Errorf("nrssandbox: seal key: %w", err)
	}
	h := &Handler{opts: opts, db: opts.DB, rules: opts.Authority, box: box,
		limits: newLimiter(opts.BusinessRate, opts.IPRate, opts.MaxConcurrent)}
	if len(opts.SealKey) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := h.sealClearPrivateKeys(ctx); err != nil {
			return nil, fmt.Errorf("nrssandbox: seal the private keys kept in clear: %w", err)
		}
	}
	h.mux = h.routes()
	return h, nil
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			h.opts.Logger.ErrorContext(r.Context(), "nrs sandbox panic", "panic", v)
			writeError(w, HandlerKey, &apiError{status: http.StatusInternalServerError, public: MsgInternal})
		}
	}()
	if wait, allowed := h.limits.allowIP(model.AddressKey(clientIP(r)), h.opts.Now()); !allowed {
		writeError(w, HandlerKey, tooMany("this address sends requests faster than the sandbox's limit of "+h.opts.IPRate.String(), wait))
		return
	}
	h.mux.ServeHTTP(w, r)
}

// routes maps MBS's endpoints (numbered as in mbs-api.md) and the extras.
func (h *Handler) routes() http.Handler {
	r := chi.NewRouter()
	r.NotFound(writeNoRoute)
	r.MethodNotAllowed(writeNoRoute)

	inv := func(fn handlerFunc) http.HandlerFunc { return h.route(HandlerInvoice, fn) }
	r.Get("/api", h.health)                                                       // 1
	r.Get("/api/v1/entity", h.route(HandlerEntity, h.searchEntity))               // 2
	r.Get("/api/v1/entity/{id}", h.route(HandlerEntity, h.getEntity))             // 3
	r.Post("/api/v1/invoice/irn/validate", inv(h.validateIRN))                    // 4
	r.Post("/api/v1/invoice/validate", inv(h.validateInvoice))                    // 5
	r.Post("/api/v1/invoice/sign", inv(h.signInvoice))                            // 6
	r.Post("/api/v1/invoice/party", inv(h.createParty))                           // 7
	r.Get("/api/v1/invoice/party/{business_id}", inv(h.searchParty))              // 8
	r.Get("/api/v1/invoice/confirm/{irn}", inv(h.confirmInvoice))                 // 9
	r.Get("/api/v1/invoice/download/{irn}", inv(h.downloadInvoice))               // 10
	r.Get("/api/v1/invoice/{business_id}", inv(h.searchInvoice))                  // 11
	r.Patch("/api/v1/invoice/update/{irn}", inv(h.updateInvoice))                 // 12
	r.Get("/api/v1/invoice/transmit/lookup/{irn}", inv(h.lookupIRN))              // 13
	r.Get("/api/v1/invoice/transmit/lookup/tin/{tin}", inv(h.lookupTIN))          // 14
	r.Get("/api/v1/invoice/transmit/lookup/party/{party_id}", inv(h.lookupParty)) // 15
	r.Post("/api/v1/invoice/transmit/{irn}", inv(h.transmit))                     // 16
	r.Patch("/api/v1/invoice/transmit/{irn}", inv(h.confirmReceipt))              // 17
	r.Get("/api/v1/invoice/transmit/self-health-check", inv(h.selfHealthCheck))   // 18
	r.Get("/api/v1/invoice/transmit/pull", inv(h.pull))                           // 19
	// 20: POST /v1/vat/postPayment is not routed: the sandbox answered it
	// with the "no route found" 404, and so does the stand-in. The report as
	// live integrations send it (integrator-evidence.md E2) is.
	r.Post("/api/v1/vat/postpayment", h.route(HandlerInvoice, h.postPayment))
	r.Post("/api/v1/utilities/verify-tin/", h.route(HandlerUtility, h.verifyTIN)) // 21
	r.Post("/api/v1/utilities/verify-tin", h.route(HandlerUtility, h.verifyTIN))
	r.Post("/api/v1/utilities/authenticate", h.route(HandlerUtility, h.authenticateTaxpayer)) // 22
	for _, name := range codes.ResourceNames() {                                              // 23-33
		r.Get("/api/v1/invoice/resources/"+name, h.resource(name))
	}

	// Extras.
	r.Post("/api/v1/invoice/qr/verify", inv(h.verifyQR))
	r.Post("/sandbox/businesses", h.route(HandlerAdmin, h.admin(h.registerBusiness)))
	r.Get("/sandbox/businesses", h.route(HandlerAdmin, h.admin(h.listBusinesses)))
	r.Post("/sandbox/businesses/{business_id}/faults", h.route(HandlerAdmin, h.admin(h.adminSetFault)))
	r.Get("/sandbox/businesses/{business_id}/faults", h.route(HandlerAdmin, h.admin(h.adminListFaults)))
	r.Delete("/sandbox/businesses/{business_id}/faults", h.route(HandlerAdmin, h.admin(h.adminClearFaults)))
	r.Post("/sandbox/faults", h.route(HandlerAdmin, h.ownFaults(h.setFaultFor)))
	r.Get("/sandbox/faults", h.route(HandlerAdmin, h.ownFaults(h.listFaultsFor)))
	r.Delete("/sandbox/faults", h.route(HandlerAdmin, h.ownFaults(h.clearFaultsFor)))
	return r
}

// health is GET /api: {"healthy":true}, outside the envelope, no
// credentials, as MBS answers it. It does not look at the database: like
// MBS's, it says the API answers.
func (h *Handler) health(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]bool{"healthy": true})
}

// now is the stand-in's clock, in UTC, to the microsecond (what both
// databases keep).
func (h *Handler) now() time.Time { return h.opts.Now().UTC().Truncate(time.Microsecond) }
