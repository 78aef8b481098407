package mbs

import (
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
)

// TestPaymentReportBody: VAT apart from other taxes, a tax_total given as
// an array, exact amounts with two decimals, the day in Lagos, and
// ZERO_VAT when no VAT subtotal exists.
func TestPaymentReportBody(t *testing.T) {
	inv := &model.SubmittedInvoice{IRN: "INV1-ABCD1234-20260315", Payload: `{
		"document_currency_code": "NGN",
		"accounting_supplier_party": {"tin": "01060087-0001"},
		"accounting_customer_party": {"tin": "20198222-0002"},
		"tax_total": [{"tax_amount": 12500.005, "tax_subtotal": [
			{"tax_amount": 7500, "tax_category": {"id": "STANDARD_VAT", "percent": 7.5}},
			{"tax_amount": 5000.005, "tax_category": {"id": "LOCAL_SALES_TAX", "percent": 5}}]}],
		"legal_monetary_total": {"line_extension_amount": 100000, "payable_amount": 112500.1},
		"invoice_line": [{"item": {"name": "Cement"}}, {"item": {"description": "Transport"}}]}`}
	// 23:30 UTC is the next day in Lagos.
	rep, err := paymentReport(inv, "772392AB", time.Date(2026, 3, 17, 23, 30, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"agent": "01060087-0001", "beneficiary": "20198222-0002", "base": "100000.00", "vat": "7500.00",
		"other": "5000.01", "total": "112500.10", "rate": "7.5", "status": "STANDARD_VAT", "date": "2026-03-18",
		"items": "Cement; Transport", "service": "772392AB", "currency": "NGN", "irn": inv.IRN}
	got := map[string]string{"agent": rep.AgentTIN, "beneficiary": rep.BeneficiaryTIN, "base": rep.BaseAmount, "vat": rep.VATCalculated,
		"other": rep.OtherTaxes, "total": rep.TotalAmount, "rate": rep.VATRate, "status": rep.VATStatus, "date": rep.TransactionDate,
		"items": rep.ItemDescription, "service": rep.IntegratorServiceID, "currency": rep.Currency, "irn": rep.IRN}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	inv.Payload = `{"tax_total": {"tax_amount": 0, "tax_subtotal": [{"tax_amount": 0, "tax_category": {"id": "VAT_EXEMPT", "percent": 0}}]},
		"legal_monetary_total": {"line_extension_amount": 10, "payable_amount": 10}}`
	if rep, err = paymentReport(inv, "772392AB", time.Now()); err != nil || rep.VATStatus != "ZERO_VAT" || rep.VATRate != "0" || rep.VATCalculated != "0.00" {
		t.Fatalf("no VAT: %+v %v", rep, err)
	}
	inv.Payload = `not json`
	if _, err := paymentReport(inv, "772392AB", time.Now()); err == nil {
		t.Fatal("a payload that is not JSON built a report")
	}
}
