package nrssandbox

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// Faults (extra): a business's owner, or the stand-in's operator, switches
// on an outage or a throttle of one endpoint or all of them for a while, so
// that clients rehearse them. MBS publishes no 5xx or 429 bodies and no rate
// limits (mbs-api.md), so a faulty endpoint answers as a gateway in front of
// MBS plausibly would, and nothing more: a plain-text body naming the status
// ("Service Unavailable"), Retry-After when one is set or for a throttle,
// never MBS's JSON envelope (MBS itself is not reached).

// Kinds of fault.
const (
	FaultOutage   = sandboxdb.FaultOutage
	FaultThrottle = sandboxdb.FaultThrottle
)

// Bounds of a fault.
const (
	MaxFaultDuration   = 7 * 24 * time.Hour
	MaxFaultRetryAfter = time.Hour
)

// Endpoints names the endpoints a fault can aim at, by route: the names are
// the MBS client's operations (model/mbs). The health check and the code
// lists, which need no credentials, are never faulty.
var Endpoints = map[string]string{
	"GET /api/v1/entity":                                   "entity_search",
	"GET /api/v1/entity/{id}":                              "entity_get",
	"POST /api/v1/invoice/irn/validate":                    "irn_validate",
	"POST /api/v1/invoice/validate":                        "invoice_validate",
	"POST /api/v1/invoice/sign":                            "invoice_sign",
	"POST /api/v1/invoice/party":                           "party_create",
	"GET /api/v1/invoice/party/{business_id}":              "party_search",
	"GET /api/v1/invoice/confirm/{irn}":                    "invoice_confirm",
	"GET /api/v1/invoice/download/{irn}":                   "invoice_download",
	"GET /api/v1/invoice/{business_id}":                    "invoice_search",
	"PATCH /api/v1/invoice/update/{irn}":                   "invoice_update",
	"GET /api/v1/invoice/transmit/lookup/{irn}":            "transmit_lookup",
	"GET /api/v1/invoice/transmit/lookup/tin/{tin}":        "transmit_lookup_tin",
	"GET /api/v1/invoice/transmit/lookup/party/{party_id}": "transmit_lookup_party",
	"POST /api/v1/invoice/transmit/{irn}":                  "transmit",
	"PATCH /api/v1/invoice/transmit/{irn}":                 "transmit_confirm_receipt",
	"GET /api/v1/invoice/transmit/self-health-check":       "transmit_self_health_check",
	"GET /api/v1/invoice/transmit/pull":                    "transmit_pull",
	"POST /api/v1/utilities/verify-tin/":                   "verify_tin",
	"POST /api/v1/utilities/verify-tin":                    "verify_tin",
	"POST /api/v1/utilities/authenticate":                  "authenticate",
	"POST /api/v1/invoice/qr/verify":                       "qr_verify",
	"POST /api/v1/vat/postpayment":                         "vat_report",
}

