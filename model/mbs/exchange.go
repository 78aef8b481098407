package mbs

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
)

// Transmission is an invoice sent from supplier to buyer, as the lookups
// and Pull answer it. NRS does not publish these answers: the fields are
// what the stand-in answers (Invoice only from Pull); Data keeps the entry
// whole.
type Transmission struct {
	IRN             string
	BusinessID      string
	InvoiceTypeCode string
	IssueDate       string
	PaymentStatus   string
	CustomerTIN     string
	CustomerPartyID string
	Transmitted     bool
	TransmittedAt   string
	Delivered       bool
	DeliveredAt     string
	Invoice         json.RawMessage
	Data            json.RawMessage
}

func readTransmission(raw json.RawMessage) Transmission {
	f, _ := fields(raw)
	return Transmission{IRN: f.str("irn"), BusinessID: f.str("business_id"), InvoiceTypeCode: f.str("invoice_type_code"),
		IssueDate: f.str("issue_date"), PaymentStatus: f.str("payment_status"), CustomerTIN: f.str("customer_tin"),
		CustomerPartyID: f.str("customer_party_id"), Transmitted: f.bool("transmitted"), TransmittedAt: f.str("transmitted_at"),
		Delivered: f.bool("delivered"), DeliveredAt: f.str("delivered_at"), Invoice: f.raw("invoice"), Data: raw}
}

// PullQuery is Pull's query: only confirmed (or only unconfirmed) invoices
// when Confirmed is set; From and To are dates (YYYY-MM-DD).
type PullQuery struct {
	Confirmed *bool
	From      string
	To        string
}

// Transmit calls POST /api/v1/invoice/transmit/{IRN}: NRS sends a signed
// B2B or B2G invoice to the buyer's side.
func (c *Client) Transmit(ctx context.Context, irn string) (Ack, Call, error) {
	return c.ack(ctx, OpTransmit, http.MethodPost, "/api/v1/invoice/transmit/"+pathSegment(irn), nil)
}

// acknowledged is ConfirmReceipt's body as live integrations send it.
var acknowledged = []byte(`{"message":"ACKNOWLEDGED"}`)

// ConfirmReceipt calls PATCH /api/v1/invoice/transmit/{IRN}: the buyer
// acknowledges a transmitted invoice. The body is {"message":"ACKNOWLEDGED"}
// (integrator-evidence.md E3), or none with Config.ConfirmReceiptEmptyBody
// (NRS's collection).
func (c *Client) ConfirmReceipt(ctx context.Context, irn string) (Ack, Call, error) {
	var body any
	if !c.confirmEmpty {
		body = json.RawMessage(acknowledged)
	}
	return c.ack(ctx, OpConfirmReceipt, http.MethodPatch, "/api/v1/invoice/transmit/"+pathSegment(irn), body)
}

// LookupTransmission calls GET /api/v1/invoice/transmit/lookup/{IRN}
// (LookupWithIRN).
func (c *Client) LookupTransmission(ctx context.Context, irn string) (Transmission, Call, error) {
	data, call, err := c.enveloped(ctx, request{op: OpLookupTransmission, method: http.MethodGet,
		path: "/api/v1/invoice/transmit/lookup/" + pathSegment(irn)})
	if err != nil {
		return Transmission{}, call, err
	}
	return readTransmission(data), call, nil
}

// LookupTransmissionsByTIN calls GET /api/v1/invoice/transmit/lookup/tin/{TIN}
// (LookupWithTIN; MBS names the parameter PARTY_ID, its example is a TIN).
func (c *Client) LookupTransmissionsByTIN(ctx context.Context, tin string) ([]Transmission, Call, error) {
	return items(ctx, c, request{op: OpLookupByTIN, method: http.MethodGet,
		path: "/api/v1/invoice/transmit/lookup/tin/" + pathSegment(tin)}, readTransmission)
}

// LookupTransmissionsByParty calls GET
// /api/v1/invoice/transmit/lookup/party/{PARTY_ID} (LookupWithPartyID).
func (c *Client) LookupTransmissionsByParty(ctx context.Context, partyID string) ([]Transmission, Call, error) {
	return items(ctx, c, request{op: OpLookupByParty, method: http.MethodGet,
		path: "/api/v1/invoice/transmit/lookup/party/" + pathSegment(partyID)}, readTransmission)
}

// SelfHealthCheck calls GET /api/v1/invoice/transmit/self-health-check
// (SelfCheck-Debug-Setup), which checks the caller's exchange set-up.
func (c *Client) SelfHealthCheck(ctx context.Context) (Ack, Call, error) {
	return c.ack(ctx, OpSelfHealthCheck, http.MethodGet, "/api/v1/invoice/transmit/self-health-check", nil)
}

// Pull calls GET /api/v1/invoice/transmit/pull: the invoices transmitted to
// the caller.
func (c *Client) Pull(ctx context.Context, in PullQuery) ([]Transmission, Call, error) {
	q := url.Values{}
	if in.Confirmed != nil {
		q.Set("confirmed", strconv.FormatBool(*in.Confirmed))
	}
	if in.From != "" {
		q.Set("from", in.From)
	}
	if in.To != "" {
		q.Set("to", in.To)
	}
	return items(ctx, c, request{op: OpPull, method: http.MethodGet, path: "/api/v1/invoice/transmit/pull", query: q.Encode()}, readTransmission)
}
