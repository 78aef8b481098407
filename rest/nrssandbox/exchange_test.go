package nrssandbox_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
)

// transmitted signs a B2B invoice of e.biz for buyer with reference ref and
// transmits it; it returns the IRN.
func (e *env) transmitted(t *testing.T, buyer nrssandbox.Business, ref string) string {
	t.Helper()
	inv, irn := fixture(t, "b2b", e.biz, ref)
	inv["accounting_customer_party"].(map[string]any)["tin"] = e.info(buyer).TIN
	e.must(&e.biz, 201, "POST", "/api/v1/invoice/sign", inv)
	e.must(&e.biz, 200, "POST", "/api/v1/invoice/transmit/"+irn, nil)
	return irn
}

func (e *env) counts(t *testing.T, irn string) nrssandbox.CallCounts {
	t.Helper()
	c, err := e.h.Counts(context.Background(), e.biz.BusinessID, irn)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The buyer's side as integrations speak it: confirmations are counted with
// or without a body, a lost confirm answer is committed all the same, a
// download can fail once, and api-key/api-secret work like the x- names.
func TestExchangeAsIntegratorsSpeakIt(t *testing.T) {
	forDialects(t, nrssandbox.Options{}, func(t *testing.T, e *env) {
		buyer := e.register("BUY3R002")

		irn := e.transmitted(t, buyer, "INV81")
		e.must(&buyer, 200, "PATCH", "/api/v1/invoice/transmit/"+irn, map[string]string{"message": "ACKNOWLEDGED"})
		e.must(&buyer, 200, "PATCH", "/api/v1/invoice/transmit/"+irn, nil)
		if c := e.counts(t, irn); c.Confirmations != 1 || c.ConfirmRepeats != 1 || c.Transmits != 1 {
			t.Fatalf("counts after two confirmations: %+v", c)
		}

		// SBXLOSTACK: the first confirmation is committed, then answered 500.
		lost := e.transmitted(t, buyer, "SBXLOSTACK1")
		if a := e.call(&buyer, "PATCH", "/api/v1/invoice/transmit/"+lost, map[string]string{"message": "ACKNOWLEDGED"}); a.Status != 500 {
			t.Fatalf("lost confirm answer: %d %s", a.Status, a.Raw)
		}
		if got := e.must(&buyer, 200, "GET", "/api/v1/invoice/transmit/lookup/"+lost, nil).data(t); got["delivered"] != true {
			t.Fatalf("the lost confirmation was not committed: %v", got)
		}
		e.must(&buyer, 200, "PATCH", "/api/v1/invoice/transmit/"+lost, nil)
		if c := e.counts(t, lost); c.Confirmations != 1 || c.ConfirmRepeats != 1 {
			t.Fatalf("lost confirm counts: %+v", c)
		}

		// SBXDLFAIL: the first download fails, the second opens.
		flaky := e.transmitted(t, buyer, "SBXDLFAIL1")
		if a := e.call(&buyer, "GET", "/api/v1/invoice/download/"+flaky, nil); a.Status != 500 {
			t.Fatalf("first download: %d %s", a.Status, a.Raw)
		}
		var doc map[string]any
		if err := json.Unmarshal(opened(t, buyer, e.must(&buyer, 200, "GET", "/api/v1/invoice/download/"+flaky, nil)), &doc); err != nil || doc["irn"] != flaky {
			t.Fatalf("second download: %v %v", doc, err)
		}
		if c := e.counts(t, flaky); c.Downloads != 2 {
			t.Fatalf("downloads: %+v", c)
		}

		// An envelope sealed for the buyer does not open with the supplier's key.
		a := e.must(&buyer, 200, "GET", "/api/v1/invoice/download/"+irn, nil)
		var body struct {
			Data map[string]any `json:"data"`
		}
		_ = json.Unmarshal([]byte(a.Raw), &body)
		if body.Data["iv_hex"] == nil || body.Data["pub"] == nil || body.Data["irn"] != nil {
			t.Fatalf("not an envelope: %s", a.Raw)
		}

		// Header spellings: api-key/api-secret as one integration sends them.
		h := http.Header{"Api-Key": {buyer.APIKey}, "Api-Secret": {buyer.APISecret}}
		if a := e.send(context.Background(), nil, "GET", "/api/v1/invoice/transmit/lookup/"+irn, nil, h); a.Status != 200 {
			t.Fatalf("api-key headers: %d %s", a.Status, a.Raw)
		}
		bad := http.Header{"Api-Key": {buyer.APIKey}, "Api-Secret": {"wrong"}}
		refusedWith(t, e.send(context.Background(), nil, "GET", "/api/v1/invoice/transmit/lookup/"+irn, nil, bad), 400, "handler", "unable to validate api key", "")
	})
}

// PlainDownloads answers the invoice in clear.
func TestPlainDownloads(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{PlainDownloads: true})
	inv, irn := fixture(t, "b2c", e.biz, "INV82")
	e.must(&e.biz, 201, "POST", "/api/v1/invoice/sign", inv)
	if d := e.must(&e.biz, 200, "GET", "/api/v1/invoice/download/"+irn, nil).data(t); d["irn"] != irn {
		t.Fatalf("plain download: %v", d)
	}
}

