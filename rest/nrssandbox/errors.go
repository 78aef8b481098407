package nrssandbox

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Public messages of the stand-in's error answers. Clients may match on
// them; the first two are NRS's own wording.
const (
	MsgIRNValidationFailed     = "irn validation failed"
	MsgDuplicateIRN            = "duplicate irn"
	MsgInvalidCredentials      = "invalid api key or api secret"
	MsgInvalidBody             = "invalid request body"
	MsgInvoiceValidationFailed = "invoice validation failed"
	MsgBusinessMismatch        = "business_id does not belong to this api key"
	MsgInvoiceNotFound         = "invoice not found"
	MsgNotValidated            = "invoice has not been validated"
	MsgNotSigned               = "invoice has not been signed"
	MsgNotTransmitted          = "invoice has not been transmitted"
	MsgAlreadyTransmitted      = "invoice has already been transmitted"
	MsgReceiptConfirmed        = "invoice receipt has already been confirmed"
	MsgB2CNotTransmitted       = "only B2B and B2G invoices are transmitted"
	MsgNotConfirmed            = "invoice has not been confirmed"
	MsgPaymentFinal            = "payment status can no longer change"
	MsgInvalidPaymentStatus    = "payment_status must be PENDING, PAID, PARTIAL or REJECTED"
	MsgSigningFailed           = "invoice signing failed"
	MsgUnavailable             = "service unavailable"
	MsgNoPrivateKey            = "no private key is registered for this business"
)

// apiError is an answer in NRS's error envelope.
type apiError struct {
	status     int
	public     string
	details    any // a string, or any JSON value
	retryAfter time.Duration
}

func (e *apiError) Error() string { return strconv.Itoa(e.status) + " " + e.public }

// badRequest is NRS's usual error: HTTP 400.
func badRequest(public string, details any) *apiError {
	return &apiError{status: http.StatusBadRequest, public: public, details: details}
}

func notFound() *apiError {
	return &apiError{status: http.StatusNotFound, public: MsgInvoiceNotFound, details: "no invoice with this irn for this business"}
}

// errorBody is NRS's error envelope.
type errorBody struct {
	Code    int       `json:"code"`
	Data    any       `json:"data"`
	Message string    `json:"message"`
	Error   errorInfo `json:"error"`
}

type errorInfo struct {
	ID            string `json:"id"`
	Handler       string `json:"handler"`
	Details       any    `json:"details"`
	PublicMessage string `json:"public_message"`
}

// handlerFunc is a stand-in endpoint: it writes its answer, or returns the
// error to answer with.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// adapt turns a handlerFunc into an http.HandlerFunc that writes errors in
// NRS's envelope, naming handler in error.handler.
func (h *Handler) adapt(handler string, fn handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		err := fn(w, r)
		if err == nil {
			return
		}
		var e *apiError
		switch {
		case errors.As(err, &e):
		case r.Context().Err() != nil:
			// The caller went away (an SBXSLOW wait was cut short): nobody
			// reads this answer and nothing failed here.
			e = &apiError{status: http.StatusServiceUnavailable, public: MsgUnavailable, details: "the request was cancelled"}
		default:
			h.opts.Logger.ErrorContext(r.Context(), "nrs sandbox failure", "handler", handler, "error", err.Error())
			e = &apiError{status: http.StatusInternalServerError, public: "internal server error"}
		}
		if e.retryAfter > 0 {
			secs := int((e.retryAfter + time.Second - 1) / time.Second)
			w.Header().Set("Retry-After", strconv.Itoa(secs))
		}
		details := e.details
		if details == nil {
			details = e.public
		}
		writeJSON(w, e.status, errorBody{
			Code: e.status, Message: "error has occurred",
			Error: errorInfo{ID: uuid.NewString(), Handler: handler, Details: details, PublicMessage: e.public},
		})
	}
}

// authenticate finds the business of the request's x-api-key and
// x-api-secret. A failure is HTTP 400, as NRS answers it.
func (h *Handler) authenticate(r *http.Request) (*business, error) {
	key, secret := r.Header.Get("x-api-key"), r.Header.Get("x-api-secret")
	if key == "" || secret == "" {
		return nil, badRequest(MsgInvalidCredentials, "x-api-key and x-api-secret headers are required")
	}
	b, ok := h.reg.authenticate(key, secret)
	if !ok {
		return nil, badRequest(MsgInvalidCredentials, "the api key and secret do not match a registered business")
	}
	return b, nil
}

// admin guards an admin endpoint with the admin token. Without a token
// configured the endpoints do not exist.
func (h *Handler) admin(fn handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if h.opts.AdminToken == "" {
			return &apiError{status: http.StatusNotFound, public: "resource not found"}
		}
		got, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		a, b := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(h.opts.AdminToken))
		if !found || subtle.ConstantTimeCompare(a[:], b[:]) != 1 {
			return badRequest("invalid admin token", "send Authorization: Bearer <admin token>")
		}
		return fn(w, r)
	}
}

// readBody reads a bounded request body.
func (h *Handler) readBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, h.opts.MaxBodyBytes+1))
	if err != nil {
		return nil, badRequest(MsgInvalidBody, "the request body could not be read")
	}
	if int64(len(body)) > h.opts.MaxBodyBytes {
		return nil, &apiError{status: http.StatusRequestEntityTooLarge, public: MsgInvalidBody,
			details: "the request body is larger than " + strconv.FormatInt(h.opts.MaxBodyBytes, 10) + " bytes"}
	}
	return body, nil
}

// decodeBody reads a JSON object body into v, numbers as json.Number.
func (h *Handler) decodeBody(r *http.Request, v any) ([]byte, error) {
	body, err := h.readBody(r)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return nil, badRequest(MsgInvalidBody, "the request body must be a JSON object")
	}
	if dec.More() {
		return nil, badRequest(MsgInvalidBody, "the request body must hold one JSON object")
	}
	return body, nil
}