// endpointNames are the distinct names of Endpoints.
var endpointNames = func() []string {
	var out []string
	for _, n := range Endpoints {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}()

// endpointOf names the endpoint a request was routed to ("" if none).
func endpointOf(r *http.Request) string {
	rc := chi.RouteContext(r.Context())
	if rc == nil {
		return ""
	}
	p := rc.RoutePattern()
	if e, ok := Endpoints[r.Method+" "+p]; ok {
		return e
	}
	// Mounted under a prefix (einvoice dev serves the stand-in under
	// /nrs-sandbox): the pattern carries the prefix; the stand-in's own
	// routes begin at /api/.
	if i := strings.Index(p, "/api/"); i > 0 {
		return Endpoints[r.Method+" "+p[i:]]
	}
	return ""
}

// Fault is an outage or a throttle of a business's endpoint, as the fault
// endpoints take and show it (model.SandboxFault: the application hands it
// over without importing the stand-in).
type Fault = model.SandboxFault

// faultOf checks a fault request and builds its row.
func faultOf(businessID string, in Fault, now time.Time) (*sandboxdb.Fault, error) {
	var problems []string
	f := &sandboxdb.Fault{BusinessID: businessID, Kind: in.Kind, Endpoint: in.Endpoint, StartsAt: now}
	switch in.Kind {
	case FaultOutage:
		switch in.Status {
		case 0:
			f.Status = http.StatusServiceUnavailable
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			f.Status = in.Status
		default:
			problems = append(problems, "status must be 502, 503 or 504")
		}
		if in.Rate != "" {
			problems = append(problems, "rate is for a throttle only")
		}
	case FaultThrottle:
		f.Status = http.StatusTooManyRequests
		if in.Status != 0 && in.Status != http.StatusTooManyRequests {
			problems = append(problems, "a throttle answers 429: leave status out")
		}
		lim, err := ParseRateLimit(in.Rate)
		switch {
		case in.Rate == "":
			problems = append(problems, "rate is required for a throttle (COUNT/PERIOD, e.g. 10/m)")
		case err != nil || lim.Off():
			problems = append(problems, "rate must be COUNT/PERIOD, e.g. 10/m")
		case lim.Count > 1_000_000 || lim.Period > 24*time.Hour:
			problems = append(problems, "rate must be at most 1000000 per period and a period of at most 24h")
		default:
			f.RateCount, f.RatePeriodMS = lim.Count, lim.Period.Milliseconds()
		}
	default:
		problems = append(problems, `kind must be "outage" or "throttle"`)
	}
	if in.Endpoint != "" && !slices.Contains(endpointNames, in.Endpoint) {
		problems = append(problems, "endpoint must be empty (every endpoint) or one of "+strings.Join(endpointNames, ", "))
	}
	if in.RetryAfter < 0 || time.Duration(in.RetryAfter)*time.Second > MaxFaultRetryAfter {
		problems = append(problems, "retry_after must be 0 to 3600 seconds")
	}
	f.RetryAfterS = in.RetryAfter
	d, err := time.ParseDuration(in.Duration)
	switch {
	case in.Duration == "":
		problems = append(problems, "duration is required (e.g. 6h, 90s)")
	case err != nil || d < time.Second || d > MaxFaultDuration:
		problems = append(problems, "duration must be a duration from 1s to 168h (e.g. 6h, 90s)")
	default:
		f.EndsAt = now.Add(d)
	}
	if in.StartsAt != nil || in.EndsAt != nil {
		problems = append(problems, "starts_at and ends_at are set by the stand-in: send duration")
	}
	if len(problems) > 0 {
		return nil, invalid("%s", strings.Join(problems, "; "))
	}
	return f, nil
}

// faultView shows a fault row.
func faultView(f *sandboxdb.Fault) Fault {
	out := Fault{Kind: f.Kind, Endpoint: f.Endpoint, RetryAfter: f.RetryAfterS}
	start, end := f.StartsAt.UTC(), f.EndsAt.UTC()
	out.StartsAt, out.EndsAt = &start, &end
	if f.Kind == FaultThrottle {
		out.Rate = RateLimit{Count: f.RateCount, Period: time.Duration(f.RatePeriodMS) * time.Millisecond}.String()
	} else {
		out.Status = f.Status
	}
	return out
}

// SetSandboxFault switches on a fault of a business (in process; the
// fault endpoints do the same over HTTP) and returns it as the stand-in
// keeps it. Errors are *model.Error: not_found (no such business), invalid
// (every problem of the fault), conflict (too many faults), unavailable.
func (h *Handler) SetSandboxFault(ctx context.Context, businessID string, in Fault) (Fault, error) {
	f, err := h.setFault(ctx, businessID, in)
	return f, faultError(err)
}

// SandboxFaults lists a business's faults in force.
func (h *Handler) SandboxFaults(ctx context.Context, businessID string) ([]Fault, error) {
	out, err := h.faults(ctx, businessID)
	return out, faultError(err)
}

// ClearSandboxFaults ends a business's faults: all when kind is "", else
// those of kind on endpoint ("" or "*" for every endpoint of that kind). It
// returns how many ended.
func (h *Handler) ClearSandboxFaults(ctx context.Context, businessID, kind, endpoint string) (int, error) {
	if endpoint == "" {
		endpoint = "*"
	}
	if _, err := h.businessByID(ctx, businessID); err != nil {
		return 0, faultError(err)
	}
	n, err := h.clearFaults(ctx, businessID, kind, endpoint)
	return n, faultError(err)
}

// faultError turns the stand-in's answers into the application's errors.
func faultError(err error) error {
	var e *apiError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e) && e.status == http.StatusNotFound:
		return model.Errorf(model.CodeNotFound, "NRS sandbox: %s", e.details)
	case errors.As(err, &e) && e.status == http.StatusConflict:
		return model.Errorf(model.CodeConflict, "NRS sandbox: %s", e.details)
	case errors.As(err, &e) && e.status < 500:
		return model.Errorf(model.CodeInvalid, "NRS sandbox: %s", e.details)
	}
	return model.Wrap(model.CodeUnavailable, err, "the NRS sandbox cannot change its faults now")
}

