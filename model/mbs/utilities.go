package mbs

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
)

// PaymentReport is the body of POST /v1/vat/postPayment ("Post
// transaction", FIRS-MBS 1.0.0's Report E-Invoice group), with amounts as
// strings as FIRS's example sends them.
type PaymentReport struct {
	AgentTIN            string `json:"agentTin"`
	BaseAmount          string `json:"baseAmount"`
	BeneficiaryTIN      string `json:"beneficiaryTin"`
	Currency            int    `json:"currency"`
	ItemDescription     string `json:"itemDescription"`
	OtherTaxes          string `json:"otherTaxes"`
	TotalAmount         string `json:"totalAmount"`
	TransDate           string `json:"transDate"`
	VATCalculated       string `json:"vatCalculated"`
	VATRate             string `json:"vatRate"`
	VATStatus           int    `json:"vatStatus"`
	VendorTransactionID string `json:"vendorTransactionId"`
}

// PaymentReportAnswer is the documented 200 answer of postPayment, outside
// NRS's envelope: the fields echoed (amounts as numbers) with the record's
// id, userId and createdAt. Data keeps it whole.
type PaymentReportAnswer struct {
	ID                  string
	UserID              string
	CreatedAt           string
	VendorTransactionID string
	Data                json.RawMessage
}

// PostPayment calls POST /v1/vat/postPayment. The FIRS sandbox answered it
// with the 404 "no route found" body (so does the stand-in): whether the
// route exists on MBS is unclear. The error is then a *Error with
// HTTPStatus 404 and that Message.
func (c *Client) PostPayment(ctx context.Context, in PaymentReport) (PaymentReportAnswer, Call, error) {
	r := request{op: OpPostPayment, method: http.MethodPost, path: "/v1/vat/postPayment"}
	b, err := encodeBody(in)
	if err != nil {
		return PaymentReportAnswer{}, Call{Operation: r.op, Method: r.method, Path: r.path}, err
	}
	r.body = b
	body, call, err := c.do(ctx, r)
	if err != nil {
		return PaymentReportAnswer{}, call, err
	}
	f, ok := fields(body)
	if !ok {
		return PaymentReportAnswer{}, call, c.malformed(r, call, "payment report answer is not a JSON object")
	}
	return PaymentReportAnswer{ID: f.str("id"), UserID: f.str("userId"), CreatedAt: f.str("createdAt"),
		VendorTransactionID: f.str("vendorTransactionId"), Data: body}, call, nil
}

// TaxpayerInfo is VerifyTIN's answer, with the fields of FIRS's documented
// sample (all strings).
type TaxpayerInfo struct {
	Address        string `json:"address"`
	Email          string `json:"email"`
	ID             string `json:"id"`
	JTBTIN         string `json:"jtb_tin"`
	Message        string `json:"message"`
	Phone          string `json:"phone"`
	RCNumber       string `json:"rc_number"`
	Status         string `json:"status"`
	TaxOfficerID   string `json:"taxofficer_id"`
	TaxOfficerName string `json:"taxofficer_name"`
	TaxpayerName   string `json:"taxpayer_name"`
	TaxpayerType   string `json:"taxpayer_type"`
	TIN            string `json:"tin"`
	// Data keeps the answer's data as sent.
	Data json.RawMessage `json:"-"`
}

// VerifyTIN calls POST /api/v1/utilities/verify-tin/ (the trailing slash is
// NRS's) with {"tin": tin}.
func (c *Client) VerifyTIN(ctx context.Context, tin string) (TaxpayerInfo, Call, error) {
	r := request{op: OpVerifyTIN, method: http.MethodPost, path: "/api/v1/utilities/verify-tin/"}
	r.body, _ = json.Marshal(map[string]string{"tin": tin})
	data, call, err := c.enveloped(ctx, r)
	if err != nil {
		return TaxpayerInfo{}, call, err
	}
	f, _ := fields(data)
	return TaxpayerInfo{Address: f.str("address"), Email: f.str("email"), ID: f.str("id"), JTBTIN: f.str("jtb_tin"),
		Message: f.str("message"), Phone: f.str("phone"), RCNumber: f.str("rc_number"), Status: f.str("status"),
		TaxOfficerID: f.str("taxofficer_id"), TaxOfficerName: f.str("taxofficer_name"), TaxpayerName: f.str("taxpayer_name"),
		TaxpayerType: f.str("taxpayer_type"), TIN: f.str("tin"), Data: data}, call, nil
}

// TaxpayerLogin is AuthenticateTaxpayer's answer, with the fields of FIRS's
// documented sample.
type TaxpayerLogin struct {
	EntityID   string
	ID         string
	Message    string
	ReceivedAt string
	Status     string
	Data       json.RawMessage
}

