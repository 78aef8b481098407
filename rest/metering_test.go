package rest_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

// TestOnlySuccessfulCallsAreMetered: a call refused as invalid (422) or
// over the key's rate limit (429) is not counted in usage; successful
// ones are, each once.
func TestOnlySuccessfulCallsAreMetered(t *testing.T) {
	s := newServerWith(t, storetest.SQLite(t), func(o *rest.Options) {
		o.RateLimits = rest.RateLimits{Sandbox: rest.Limit{Count: 4, Period: time.Hour}, Production: rest.Limit{Count: 4, Period: time.Hour}}
	})
	tn := s.tenant("meter")
	irn := func(ref string) req {
		return req{method: "POST", path: "/api/v2/invoices/irn/generate", clientID: tn.ClientID, secret: tn.Secret,
			body: map[string]any{"invoice_reference": ref, "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}}
	}
	s.must(200, irn("INV001"))
	s.must(200, irn("INV002"))
	s.must(422, irn("")) // invalid: not metered
	s.must(200, req{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret})
	if r := s.do(irn("INV003")); r.Status != 429 { // over the key's 4 an hour: not metered
		t.Fatalf("fifth call: %d %s", r.Status, r.Body)
	}
	if err := s.svc.Usage.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	rows, err := s.st.Usage().List(t.Context(), uuid.MustParse(tn.ProjectID), uuid.Nil, "2000-01-01", "2999-12-31")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, r := range rows {
		got[r.Operation] += r.Count
	}
	if len(got) != 2 || got["irn.generate"] != 2 || got["usage.read"] != 1 {
		t.Fatalf("metered: %v, want irn.generate 2 and usage.read 1", got)
	}
}