func (h *Handler) businessByID(ctx context.Context, businessID string) (*business, error) {
	b, err := h.db.Businesses().ByID(ctx, businessID)
	if errors.Is(err, sandboxdb.ErrNotFound) {
		return nil, notFound("no business " + quote(businessID))
	}
	return b, err
}

func (h *Handler) setFault(ctx context.Context, businessID string, in Fault) (Fault, error) {
	defer h.keys.changed()
	if _, err := h.businessByID(ctx, businessID); err != nil {
		return Fault{}, err
	}
	f, err := faultOf(businessID, in, h.now())
	if err != nil {
		return Fault{}, err
	}
	if err := h.db.Faults().Set(ctx, f, h.now()); err != nil {
		if errors.Is(err, sandboxdb.ErrConflict) {
			return Fault{}, &apiError{status: http.StatusConflict, public: "too many faults",
				details: "a business holds at most " + strconv.Itoa(sandboxdb.MaxFaultsPerBusiness) + " faults; clear some first"}
		}
		return Fault{}, err
	}
	return faultView(f), nil
}

func (h *Handler) faults(ctx context.Context, businessID string) ([]Fault, error) {
	if _, err := h.businessByID(ctx, businessID); err != nil {
		return nil, err
	}
	rows, err := h.db.Faults().Active(ctx, businessID, h.now())
	if err != nil {
		return nil, err
	}
	out := make([]Fault, 0, len(rows))
	for i := range rows {
		out = append(out, faultView(&rows[i]))
	}
	return out, nil
}

func (h *Handler) clearFaults(ctx context.Context, businessID, kind, endpoint string) (int, error) {
	if kind != "" && kind != FaultOutage && kind != FaultThrottle {
		return 0, invalid(`kind must be "outage" or "throttle"`)
	}
	if kind == "" && endpoint != "*" && endpoint != "" {
		return 0, invalid("endpoint needs kind")
	}
	if endpoint != "*" && endpoint != "" && !slices.Contains(endpointNames, endpoint) {
		return 0, invalid("endpoint must be one of %s", strings.Join(endpointNames, ", "))
	}
	defer h.keys.changed()
	return h.db.Faults().Clear(ctx, businessID, kind, endpoint)
}

// gatewayError is the answer of a fault: a gateway's, not MBS's.
type gatewayError struct {
	status     int
	retryAfter time.Duration
}

func (e *gatewayError) Error() string {
	return strconv.Itoa(e.status) + " " + http.StatusText(e.status)
}

// writeGateway writes a gateway's minimal answer: the status text as plain
// text.
func writeGateway(w http.ResponseWriter, e *gatewayError) {
	h := w.Header()
	if e.retryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(int((e.retryAfter+time.Second-1)/time.Second)))
	}
	body := http.StatusText(e.status)
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(e.status)
	_, _ = w.Write([]byte(body))
}

