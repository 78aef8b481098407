package mbs

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Payment statuses accepted by UpdatePaymentStatus.
const (
	PaymentPending  = "PENDING"
	PaymentPaid     = "PAID"
	PaymentPartial  = "PARTIAL"
	PaymentRejected = "REJECTED"
)

// Health is the answer of GET /api.
type Health struct {
	Healthy bool `json:"healthy"`
}

// ValidateIRNRequest is the body of POST /api/v1/invoice/irn/validate.
type ValidateIRNRequest struct {
	InvoiceReference string `json:"invoice_reference"`
	BusinessID       string `json:"business_id"`
	IRN              string `json:"irn"`
}

// Ack is the answer of an action endpoint (validate, sign, transmit,
// confirm receipt, update): NRS answers {"ok":true}. Data keeps the whole
// data object as sent, for evidence.
type Ack struct {
	OK   bool            `json:"ok"`
	Data json.RawMessage `json:"data,omitempty"`
}

// Transmission is the answer of GET /api/v1/invoice/transmit/lookup/{irn}.
// Timestamps are kept as NRS writes them.
type Transmission struct {
	IRN            string          `json:"irn"`
	BusinessID     string          `json:"business_id,omitempty"`
	Status         string          `json:"status,omitempty"`
	InvoiceKind    string          `json:"invoice_kind,omitempty"`
	TransmittedAt  string          `json:"transmitted_at,omitempty"`
	AcknowledgedAt string          `json:"acknowledged_at,omitempty"`
	Data           json.RawMessage `json:"data,omitempty"`
}

// InvoiceStatus is the answer of GET /api/v1/invoice/confirm/{irn}: where
// the invoice stands at NRS and its payment status.
type InvoiceStatus struct {
	IRN             string          `json:"irn"`
	BusinessID      string          `json:"business_id,omitempty"`
	Status          string          `json:"status,omitempty"`
	PaymentStatus   string          `json:"payment_status,omitempty"`
	InvoiceKind     string          `json:"invoice_kind,omitempty"`
	InvoiceTypeCode string          `json:"invoice_type_code,omitempty"`
	SignedAt        string          `json:"signed_at,omitempty"`
	TransmittedAt   string          `json:"transmitted_at,omitempty"`
	ConfirmedAt     string          `json:"confirmed_at,omitempty"`
	Data            json.RawMessage `json:"data,omitempty"`
}

// Document is the answer of GET /api/v1/invoice/download/{irn}. Invoice is
// the invoice document as NRS holds it.
type Document struct {
	IRN           string          `json:"irn"`
	Status        string          `json:"status,omitempty"`
	PaymentStatus string          `json:"payment_status,omitempty"`
	Invoice       json.RawMessage `json:"invoice,omitempty"`
	Data          json.RawMessage `json:"data,omitempty"`
}

// PaymentUpdate is the body of PATCH /api/v1/invoice/update/{irn}.
type PaymentUpdate struct {
	PaymentStatus string `json:"payment_status"`
	Reference     string `json:"reference,omitempty"`
}

// QRVerifyRequest is the body of the sandbox stand-in's
// POST /api/v1/invoice/qr/verify.
type QRVerifyRequest struct {
	IRN       string `json:"irn"`
	QRPayload string `json:"qr_payload"`
	// Encryption is the scheme used ("" means the business's own).
	Encryption string `json:"encryption,omitempty"`
}

// QRCheck is one check of a QR verification.
type QRCheck struct {
	Name    string `json:"name"`
	Passed  bool   `json:"passed"`
	Message string `json:"message"`
}

// QRVerification is the stand-in's verdict on a QR payload: whether it
// decrypts, with the business's private key, to
// {"irn":"<irn>.<unix seconds>","certificate":"<the business's certificate>"}.
type QRVerification struct {
	Valid     bool            `json:"valid"`
	IRN       string          `json:"irn"`
	Timestamp int64           `json:"timestamp"`
	Checks    []QRCheck       `json:"checks"`
	Data      json.RawMessage `json:"data,omitempty"`
}