// AuthenticateTaxpayer calls POST /api/v1/utilities/authenticate with a
// taxpayer's login, which gives the taxpayer's entity id. The password
// never appears in errors or Calls.
func (c *Client) AuthenticateTaxpayer(ctx context.Context, email, password string) (TaxpayerLogin, Call, error) {
	r := request{op: OpAuthenticate, method: http.MethodPost, path: "/api/v1/utilities/authenticate"}
	r.body, _ = json.Marshal(map[string]string{"email": email, "password": password})
	data, call, err := c.enveloped(ctx, r)
	if err != nil {
		return TaxpayerLogin{}, call, err
	}
	f, _ := fields(data)
	return TaxpayerLogin{EntityID: f.str("entity_id"), ID: f.str("id"), Message: f.str("message"),
		ReceivedAt: f.str("received_at"), Status: f.str("status"), Data: data}, call, nil
}

// OpReport is the report as live integrations send it
// (/api/v1/vat/postpayment).
const OpReport Operation = "vat_report"

// Report is a transaction report (a B2C invoice's, within 24 hours, in
// NRS's knowledge base) as four independent integrations send it to POST
// /api/v1/vat/postpayment (integrator-evidence.md E2): snake_case fields,
// all strings, amounts with two decimals, TransactionDate YYYY-MM-DD,
// VATRate such as "7.5", VATStatus STANDARD_VAT, ZERO_VAT or REDUCED_VAT.
type Report struct {
	AgentTIN            string `json:"agent_tin"`
	BaseAmount          string `json:"base_amount"`
	BeneficiaryTIN      string `json:"beneficiary_tin"`
	Currency            string `json:"currency"`
	ItemDescription     string `json:"item_description"`
	IRN                 string `json:"irn"`
	OtherTaxes          string `json:"other_taxes"`
	TotalAmount         string `json:"total_amount"`
	TransactionDate     string `json:"transaction_date"`
	IntegratorServiceID string `json:"integrator_service_id"`
	VATCalculated       string `json:"vat_calculated"`
	VATRate             string `json:"vat_rate"`
	VATStatus           string `json:"vat_status"`
}

// VAT statuses of Report.
const (
	VATStandard = "STANDARD_VAT"
	VATZero     = "ZERO_VAT"
	VATReduced  = "REDUCED_VAT"
)

// legacy is the report in FIRS-MBS 1.0.0's camelCase form. Its currency
// and vatStatus are numbers FIRS's example leaves unexplained (1 and 0);
// they are sent as in the example.
func (r Report) legacy() PaymentReport {
	return PaymentReport{AgentTIN: r.AgentTIN, BaseAmount: r.BaseAmount, BeneficiaryTIN: r.BeneficiaryTIN, Currency: 1,
		ItemDescription: r.ItemDescription, OtherTaxes: r.OtherTaxes, TotalAmount: r.TotalAmount, TransDate: r.TransactionDate,
		VATCalculated: r.VATCalculated, VATRate: r.VATRate, VATStatus: 0, VendorTransactionID: r.IRN}
}

// SendReport reports a transaction through c (a function rather than a
// method, so that Client stays within its size): by default the snake_case body to POST
// /api/v1/vat/postpayment on the report host (Config.ReportBaseURL, else
// BaseURL), enveloped or not; with Config.LegacyReportRoute, the camelCase
// body to /v1/vat/postPayment (PostPayment), which is also the fallback when
// the report host answers MBS's no-route 404. Data keeps the answer's data.
func SendReport(ctx context.Context, c *Client, in Report) (PaymentReportAnswer, Call, error) {
	if c.legacyReport {
		return c.PostPayment(ctx, in.legacy())
	}
	r := request{op: OpReport, method: http.MethodPost, path: "/api/v1/vat/postpayment", base: c.reportBase}
	b, err := encodeBody(in)
	if err != nil {
		return PaymentReportAnswer{}, Call{Operation: r.op, Method: r.method, Path: r.path}, err
	}
	r.body = b
	body, call, err := c.do(ctx, r)
	var e *Error
	if errors.As(err, &e) && e.HTTPStatus == http.StatusNotFound && e.ID == "" && strings.HasPrefix(e.Message, "no route found") {
		// A deployment without the route answers MBS's no-route 404:
		// the older route is the fallback.
		return c.PostPayment(ctx, in.legacy())
	}
	if err != nil {
		return PaymentReportAnswer{}, call, err
	}
	data := json.RawMessage(body)
	if f, ok := fields(body); ok {
		if d := f.raw("data"); d != nil {
			data = d
		}
	}
	f, _ := fields(data)
	return PaymentReportAnswer{ID: f.str("id"), UserID: f.str("userId", "user_id"), CreatedAt: f.str("createdAt", "created_at"),
		VendorTransactionID: f.str("vendorTransactionId", "irn"), Data: data}, call, nil
}