// applyFaults answers a request of business b to endpoint as its faults in
// force at now (read with its credentials) say: an outage first, then a
// throttle (aimed at the endpoint, or at every endpoint). Throttle
// allowances are counted per process, as the other limits are.
func (h *Handler) applyFaults(b *business, endpoint string, faults []sandboxdb.Fault, now time.Time) error {
	if endpoint == "" || len(faults) == 0 {
		return nil
	}
	for i := range faults {
		f := &faults[i]
		if f.Kind == FaultOutage && (f.Endpoint == "" || f.Endpoint == endpoint) {
			return &gatewayError{status: f.Status, retryAfter: time.Duration(f.RetryAfterS) * time.Second}
		}
	}
	for i := range faults {
		f := &faults[i]
		if f.Kind != FaultThrottle || (f.Endpoint != "" && f.Endpoint != endpoint) {
			continue
		}
		lim := RateLimit{Count: f.RateCount, Period: time.Duration(f.RatePeriodMS) * time.Millisecond}
		key := b.BusinessID + "|" + f.Endpoint + "|" + lim.String() + "|" + strconv.FormatInt(f.StartsAt.UnixMicro(), 10)
		if wait, allowed := h.limits.allowThrottle(key, lim, now); !allowed {
			if f.RetryAfterS > 0 {
				wait = time.Duration(f.RetryAfterS) * time.Second
			}
			if wait < time.Second {
				wait = time.Second
			}
			return &gatewayError{status: http.StatusTooManyRequests, retryAfter: wait}
		}
	}
	return nil
}

// Admin endpoints: /sandbox/businesses/{business_id}/faults.

func (h *Handler) adminSetFault(w http.ResponseWriter, r *http.Request) error {
	return h.setFaultFor(w, r, chi.URLParam(r, "business_id"))
}

func (h *Handler) adminListFaults(w http.ResponseWriter, r *http.Request) error {
	return h.listFaultsFor(w, r, chi.URLParam(r, "business_id"))
}

func (h *Handler) adminClearFaults(w http.ResponseWriter, r *http.Request) error {
	return h.clearFaultsFor(w, r, chi.URLParam(r, "business_id"))
}

// The business's own endpoints: /sandbox/faults with its x-api-key and
// x-api-secret. They are never faulty themselves.

func (h *Handler) ownFaults(fn func(w http.ResponseWriter, r *http.Request, businessID string) error) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		b, err := h.businessOf(r)
		if err != nil {
			return err
		}
		release, err := h.admit(b)
		if err != nil {
			return err
		}
		defer release()
		return fn(w, r, b.BusinessID)
	}
}

func (h *Handler) setFaultFor(w http.ResponseWriter, r *http.Request, businessID string) error {
	var in Fault
	if _, err := h.decodeBody(r, &in); err != nil {
		return err
	}
	f, err := h.setFault(r.Context(), businessID, in)
	if err != nil {
		return err
	}
	writeData(w, http.StatusCreated, f)
	return nil
}

func (h *Handler) listFaultsFor(w http.ResponseWriter, r *http.Request, businessID string) error {
	out, err := h.faults(r.Context(), businessID)
	if err != nil {
		return err
	}
	writeData(w, http.StatusOK, out)
	return nil
}

func (h *Handler) clearFaultsFor(w http.ResponseWriter, r *http.Request, businessID string) error {
	q := r.URL.Query()
	endpoint := "*"
	if q.Has("endpoint") {
		endpoint = q.Get("endpoint")
	}
	if q.Get("kind") == "" && q.Has("endpoint") {
		return invalid("endpoint needs kind")
	}
	if _, err := h.businessByID(r.Context(), businessID); err != nil {
		return err
	}
	n, err := h.clearFaults(r.Context(), businessID, q.Get("kind"), endpoint)
	if err != nil {
		return err
	}
	writeData(w, http.StatusOK, map[string]int{"cleared": n})
	return nil
}
