package rest_test

import (
	"slices"
	"testing"
	"time"
)

// The sample invoice is made out by the key's project, validates with no
// error and no warning under both profiles once given its IRN, and is
// refused for an unknown kind, a bad date, another scope or no key.
func TestInvoiceSample(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	business := s.projectBusinessID(tn)
	for _, kind := range []string{"B2B", "b2c", "B2G"} {
		p := s.must(200, req{method: "GET", path: "/api/v2/invoices/samples/" + kind + "?issue_date=2026-03-15", clientID: tn.ClientID, secret: tn.Secret})
		if p["business_id"] != business || p["issue_date"] != "2026-03-15" || p["payment_status"] != "PENDING" || p["irn"] != nil || p["due_date"] != nil && p["due_date"] != "2026-04-14" {
			t.Fatalf("%s sample: business %v date %v payment %v irn %v due %v", kind, p["business_id"], p["issue_date"], p["payment_status"], p["irn"], p["due_date"])
		}
		irn := s.must(200, irnReq(tn, map[string]any{"invoice_reference": "SAMPLE" + kind, "invoice_type_code": kind, "tax_authority_code": "NRS", "issue_date": p["issue_date"]}))
		p["irn"] = irn["irn"]
		for _, profile := range []string{"nrs", "strict"} {
			got := s.must(200, validateReq(tn, map[string]any{"invoice_type_code": kind, "tax_authority_code": "NRS", "profile": profile, "payload": p}))
			if got["valid"] != true || len(got["errors"].([]any)) != 0 || len(got["warnings"].([]any)) != 0 {
				t.Fatalf("%s sample under %s: %v", kind, profile, got)
			}
		}
	}
	today := s.must(200, req{method: "GET", path: "/api/v2/invoices/samples/B2B", clientID: tn.ClientID, secret: tn.Secret})
	if d, err := time.Parse(time.DateOnly, today["issue_date"].(string)); err != nil || time.Since(d) > 49*time.Hour || time.Until(d) > 25*time.Hour {
		t.Fatalf("default issue date %v", today["issue_date"])
	}
	if got := locs(detail(t, s.do(req{method: "GET", path: "/api/v2/invoices/samples/B2X?issue_date=15/03/2026", clientID: tn.ClientID, secret: tn.Secret}))); !slices.Equal(got, []string{"enum@path/invoice_type", "date_from_datetime_parsing@query/issue_date"}) {
		t.Fatalf("bad kind and date: %v", got)
	}
	if r := s.do(req{method: "GET", path: "/api/v2/invoices/samples/B2B"}); r.Status != 401 {
		t.Fatalf("without a key: %d %s", r.Status, r.Body)
	}
	k := s.must(200, req{method: "POST", path: "/api/v2/projects/" + tn.ProjectID + "/keys", token: tn.Token,
		body: map[string]any{"key_name": "irn only", "scopes": []string{"irn:generate"}}})
	if r := s.do(req{method: "GET", path: "/api/v2/invoices/samples/B2B", clientID: k["client_id"].(string), secret: k["client_secret"].(string)}); r.Status != 403 {
		t.Fatalf("without invoices:validate: %d %s", r.Status, r.Body)
	}
}