// Health calls GET /api, which answers {"healthy":true} outside NRS's
// envelope.
func (c *Client) Health(ctx context.Context) (Health, Call, error) {
	r := request{op: OpHealth, method: http.MethodGet, path: "/api"}
	body, call, err := c.do(ctx, r)
	if err != nil {
		return Health{}, call, err
	}
	raw := json.RawMessage(body)
	var env envelope
	if json.Unmarshal(body, &env) == nil && len(env.Data) > 0 {
		raw = env.Data // tolerate an enveloped answer
	}
	f, ok := fields(raw)
	if !ok {
		return Health{}, call, c.malformed(r, call, "health answer is not a JSON object")
	}
	return Health{Healthy: f.bool("healthy")}, call, nil
}

// ValidateIRN calls POST /api/v1/invoice/irn/validate. NRS refuses an IRN
// whose parts do not match the business with HTTP 400 "irn validation
// failed".
func (c *Client) ValidateIRN(ctx context.Context, in ValidateIRNRequest) (Ack, Call, error) {
	return c.ack(ctx, OpValidateIRN, http.MethodPost, "/api/v1/invoice/irn/validate", in)
}

// ValidateInvoice calls POST /api/v1/invoice/validate with an invoice
// payload: any JSON-encodable value, or json.RawMessage / []byte sent as is.
func (c *Client) ValidateInvoice(ctx context.Context, invoice any) (Ack, Call, error) {
	return c.ack(ctx, OpValidateInvoice, http.MethodPost, "/api/v1/invoice/validate", invoice)
}

// SignInvoice calls POST /api/v1/invoice/sign with an invoice payload,
// which registers the invoice with NRS.
func (c *Client) SignInvoice(ctx context.Context, invoice any) (Ack, Call, error) {
	return c.ack(ctx, OpSignInvoice, http.MethodPost, "/api/v1/invoice/sign", invoice)
}

// Transmit calls POST /api/v1/invoice/transmit/{irn}: NRS delivers a signed
// B2B or B2G invoice to the buyer. B2C invoices are not transmitted.
func (c *Client) Transmit(ctx context.Context, irn string) (Ack, Call, error) {
	return c.ack(ctx, OpTransmit, http.MethodPost, "/api/v1/invoice/transmit/"+pathSegment(irn), nil)
}

// ConfirmReceipt calls PATCH /api/v1/invoice/transmit/{irn}: the buyer
// acknowledges a transmitted invoice.
func (c *Client) ConfirmReceipt(ctx context.Context, irn string) (Ack, Call, error) {
	return c.ack(ctx, OpConfirmReceipt, http.MethodPatch, "/api/v1/invoice/transmit/"+pathSegment(irn), nil)
}

// LookupTransmission calls GET /api/v1/invoice/transmit/lookup/{irn}.
func (c *Client) LookupTransmission(ctx context.Context, irn string) (Transmission, Call, error) {
	data, call, err := c.enveloped(ctx, request{op: OpLookupTransmission, method: http.MethodGet,
		path: "/api/v1/invoice/transmit/lookup/" + pathSegment(irn)})
	if err != nil {
		return Transmission{}, call, err
	}
	f, _ := fields(data)
	return Transmission{
		IRN: f.str("irn"), BusinessID: f.str("business_id"), Status: f.str("status"),
		InvoiceKind: f.str("invoice_kind"), TransmittedAt: f.str("transmitted_at"),
		AcknowledgedAt: f.str("acknowledged_at"), Data: data,
	}, call, nil
}

// ConfirmInvoice calls GET /api/v1/invoice/confirm/{irn}, which tells where
// the invoice stands at NRS, payment status included.
func (c *Client) ConfirmInvoice(ctx context.Context, irn string) (InvoiceStatus, Call, error) {
	data, call, err := c.enveloped(ctx, request{op: OpConfirmInvoice, method: http.MethodGet,
		path: "/api/v1/invoice/confirm/" + pathSegment(irn)})
	if err != nil {
		return InvoiceStatus{}, call, err
	}
	f, _ := fields(data)
	return InvoiceStatus{
		IRN: f.str("irn"), BusinessID: f.str("business_id"), Status: f.str("status"),
		PaymentStatus: f.str("payment_status"), InvoiceKind: f.str("invoice_kind"),
		InvoiceTypeCode: f.str("invoice_type_code"), SignedAt: f.str("signed_at"),
		TransmittedAt: f.str("transmitted_at"), ConfirmedAt: f.str("confirmed_at"), Data: data,
	}, call, nil
}

