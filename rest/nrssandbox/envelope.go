package nrssandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// Handler names MBS writes in error.handler. The first three are MBS's own
// (mbs-api.md, "Error answers captured"); the others are einvoice's reading
// (MBS's are not published).
const (
	// HandlerKey answers a key MBS cannot validate, on every endpoint.
	HandlerKey = "handler"
	// HandlerEntity answers the entity endpoints.
	HandlerEntity = "entity_actions"
	// HandlerInvoice answers every endpoint under /api/v1/invoice.
	HandlerInvoice = "invoice_actions"
	// HandlerUtility answers the utilities (verify-tin, authenticate):
	// einvoice's reading.
	HandlerUtility = "utility_actions"
	// HandlerAdmin answers the stand-in's own admin endpoints.
	HandlerAdmin = "sandbox_admin"
)

// Texts of MBS's answers, as MBS writes them (mbs-api.md).
const (
	// MsgErrorOccurred is the "message" of every error envelope.
	MsgErrorOccurred = "error has occurred"
	// MsgNoRoute is the "message" of the answer to an unknown route, which
	// has no "error" object.
	MsgNoRoute = "no route found for this path. kindly check your request and try again"
	// MsgBadAPIKey answers a key MBS cannot validate (no details).
	MsgBadAPIKey = "unable to validate api key"
	// MsgValidationFailed and MsgValidationFailedDuplicate are MBS's public
	// messages of refused requests.
	MsgValidationFailed          = "validation failed"
	MsgValidationFailedDuplicate = "validation failed: we are unable to process your request. also confirm this is not a duplicate request"
	// MsgIRNValidationFailed and DetailsIRNTemplate answer an IRN that does
	// not follow the business's template.
	MsgIRNValidationFailed = "irn validation failed"
	DetailsIRNTemplate     = "irn validation failed for this business, refer to the template and try again"
	// DetailsNoBusiness answers a business_id MBS does not know.
	DetailsNoBusiness = "this business does not exist"
)

// Texts of the stand-in's answers where MBS's are not published:
// einvoice's reading (docs/nrs-sandbox.md).
const (
	MsgNotFound        = "resource not found"
	MsgTooManyRequests = "too many requests"
	MsgUnavailable     = "service unavailable"
	MsgSigningFailed   = "invoice signing failed"
	MsgInternal        = "internal server error"
)

// contentType is the Content-Type of every MBS answer.
const contentType = "application/json; charset=utf-8"

// apiError is an answer in MBS's error envelope.
type apiError struct {
	status int
	// handler overrides the route's handler name ("" keeps it).
	handler string
	public  string
	// details is error.details; "" leaves the field out, as MBS does for a
	// bad key.
	details    string
	retryAfter time.Duration
}

func (e *apiError) Error() string { return strconv.Itoa(e.status) + " " + e.public + ": " + e.details }

// refused is MBS's usual error: HTTP 400.
func refused(public, details string) *apiError {
	return &apiError{status: http.StatusBadRequest, public: public, details: details}
}

// invalid is a request MBS would refuse as invalid.
func invalid(format string, args ...any) *apiError {
	return refused(MsgValidationFailed, fmt.Sprintf(format, args...))
}

// noBusiness answers a business_id that is not the caller's: unknown or
// another's, MBS's "this business does not exist" either way.
func noBusiness() *apiError { return refused(MsgValidationFailed, DetailsNoBusiness) }

// notFound answers an id the caller cannot see.
func notFound(details string) *apiError {
	return &apiError{status: http.StatusNotFound, public: MsgNotFound, details: details}
}

// badUUID answers a path id that is not a UUID the way MBS's GetEntity does:
// the parser's own text ("invalid UUID length: 13").
func badUUID(err error) *apiError {
	return refused(MsgValidationFailedDuplicate, err.Error())
}

var errBadKey = &apiError{status: http.StatusBadRequest, handler: HandlerKey, public: MsgBadAPIKey}

// errorBody is MBS's error envelope; fields in MBS's order.
type errorBody struct {
	Code    int       `json:"code"`
	Data    any       `json:"data"`
	Message string    `json:"message"`
	Error   errorInfo `json:"error"`
}

type errorInfo struct {
	ID            string `json:"id"`
	Handler       string `json:"handler"`
	Details       string `json:"details,omitempty"`
	PublicMessage string `json:"public_message"`
}

// noRouteBody is MBS's answer to an unknown route: no "error" object.
type noRouteBody struct {
	Code    int    `json:"code"`
	Data    any    `json:"data"`
	Message string `json:"message"`
}

// successBody is MBS's success envelope.
type successBody struct {
	Code int `json:"code"`
	Data any `json:"data"`
}

// ok is the data of MBS's action answers.
var ok = map[string]bool{"ok": true}

// writeJSON writes v as the whole answer, compact and without a trailing
// newline (MBS's health answer is 16 bytes), with MBS's headers.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"code":500,"data":null,"message":"error has occurred"}` + "\n")
	}
	body := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "private")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeData writes MBS's success envelope.
func writeData(w http.ResponseWriter, status int, data any) {
	writeJSON(w, status, successBody{Code: status, Data: data})
}

// writeNoRoute writes MBS's answer to an unknown route.
func writeNoRoute(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusNotFound, noRouteBody{Code: http.StatusNotFound, Message: MsgNoRoute})
}

// writeError writes e in MBS's error envelope with a fresh error id.
func writeError(w http.ResponseWriter, handler string, e *apiError) {
	if e.handler != "" {
		handler = e.handler
	}
	if e.retryAfter > 0 {
		secs := int((e.retryAfter + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	writeJSON(w, e.status, errorBody{
		Code: e.status, Message: MsgErrorOccurred,
		Error: errorInfo{ID: uuid.NewString(), Handler: handler, Details: e.details, PublicMessage: e.public},
	})
}

// handlerFunc is an endpoint: it writes its answer, or returns the error to
// answer with.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// route turns an endpoint into an http.HandlerFunc that answers errors in
// MBS's envelope, naming handler in error.handler.
func (h *Handler) route(handler string, fn handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		err := fn(w, r)
		if err == nil {
			return
		}
		var e *apiError
		var gw *gatewayError
		switch {
		case errors.As(err, &gw):
			writeGateway(w, gw)
			return
		case errors.As(err, &e):
		case r.Context().Err() != nil:
			// The caller went away (an SBXSLOW wait was cut short): nobody
			// reads this answer and nothing failed here.
			e = &apiError{status: http.StatusServiceUnavailable, public: MsgUnavailable, details: "the request was cancelled"}
		default:
			h.opts.Logger.ErrorContext(r.Context(), "nrs sandbox failure", "handler", handler, "error", err.Error())
			e = &apiError{status: http.StatusServiceUnavailable, public: MsgUnavailable,
				details: "the sandbox cannot answer now; try again", retryAfter: time.Second}
		}
		writeError(w, handler, e)
	}
}
