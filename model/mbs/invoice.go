package mbs

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/einvoice-ng/einvoice/model/nrs"
)

// Payment statuses of UpdatePaymentStatus: FIRS's list (PENDING, PAID,
// CANCELED), PARTIAL (NRS changelog, April 2026) and REJECTED (providers'
// docs only).
const (
	PaymentPending  = "PENDING"
	PaymentPaid     = "PAID"
	PaymentCanceled = "CANCELED"
	PaymentPartial  = "PARTIAL"
	PaymentRejected = "REJECTED"
)

// Health is the answer of GET /api: {"healthy": true}, outside NRS's
// envelope.
type Health struct {
	Healthy bool `json:"healthy"`
}

// Ack is the answer of an action endpoint: NRS answers {"ok":true} to
// ValidateIRN and ValidateInvoice; the other actions' answers are not
// published. OK is also true for an empty 2xx answer. Data keeps the whole
// data as sent, for evidence.
type Ack struct {
	OK   bool            `json:"ok"`
	Data json.RawMessage `json:"data,omitempty"`
}

// ValidateIRNRequest is the body of POST /api/v1/invoice/irn/validate.
type ValidateIRNRequest struct {
	BusinessID       string `json:"business_id"`
	InvoiceReference string `json:"invoice_reference"`
	IRN              string `json:"irn"`
}

// PaymentUpdate is the body of PATCH /api/v1/invoice/update/{IRN}.
type PaymentUpdate struct {
	PaymentStatus string `json:"payment_status"`
	// Reference is the payment reference or a note; optional.
	Reference string `json:"reference,omitempty"`
}

// InvoiceStatus is the answer of GET /api/v1/invoice/confirm/{IRN}: the
// fields integrators read (issue_date, due_date, sync_date, payment_status,
// transmitted, delivered, and irn, qr_code_data). NRS does not publish the
// answer; Data keeps it whole.
type InvoiceStatus struct {
	IRN             string
	BusinessID      string
	InvoiceTypeCode string
	IssueDate       string
	DueDate         string
	SyncDate        string
	PaymentStatus   string
	Transmitted     bool
	Delivered       bool
	QRCodeData      string
	Data            json.RawMessage
}

// Document is the answer of GET /api/v1/invoice/download/{IRN}: the invoice
// as NRS holds it. NRS does not publish the answer: Invoice is the data
// itself, or the object under "invoice" when the data wraps it; IRN and
// BusinessID are read from it.
type Document struct {
	IRN        string
	BusinessID string
	Invoice    json.RawMessage
	// Sealed says the answer was an envelope ({"iv_hex","pub","data"}),
	// opened with the client's API key into Invoice.
	Sealed bool
	Data   json.RawMessage
}

// InvoiceSummary is one invoice of SearchInvoices' page (NRS does not
// publish it; the fields are the search's filters and what the stand-in
// answers). Data keeps the entry as sent.
type InvoiceSummary struct {
	IRN                  string
	BusinessID           string
	InvoiceTypeCode      string
	IssueDate            string
	DueDate              string
	DocumentCurrencyCode string
	TaxCurrencyCode      string
	PaymentStatus        string
	EntryStatus          string
	Transmitted          bool
	Delivered            bool
	Data                 json.RawMessage
}

// InvoiceQuery is SearchInvoices' query: paging and MBS's filters; empty
// filters are left out.
type InvoiceQuery struct {
	Paging
	IRN                  string
	PaymentStatus        string
	EntryStatus          string
	InvoiceTypeCode      string
	IssueDate            string
	DueDate              string
	TaxCurrencyCode      string
	DocumentCurrencyCode string
}

