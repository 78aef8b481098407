package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/rest"
)

// TestAttackAuditFlood replays the review's flood of a tenant's audit chain
// with failed logins: an unknown actor guessing a member's password writes
// to the system chain, not the organization's (the per-e-mail attempt
// limit refuses the guesses past its budget before they are audited). The organization's chain
// then verifies through REST and GraphQL, and stops verifying once an
// entry is edited in the database; another tenant's chain is not found.
func TestAttackAuditFlood(t *testing.T) {
	clock := &fakeClock{}
	s := withGraphQL(newServerOn(t, sqlite().Open(t), clock.Now), rest.Options{})
	tn := s.tenant("acme")
	other := s.tenant("other")
	chainReq := func(token, org string) req {
		return req{method: "GET", path: "/api/v2/organizations/" + org + "/audit-chain", token: token}
	}
	chain := func(token, org string) response { return s.do(chainReq(token, org)) }
	before := s.must(200, chainReq(tn.Token, tn.OrgID))
	if before["valid"] != true || before["entries"].(float64) < 3 || before["head_seq"] != before["entries"] {
		t.Fatalf("chain: %v", before)
	}
	failed := int64(0)
	for i := range 30 {
		r := s.do(req{method: "POST", path: "/api/v2/auth/login", body: map[string]any{"email": "acme@example.com", "password": fmt.Sprintf("wrong guess %02d", i)}})
		if r.Status == 401 {
			failed++
		}
	}
	if failed < 5 {
		t.Fatalf("only %d failed logins answered", failed)
	}
	clock.Advance(11 * time.Second) // past the reuse of a verification
	after := s.must(200, chainReq(tn.Token, tn.OrgID))
	if after["entries"] != before["entries"] || after["valid"] != true {
		t.Fatalf("30 failed logins changed the organization's chain: %v -> %v", before, after)
	}
	sys, err := s.st.Audit().Verify(context.Background(), nil, apptest.AuditKey)
	if err != nil || !sys.Valid() || sys.Entries != failed {
		t.Fatalf("system chain: %+v %v, want the %d failed logins", sys, err, failed)
	}
	if r := chain(tn.Token, other.OrgID); r.Status != 404 {
		t.Fatalf("another tenant's chain: %d %s", r.Status, r.Body)
	}
	if r := chain(tn.Token, "not-a-uuid"); r.Status != 422 {
		t.Fatalf("bad organization id: %d", r.Status)
	}

	// Edit an entry in the database: both transports report the chain broken.
	var victim uuid.UUID
	org := uuid.MustParse(tn.OrgID)
	if err := s.st.DB().NewSelect().Table("audit_logs").Column("id").Where("organization_id = ? AND seq = 2", org).Scan(context.Background(), &victim); err != nil {
		t.Fatal(err)
	}
	if _, err := s.st.DB().NewUpdate().Table("audit_logs").Set("ip = ?", "203.0.113.9").Where("id = ?", victim).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	clock.Advance(11 * time.Second)
	broken := s.must(200, chainReq(tn.Token, tn.OrgID))
	if broken["valid"] != false || broken["broken_entry_id"] != victim.String() || broken["problem"] == nil {
		t.Fatalf("edited chain over REST: %v", broken)
	}
	res := s.must(200, req{method: "POST", path: "/graphql", token: tn.Token, body: map[string]any{"query": fmt.Sprintf(
		`{ organization(id: %q) { auditChain { valid entries headSeq problem brokenEntryId } } }`, tn.OrgID)}})
	raw, _ := json.Marshal(res)
	var g struct {
		Data struct {
			Organization struct {
				AuditChain struct {
					Valid         bool
					Entries       int
					BrokenEntryID string
				}
			}
		}
	}
	if err := json.Unmarshal(raw, &g); err != nil || g.Data.Organization.AuditChain.Valid || g.Data.Organization.AuditChain.BrokenEntryID != victim.String() {
		t.Fatalf("edited chain over GraphQL: %s", raw)
	}
}
