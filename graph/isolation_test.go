package graph_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// TestTenantIsolation checks that another tenant's organization, project
// and key are not_found to every field and mutation, and that lists never
// show them.
func TestTenantIsolation(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		s := newServer(t, d, graph.Options{})
		a, b := s.tenant("alpha"), s.tenant("bravo")
		sandbox, err := apptest.SandboxKeys()
		if err != nil {
			t.Fatal(err)
		}

		// An invoice of B's project, recorded directly (submitting needs the
		// workflow engine, which this server has not).
		bInvoice := &model.SubmittedInvoice{ID: model.NewID(), ProjectID: uuid.MustParse(b.ProjectID), OrganizationID: uuid.MustParse(b.OrgID),
			Environment: model.EnvironmentSandbox, IRN: "INV1-ABCDEFGH-20260315", InvoiceType: model.InvoiceKindB2B, InvoiceTypeCode: "381",
			Payload: "{}", PayloadHash: "x", Status: model.InvoiceQueued, IssueDate: "2026-03-15", WorkflowID: "w",
			CreatedAt: time.Now().UTC().Truncate(time.Microsecond), UpdatedAt: time.Now().UTC().Truncate(time.Microsecond)}
		if err := s.st.Submissions().Create(context.Background(), bInvoice); err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			name, query string
			vars        map[string]any
		}{
			{"invoice", `query($id: ID!) { invoice(id: $id) { id irn } }`, map[string]any{"id": bInvoice.ID.String()}},
			{"invoices of another project", `query($id: ID!) { project(id: $id) { invoices { edges { node { id } } } } }`, map[string]any{"id": b.ProjectID}},
			{"submitInvoice", `mutation($input: SubmitInvoiceInput!) { submitInvoice(input: $input) { id } }`,
				map[string]any{"input": map[string]any{"projectId": b.ProjectID, "invoiceType": "B2B", "payload": map[string]any{}}}},
			{"submitInvoice with a UBL document", `mutation($input: SubmitInvoiceInput!) { submitInvoice(input: $input) { id } }`,
				map[string]any{"input": map[string]any{"projectId": b.ProjectID, "ublDocument": "<Invoice/>"}}},
			{"convertUblInvoice", `query($input: UblInvoiceInput!) { convertUblInvoice(input: $input) { payload } }`,
				map[string]any{"input": map[string]any{"projectId": b.ProjectID, "document": "<Invoice/>"}}},
			{"createInvoiceNote credit", `mutation($id: ID!) { createInvoiceNote(invoiceId: $id, kind: CREDIT, input: {invoiceReference: "CN1"}) { id } }`,
				map[string]any{"id": bInvoice.ID.String()}},
			{"createInvoiceNote debit", `mutation($id: ID!) { createInvoiceNote(invoiceId: $id, kind: DEBIT, input: {invoiceReference: "DN1", lines: [{line: 0, amount: "1"}]}) { id } }`,
				map[string]any{"id": bInvoice.ID.String()}},
			{"invoice ubl and mappingReport", `query($id: ID!) { invoice(id: $id) { ubl mappingReport } }`, map[string]any{"id": bInvoice.ID.String()}},
			{"invoice pdfBase64", `query($id: ID!) { invoice(id: $id) { pdfBase64 } }`, map[string]any{"id": bInvoice.ID.String()}},
			{"invoice qrPngBase64", `query($id: ID!) { invoice(id: $id) { qrPngBase64 } }`, map[string]any{"id": bInvoice.ID.String()}},
			{"invoiceSample", `query($p: ID!) { invoiceSample(projectId: $p, invoiceType: "B2B") }`, map[string]any{"p": b.ProjectID}},
			{"organization", `query($id: ID!) { organization(id: $id) { id } }`, map[string]any{"id": b.OrgID}},
			{"project", `query($id: ID!) { project(id: $id) { id } }`, map[string]any{"id": b.ProjectID}},
			{"auditLogs of another organization", `query($id: ID) { auditLogs(organizationId: $id) { edges { cursor } } }`, map[string]any{"id": b.OrgID}},
			{"createProject in another organization", createProjectMutation, map[string]any{"input": map[string]any{
				"organizationId": b.OrgID, "name": "intruder", "environment": "SANDBOX"}}},
			{"updateProjectAuthority", `mutation($id: ID!, $input: UpdateProjectAuthorityInput!) { updateProjectAuthority(projectId: $id, input: $input) { id } }`,
				map[string]any{"id": b.ProjectID, "input": map[string]any{"taxAuthorityCode": "NRS", "businessId": "0a1b2c3d-0000-4000-8000-000000000001",
					"serviceId": "ABCD1234", "publicKey": sandbox.PublicKeyPEM, "certificate": sandbox.Certificate}}},
			{"updateProject", `mutation($id: ID!) { updateProject(projectId: $id, input: {validationProfile: STRICT}) { id } }`,
				map[string]any{"id": b.ProjectID}},
			{"createApiKey", createKeyMutation, map[string]any{"input": map[string]any{"projectId": b.ProjectID, "keyName": "intruder"}}},
			{"rotateApiKey", `mutation($p: ID!, $k: ID!) { rotateApiKey(projectId: $p, keyId: $k) { clientSecret } }`,
				map[string]any{"p": b.ProjectID, "k": b.KeyID}},
			{"rotateApiKey through an own project", `mutation($p: ID!, $k: ID!) { rotateApiKey(projectId: $p, keyId: $k) { clientSecret } }`,
				map[string]any{"p": a.ProjectID, "k": b.KeyID}},
			{"revokeApiKey", `mutation($p: ID!, $k: ID!) { revokeApiKey(projectId: $p, keyId: $k) { id } }`,
				map[string]any{"p": b.ProjectID, "k": b.KeyID}},
			{"revokeApiKey through an own project", `mutation($p: ID!, $k: ID!) { revokeApiKey(projectId: $p, keyId: $k) { id } }`,
				map[string]any{"p": a.ProjectID, "k": b.KeyID}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := s.do(a.Token, c.query, c.vars)
				if got := r.code(t); got != "not_found" {
					t.Fatalf("code = %q, want not_found: %s", got, r.Raw)
				}
				if strings.Contains(string(r.Raw), b.ProjectID) || strings.Contains(string(r.Raw), b.KeyID) {
					t.Fatalf("the answer names the other tenant's object: %s", r.Raw)
				}
			})
		}

		// B reads its own invoice, with its events; A's project lists none.
		own := s.must(b.Token, `query($id: ID!) { invoice(id: $id) { id status events { seq } } }`, map[string]any{"id": bInvoice.ID.String()}, nil)
		if !strings.Contains(string(own.Raw), bInvoice.ID.String()) || !strings.Contains(string(own.Raw), `"QUEUED"`) {
			t.Fatalf("own invoice: %s", own.Raw)
		}
		mine := s.must(a.Token, `query($id: ID!) { project(id: $id) { invoices(filter: {status: QUEUED}) { edges { node { id } } } } }`, map[string]any{"id": a.ProjectID}, nil)
		if strings.Contains(string(mine.Raw), bInvoice.ID.String()) {
			t.Fatalf("A's project lists B's invoice: %s", mine.Raw)
		}

		// B's key still works after every attempt: nothing was rotated or revoked.
		if _, err := s.svc.Keys.Authenticate(t.Context(), b.ClientID, b.Secret); err != nil {
			t.Fatalf("the other tenant's key was changed: %v", err)
		}

		// Lists show only A's objects.
		r := s.must(a.Token, meQuery, nil, nil)
		r2 := s.must(a.Token, `{ auditLogs(first: 200) { edges { node { organizationId target { id } } } } }`, nil, nil)
		for _, raw := range [][]byte{r.Raw, r2.Raw} {
			for _, id := range []string{b.OrgID, b.ProjectID, b.KeyID, b.ClientID, b.UserID} {
				if strings.Contains(string(raw), id) {
					t.Fatalf("a list shows the other tenant's %s: %s", id, raw)
				}
			}
		}
		var me meTree
		r.decode(t, &me)
		if orgs := me.Me.Organizations.Edges; len(orgs) != 1 || orgs[0].Node.ID != a.OrgID || len(orgs[0].Node.Projects.Edges) != 1 {
			t.Fatalf("me = %+v", me.Me)
		}
	})
}