// The report at /api/v1/vat/postpayment with the snake_case body; the
// older route stays the no-route 404.
func TestReportRoute(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	report := map[string]any{"agent_tin": "01060087-0001", "base_amount": "100000.00", "beneficiary_tin": "20983315-0001",
		"currency": "NGN", "item_description": "Cement", "irn": "INV1-94ND90NR-20260315", "other_taxes": "5000.00",
		"total_amount": "112500.00", "transaction_date": "2024-11-18", "integrator_service_id": "772392",
		"vat_calculated": "7500.00", "vat_rate": "7.5", "vat_status": "STANDARD_VAT"}
	e.must(&e.biz, 200, "POST", "/api/v1/vat/postpayment", report)
	if c := e.counts(t, "INV1-94ND90NR-20260315"); c.Reports != 1 {
		t.Fatalf("reports: %+v", c)
	}
	delete(report, "agent_tin")
	report["agent_id"] = "01060087-0001"
	e.must(&e.biz, 200, "POST", "/api/v1/vat/postpayment", report)
	report["transaction_date"], report["vat_status"], report["base_amount"] = "18/11/2024", "HIGH_VAT", "100,000.00"
	refusedWith(t, e.call(&e.biz, "POST", "/api/v1/vat/postpayment", report), 400, "invoice_actions", "validation failed",
		`base_amount must be a decimal amount such as "7500.00"; transaction_date must be a date (YYYY-MM-DD); vat_status must be one of STANDARD_VAT, ZERO_VAT, REDUCED_VAT`)
	if a := e.call(&e.biz, "POST", "/v1/vat/postPayment", map[string]any{"agentTin": "1"}); a.Status != 404 {
		t.Fatalf("older route: %d %s", a.Status, a.Raw)
	}
}

// The entity in the shape integrators read: reference names the business.
func TestEntityShape(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	ent := e.must(&e.biz, 200, "GET", "/api/v1/entity/"+e.info(e.biz).EntityID, nil).data(t)
	bs, _ := ent["businesses"].([]any)
	if len(bs) != 1 || ent["reference"] != e.biz.BusinessID || ent["app_reference"] == "" || ent["is_active"] != true {
		t.Fatalf("entity: %v", ent)
	}
	b := bs[0].(map[string]any)
	for _, k := range []string{"id", "reference", "name", "tin", "sector", "annual_turnover", "support_peppol", "is_realtime_reporting",
		"notification_channels", "erp_system", "irn_template", "is_active", "custom_settings", "created_at", "updated_at"} {
		if _, ok := b[k]; !ok {
			t.Errorf("business lacks %s: %v", k, b)
		}
	}
	if b["id"] != e.biz.BusinessID {
		t.Fatalf("business id: %v", b)
	}
}