// DownloadInvoice calls GET /api/v1/invoice/download/{irn}.
func (c *Client) DownloadInvoice(ctx context.Context, irn string) (Document, Call, error) {
	data, call, err := c.enveloped(ctx, request{op: OpDownloadInvoice, method: http.MethodGet,
		path: "/api/v1/invoice/download/" + pathSegment(irn)})
	if err != nil {
		return Document{}, call, err
	}
	f, _ := fields(data)
	return Document{
		IRN: f.str("irn"), Status: f.str("status"), PaymentStatus: f.str("payment_status"),
		Invoice: f.raw("invoice"), Data: data,
	}, call, nil
}

// UpdatePaymentStatus calls PATCH /api/v1/invoice/update/{irn} with a
// payment status (PaymentPending, PaymentPaid, PaymentPartial,
// PaymentRejected).
func (c *Client) UpdatePaymentStatus(ctx context.Context, irn string, in PaymentUpdate) (Ack, Call, error) {
	return c.ack(ctx, OpUpdatePayment, http.MethodPatch, "/api/v1/invoice/update/"+pathSegment(irn), in)
}

// VerifyQR calls the sandbox stand-in's POST /api/v1/invoice/qr/verify. The
// real NRS has no such endpoint (it answers 404); use it only against the
// stand-in, to prove a QR payload built locally is right.
func (c *Client) VerifyQR(ctx context.Context, in QRVerifyRequest) (QRVerification, Call, error) {
	body, err := encodeBody(in)
	if err != nil {
		return QRVerification{}, Call{Operation: OpVerifyQR}, err
	}
	data, call, err := c.enveloped(ctx, request{op: OpVerifyQR, method: http.MethodPost,
		path: "/api/v1/invoice/qr/verify", body: body})
	if err != nil {
		return QRVerification{}, call, err
	}
	var v QRVerification
	if err := json.Unmarshal(data, &v); err != nil {
		return QRVerification{}, call, c.malformed(request{op: OpVerifyQR, method: http.MethodPost,
			path: "/api/v1/invoice/qr/verify"}, call, "qr verification is not an object")
	}
	v.Data = data
	return v, call, nil
}

// ack makes an action call and reads {"ok":true}. A nil body sends none.
func (c *Client) ack(ctx context.Context, op Operation, method, path string, in any) (Ack, Call, error) {
	r := request{op: op, method: method, path: path}
	if in != nil {
		b, err := encodeBody(in)
		if err != nil {
			return Ack{}, Call{Operation: op, Method: method, Path: path}, err
		}
		r.body = b
	}
	data, call, err := c.enveloped(ctx, r)
	if err != nil {
		return Ack{}, call, err
	}
	f, ok := fields(data)
	a := Ack{Data: data, OK: ok && f.bool("ok")}
	if !ok && len(bytes.TrimSpace(data)) == 0 {
		a.OK = true // an empty 2xx answer is a success too
	}
	return a, call, nil
}

// pathSegment escapes an IRN for a URL path. IRNs are letters, digits and
// hyphens, so this only matters for hostile input.
func pathSegment(s string) string { return url.PathEscape(s) }

// object is a leniently read JSON object: NRS's field types are not
// published, so strings, numbers and booleans are all read as text.
type object map[string]json.RawMessage

func fields(raw json.RawMessage) (object, bool) {
	var o object
	if err := json.Unmarshal(raw, &o); err != nil || o == nil {
		return object{}, false
	}
	return o, true
}

func (o object) str(keys ...string) string {
	for _, k := range keys {
		v, ok := o[k]
		if !ok {
			continue
		}
		v = bytes.TrimSpace(v)
		if len(v) == 0 || bytes.Equal(v, []byte("null")) {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
		if v[0] != '{' && v[0] != '[' {
			return string(v) // a number or a boolean, as written
		}
	}
	return ""
}

func (o object) bool(key string) bool {
	b, err := strconv.ParseBool(strings.TrimSpace(o.str(key)))
	return err == nil && b
}

func (o object) raw(key string) json.RawMessage {
	v := bytes.TrimSpace(o[key])
	if len(v) == 0 || bytes.Equal(v, []byte("null")) {
		return nil
	}
	return json.RawMessage(v)
}