// Health calls GET /api (no credentials), which answers {"healthy":true}
// outside NRS's envelope.
func (c *Client) Health(ctx context.Context) (Health, Call, error) {
	r := request{op: OpHealth, method: http.MethodGet, path: "/api", anonymous: true}
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
// that does not follow the business's template with HTTP 400, handler
// invoice_actions, public message "irn validation failed".
func (c *Client) ValidateIRN(ctx context.Context, in ValidateIRNRequest) (Ack, Call, error) {
	return c.ack(ctx, OpValidateIRN, http.MethodPost, "/api/v1/invoice/irn/validate", in)
}

// ValidateInvoice calls POST /api/v1/invoice/validate with an invoice
// payload: any JSON-encodable value, or json.RawMessage / []byte sent as is.
// NRS answers {"code":201,"data":{"ok":true}}.
func (c *Client) ValidateInvoice(ctx context.Context, invoice any) (Ack, Call, error) {
	return c.ack(ctx, OpValidateInvoice, http.MethodPost, "/api/v1/invoice/validate", invoice)
}

// SignInvoice calls POST /api/v1/invoice/sign with an invoice payload: the
// taxpayer's official submission.
func (c *Client) SignInvoice(ctx context.Context, invoice any) (Ack, Call, error) {
	return c.ack(ctx, OpSignInvoice, http.MethodPost, "/api/v1/invoice/sign", invoice)
}

// ConfirmInvoice calls GET /api/v1/invoice/confirm/{IRN}: where the invoice
// stands at NRS, payment status included.
func (c *Client) ConfirmInvoice(ctx context.Context, irn string) (InvoiceStatus, Call, error) {
	data, call, err := c.enveloped(ctx, request{op: OpConfirmInvoice, method: http.MethodGet,
		path: "/api/v1/invoice/confirm/" + pathSegment(irn)})
	if err != nil {
		return InvoiceStatus{}, call, err
	}
	f, _ := fields(data)
	return InvoiceStatus{
		IRN: f.str("irn"), BusinessID: f.str("business_id"), InvoiceTypeCode: f.str("invoice_type_code"),
		IssueDate: f.str("issue_date"), DueDate: f.str("due_date"), SyncDate: f.str("sync_date"),
		PaymentStatus: f.str("payment_status"), Transmitted: f.bool("transmitted"), Delivered: f.bool("delivered"),
		QRCodeData: f.str("qr_code_data"), Data: data,
	}, call, nil
}

// DownloadInvoice calls GET /api/v1/invoice/download/{IRN}. Live
// integrations receive the invoice sealed ({"iv_hex" or "iv_Hex","pub",
// "data"}, integrator-evidence.md E1), which is opened with the client's
// API key (model/nrs.OpenDownload); an invoice in clear, as data or under
// data.invoice, is taken as it is. An envelope that does not open is a
// malformed answer.
func (c *Client) DownloadInvoice(ctx context.Context, irn string) (Document, Call, error) {
	r := request{op: OpDownloadInvoice, method: http.MethodGet, path: "/api/v1/invoice/download/" + pathSegment(irn)}
	data, call, err := c.enveloped(ctx, r)
	if err != nil {
		return Document{}, call, err
	}
	doc := Document{Invoice: data, Data: data}
	if env, sealed := nrs.ReadDownloadEnvelope(data); sealed {
		plain, err := nrs.OpenDownload(env, c.key)
		if err != nil {
			return Document{}, call, c.malformed(r, call, "the downloaded invoice's envelope does not open with this api key")
		}
		if !json.Valid(plain) {
			return Document{}, call, c.malformed(r, call, "the downloaded invoice's envelope does not hold JSON")
		}
		doc.Invoice, doc.Sealed = plain, true
	}
	f, _ := fields(doc.Invoice)
	if inner := f.raw("invoice"); len(inner) > 0 && inner[0] == '{' {
		doc.Invoice = inner
	}
	inv, _ := fields(doc.Invoice)
	doc.IRN, doc.BusinessID = inv.str("irn"), inv.str("business_id")
	return doc, call, nil
}

// SearchInvoices calls GET /api/v1/invoice/{BUSINESS_ID} with MBS's filters.
func (c *Client) SearchInvoices(ctx context.Context, businessID string, in InvoiceQuery) (Page[InvoiceSummary], Call, error) {
	q := url.Values{}
	in.set(q)
	for _, kv := range []struct{ k, v string }{
		{"irn", in.IRN}, {"payment_status", in.PaymentStatus}, {"entry_status", in.EntryStatus},
		{"invoice_type_code", in.InvoiceTypeCode}, {"issue_date", in.IssueDate}, {"due_date", in.DueDate},
		{"tax_currency_code", in.TaxCurrencyCode}, {"document_currency_code", in.DocumentCurrencyCode},
	} {
		if kv.v != "" {
			q.Set(kv.k, kv.v)
		}
	}
	r := request{op: OpSearchInvoice, method: http.MethodGet, path: "/api/v1/invoice/" + pathSegment(businessID), query: q.Encode()}
	return page(ctx, c, r, func(raw json.RawMessage) InvoiceSummary {
		f, _ := fields(raw)
		return InvoiceSummary{IRN: f.str("irn"), BusinessID: f.str("business_id"), InvoiceTypeCode: f.str("invoice_type_code"),
			IssueDate: f.str("issue_date"), DueDate: f.str("due_date"), DocumentCurrencyCode: f.str("document_currency_code"),
			TaxCurrencyCode: f.str("tax_currency_code"), PaymentStatus: f.str("payment_status"),
			EntryStatus: f.str("entry_status"), Transmitted: f.bool("transmitted"), Delivered: f.bool("delivered"), Data: raw}
	})
}

// UpdatePaymentStatus calls PATCH /api/v1/invoice/update/{IRN} with a payment
// status (PaymentPending, PaymentPaid, PaymentCanceled, PaymentPartial,
// PaymentRejected).
func (c *Client) UpdatePaymentStatus(ctx context.Context, irn string, in PaymentUpdate) (Ack, Call, error) {
	return c.ack(ctx, OpUpdatePayment, http.MethodPatch, "/api/v1/invoice/update/"+pathSegment(irn), in)
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

// page makes a search call and reads its page.
func page[T any](ctx context.Context, c *Client, r request, item func(json.RawMessage) T) (Page[T], Call, error) {
	data, call, err := c.enveloped(ctx, r)
	if err != nil {
		return Page[T]{}, call, err
	}
	p, ok := readPage(data, item)
	if !ok {
		return Page[T]{}, call, c.malformed(r, call, "search answer holds no list")
	}
	return p, call, nil
}

// items makes a call whose data is a list and reads its entries.
func items[T any](ctx context.Context, c *Client, r request, item func(json.RawMessage) T) ([]T, Call, error) {
	data, call, err := c.enveloped(ctx, r)
	if err != nil {
		return nil, call, err
	}
	raw, ok := list(data, pageItemKeys...)
	if !ok {
		return nil, call, c.malformed(r, call, "answer holds no list")
	}
	out := make([]T, 0, len(raw))
	for _, it := range raw {
		out = append(out, item(it))
	}
	return out, call, nil
}
