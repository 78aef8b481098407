package nrs

import (
	"encoding/json"
	"strings"

	"github.com/einvoice-ng/einvoice/model"
)

// Facts reads what submitting an invoice needs of an NRS payload: irn,
// issue_date, issue_time, invoice_type_code,
// accounting_customer_party.tin, payment_status and the billing_reference
// list's irns (with the service id each IRN carries).
func (a *Authority) Facts(payload map[string]any) model.InvoiceFacts {
	c, _ := payload["accounting_customer_party"].(map[string]any)
	f := model.InvoiceFacts{
		IRN: strings.ToUpper(text(payload["irn"])), IssueDate: text(payload["issue_date"]), IssueTime: text(payload["issue_time"]),
		InvoiceTypeCode: text(payload["invoice_type_code"]), CustomerTIN: text(c["tin"]),
		PaymentStatus: strings.ToUpper(text(payload["payment_status"])),
	}
	refs, _ := payload["billing_reference"].([]any)
	for i, r := range refs {
		obj, _ := r.(map[string]any)
		ref := model.BillingReference{IRN: strings.ToUpper(text(obj["irn"])), Loc: []any{"billing_reference", i, "irn"}}
		if p, err := ParseIRN(ref.IRN); err == nil {
			ref.ServiceID = p.ServiceID
		}
		f.BillingReferences = append(f.BillingReferences, ref)
	}
	return f
}

// SetIRN writes irn as the payload's irn.
func (a *Authority) SetIRN(payload map[string]any, irn string) { payload["irn"] = irn }

// text reads a JSON value as trimmed text.
func text(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return x.String()
	}
	return ""
}
