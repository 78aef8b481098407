// Package rest is einvoice's REST transport on chi: thin handlers that decode
// a request, call one service method and encode the answer, plus the
// middleware every route shares (request ids, recovery, logging, body limits,
// bearer and API-key authentication).
package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"sync"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/invoices"
)

// handlerFunc is a handler that returns its error; adapt writes it.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// statusOf is the one table from error code to HTTP status.
var statusOf = map[model.ErrorCode]int{
	model.CodeInvalid:                http.StatusUnprocessableEntity,
	model.CodeUnauthenticated:        http.StatusUnauthorized,
	model.CodeForbidden:              http.StatusForbidden,
	model.CodeNotFound:               http.StatusNotFound,
	model.CodeConflict:               http.StatusConflict,
	model.CodeAuthorityNotConfigured: http.StatusConflict,
	model.CodeIdempotencyKeyReuse:    http.StatusUnprocessableEntity,
	model.CodeQuotaExceeded:          http.StatusConflict,
	model.CodeUnsupportedMediaType:   http.StatusUnsupportedMediaType,
	model.CodePayloadTooLarge:        http.StatusRequestEntityTooLarge,
	model.CodeRateLimited:            http.StatusTooManyRequests,
	model.CodeUnavailable:            http.StatusServiceUnavailable,
	model.CodeInternal:               http.StatusInternalServerError,
}

// errorBody is the body of every non-422 error.
type errorBody struct {
	Detail string          `json:"detail"`
	Code   model.ErrorCode `json:"code"`
}

// validationBody is the body of a 422.
type validationBody struct {
	Detail []model.FieldError `json:"detail"`
}

func (a *api) adapt(h handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			a.writeError(w, r, err)
		}
	}
}

// writeError writes err in the contract's shape. Internal causes are logged
// with the request id and never shown.
func (a *api) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := model.AsError(err)
	status, ok := statusOf[e.Code]
	if !ok {
		status = http.StatusInternalServerError
	}
	if status >= 500 {
		a.log.Error("request failed", "request_id", requestID(r.Context()), "method", r.Method,
			"path", r.URL.Path, "code", e.Code, "error", err)
	}
	if e.Code == model.CodeInternal {
		writeJSON(w, status, errorBody{Detail: "Internal Server Error", Code: model.CodeInternal})
		return
	}
	retryAfter := e.RetryAfter
	if status == http.StatusServiceUnavailable && retryAfter <= 0 {
		// Every 503 says when to come back, so that clients and load
		// balancers back off instead of retrying at once.
		retryAfter = model.DependencyRetryAfter
	}
	if retryAfter > 0 && (status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable) {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, ceilSeconds(retryAfter))))
	}
	if status == http.StatusUnauthorized && isPortalRoute(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="einvoice"`)
	}
	if status == http.StatusUnprocessableEntity {
		fields := e.Fields
		if len(fields) == 0 {
			typ := model.ProblemValueError
			if e.Code == model.CodeIdempotencyKeyReuse {
				typ = model.ProblemIdempotencyKeyMismatch
			}
			fields = []model.FieldError{{Loc: []any{"body"}, Msg: e.Message, Type: typ}}
		}
		writeJSON(w, status, validationBody{Detail: fields})
		return
	}
	writeJSON(w, status, errorBody{Detail: e.Message, Code: e.Code})
}

// jsonContentType is shared by every JSON response, to spare an allocation
// per request; Header.Set and Add replace or copy it, never change it.
var jsonContentType = []string{"application/json; charset=utf-8"}

func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledBuffer {
			buf.Reset()
			jsonBuffers.Put(buf)
		}
	}()
	buf.Reset()
	if err := encodeJSON(buf, v); err != nil {
		slog.Error("encode response", "error", err)
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"detail":"Internal Server Error","code":"internal"}` + "\n")
	}
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// encodeJSON appends v to buf as writeJSON answers it.
func encodeJSON(buf *bytes.Buffer, v any) error {
	// Encode writes the same bytes as Marshal, then a newline; so does
	// appendPlain, for the values it knows.
	if b, ok := appendPlain(buf.AvailableBuffer(), v); ok {
		buf.Write(b)
		return nil
	}
	return json.NewEncoder(buf).Encode(v)
}

// jsonBuffers recycles response buffers; maxPooledBuffer keeps a rare
// large answer from pinning its memory.
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledBuffer = 64 << 10

// reply writes a use case's answer with 200, or returns its error with
// problem locations under part ("body", "query", "path").
func reply(w http.ResponseWriter, part string, out any, err error) error {
	if err != nil {
		return at(part, err)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// at prefixes the locations of an invalid error with where the input sits
// in the request ("body", "query", "path").
func at(part string, err error) error {
	var e *model.Error
	if !errors.As(err, &e) || e.Code != model.CodeInvalid || len(e.Fields) == 0 {
		return err
	}
	var p model.Problems
	p.AddAll([]any{part}, e.Fields)
	return p.Err()
}

// appendPlain appends the answers of the hottest routes (an IRN) as
// json.Encoder would write them, without reflection, when every string in
// them is plain (printable ASCII that encoding/json leaves as it is); it
// returns false for any other value, which writeJSON then encodes with
// encoding/json.
func appendPlain(dst []byte, v any) ([]byte, bool) {
	r, ok := v.(*invoices.IRNResult)
	if !ok || r == nil {
		return dst, false
	}
	for _, f := range [...]struct{ name, value string }{
		{`{"irn":`, r.IRN}, {`,"invoice_reference":`, r.InvoiceReference}, {`,"service_id":`, r.ServiceID},
		{`,"business_id":`, r.BusinessID}, {`,"issue_date":`, r.IssueDate},
		{`,"invoice_type_code":`, r.InvoiceTypeCode}, {`,"tax_authority_code":`, r.TaxAuthorityCode},
	} {
		if !isPlain(f.value) {
			return dst, false
		}
		dst = append(dst, f.name...)
		dst = append(dst, '"')
		dst = append(dst, f.value...)
		dst = append(dst, '"')
	}
	return append(dst, "}\n"...), true
}

// isPlain tells a string encoding/json writes between quotes unchanged
// (with its HTML escaping on, as json.Encoder has it).
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}
