package graph_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

func fixture(t *testing.T, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", name))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

const validateQuery = `query($p: ID!, $in: ValidateInvoiceInput!) {
  validateInvoice(projectId: $p, input: $in) { valid schemaVersion errors { rule severity path loc message } warnings { rule } }
}`

// TestWorkbench runs the invoice operations a portal user tries on their
// project: the same answers as REST, problems located under input, the
// tenant and role checks, and no usage counted for any key.
func TestWorkbench(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		s := newServer(t, d, graph.Options{})
		a, b := s.tenant("acme"), s.tenant("bolt")

		var ok struct {
			ValidateInvoice struct {
				Valid         bool
				SchemaVersion string
			}
		}
		s.must(a.Token, validateQuery, map[string]any{"p": a.ProjectID, "in": map[string]any{
			"invoiceTypeCode": "B2B", "taxAuthorityCode": "NRS", "payload": fixture(t, "invoice-b2b-1.1.json"),
		}}, &ok)
		if !ok.ValidateInvoice.Valid || ok.ValidateInvoice.SchemaVersion != "1.1" {
			t.Fatalf("the valid fixture: %+v", ok)
		}

		var bad struct {
			ValidateInvoice struct {
				Valid  bool
				Errors []struct {
					Rule string
					Loc  []any
				}
			}
		}
		s.must(a.Token, validateQuery, map[string]any{"p": a.ProjectID, "in": map[string]any{
			"invoiceTypeCode": "B2B", "taxAuthorityCode": "NRS", "profile": "STRICT", "payload": fixture(t, "invalid-missing-supplier-tin.json"),
		}}, &bad)
		if bad.ValidateInvoice.Valid || len(bad.ValidateInvoice.Errors) == 0 {
			t.Fatalf("the invalid fixture: %+v", bad)
		}
		loc := bad.ValidateInvoice.Errors[0].Loc
		if len(loc) < 3 || loc[0] != "input" || loc[1] != "payload" {
			t.Fatalf("problem locations start at the argument: %v", loc)
		}

		// A payload that is not an object is refused at its place.
		r := s.do(a.Token, validateQuery, map[string]any{"p": a.ProjectID, "in": map[string]any{
			"invoiceTypeCode": "B2B", "taxAuthorityCode": "NRS", "payload": []any{1},
		}})
		if got := r.locs(t); len(got) != 1 || got[0] != "dict_type@input/payload" {
			t.Fatalf("a list payload: %v", got)
		}

		// IRN, then the QR of that IRN with its image.
		var irn struct {
			GenerateIrn struct{ Irn, ServiceID string }
		}
		s.must(a.Token, `mutation($p: ID!) { generateIrn(projectId: $p, input: {invoiceReference: "INV9", invoiceTypeCode: "b2b",
			taxAuthorityCode: "NRS", issueDate: "2026-03-15"}) { irn serviceId } }`, map[string]any{"p": a.ProjectID}, &irn)
		if !strings.HasPrefix(irn.GenerateIrn.Irn, "INV9-") || !strings.HasSuffix(irn.GenerateIrn.Irn, "-20260315") {
			t.Fatalf("irn: %+v", irn)
		}
		var qr struct {
			InvoiceQrCode struct {
				QrPayload, QrPngBase64 string
				Timestamp              int64
			}
		}
		s.must(a.Token, `query($p: ID!, $irn: String!) { invoiceQrCode(projectId: $p, input: {irn: $irn, timestamp: 1773568800}, png: true) {
			qrPayload qrPngBase64 timestamp } }`, map[string]any{"p": a.ProjectID, "irn": irn.GenerateIrn.Irn}, &qr)
		png, _ := base64.StdEncoding.DecodeString(qr.InvoiceQrCode.QrPngBase64)
		if len(qr.InvoiceQrCode.QrPayload) != 344 || qr.InvoiceQrCode.Timestamp != 1773568800 || !strings.HasPrefix(string(png), "\x89PNG") {
			t.Fatalf("qr: payload %d chars, ts %d, png %q", len(qr.InvoiceQrCode.QrPayload), qr.InvoiceQrCode.Timestamp, png[:min(4, len(png))])
		}

		// The rendered PDF and the view.
		var rendered struct {
			RenderInvoice struct {
				Valid     bool
				Irn       string
				View      map[string]any
				PdfBase64 string
			}
		}
		s.must(a.Token, `query($p: ID!, $in: RenderInvoiceInput!) { renderInvoice(projectId: $p, input: $in, pdf: true) { valid irn view pdfBase64 } }`,
			map[string]any{"p": a.ProjectID, "in": map[string]any{"invoiceType": "B2B", "payload": fixture(t, "invoice-b2b-1.1.json")}}, &rendered)
		pdf, _ := base64.StdEncoding.DecodeString(rendered.RenderInvoice.PdfBase64)
		if !rendered.RenderInvoice.Valid || !strings.HasPrefix(string(pdf), "%PDF-") || rendered.RenderInvoice.View["irn"] != rendered.RenderInvoice.Irn {
			t.Fatalf("render: valid %v irn %q pdf %d bytes", rendered.RenderInvoice.Valid, rendered.RenderInvoice.Irn, len(pdf))
		}

		// Another tenant's project is not found, without a token it is unauthenticated.
		for _, q := range []struct{ token, want string }{{b.Token, "not_found"}, {"", "unauthenticated"}} {
			r := s.do(q.token, validateQuery, map[string]any{"p": a.ProjectID, "in": map[string]any{
				"invoiceTypeCode": "B2B", "taxAuthorityCode": "NRS", "payload": map[string]any{},
			}})
			if got := r.code(t); got != q.want {
				t.Fatalf("as %q: %s", q.want, r.Raw)
			}
		}

		// No key's usage moved: the workbench is not an API key.
		if err := s.svc.Usage.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		var usage struct {
			Project struct{ Usage struct{ Total int } }
		}
		s.must(a.Token, `query($p: ID!) { project(id: $p) { usage { total } } }`, map[string]any{"p": a.ProjectID}, &usage)
		if usage.Project.Usage.Total != 0 {
			t.Fatalf("workbench calls counted as key usage: %d", usage.Project.Usage.Total)
		}
	})
}

// TestWorkbenchLimits checks the project's rate limit and the cap on
// operations in flight.
func TestWorkbenchLimits(t *testing.T) {
	calls := 0
	limit := func(_ context.Context, key string, env model.Environment) error {
		calls++
		if !strings.HasPrefix(key, "portal:") || env != model.EnvironmentSandbox {
			t.Errorf("limited under %q for %s", key, env)
		}
		if calls > 2 {
			return model.Errorf(model.CodeRateLimited, "rate limit exceeded")
		}
		return nil
	}
	s := newServer(t, sqlite, graph.Options{RateLimit: limit})
	a := s.tenant("acme")
	vars := map[string]any{"p": a.ProjectID, "in": map[string]any{"invoiceTypeCode": "B2B", "taxAuthorityCode": "NRS", "payload": map[string]any{}}}
	s.must(a.Token, validateQuery, vars, nil)
	s.must(a.Token, validateQuery, vars, nil)
	if r := s.do(a.Token, validateQuery, vars); r.code(t) != "rate_limited" {
		t.Fatalf("third call: %s", r.Raw)
	}
}

// TestPortalLists checks the lists the portal offers as choices.
func TestPortalLists(t *testing.T) {
	s := newServer(t, sqlite, graph.Options{TemporalUI: "http://127.0.0.1:8233/", TemporalNamespace: "default"})
	a := s.tenant("acme")
	var out struct {
		ApiKeyScopes []string
		AuditActions []string
	}
	s.must(a.Token, `{ apiKeyScopes auditActions }`, nil, &out)
	if len(out.ApiKeyScopes) != len(model.AllScopes) || !contains(out.AuditActions, "key.rotate") || !contains(out.AuditActions, "session.reuse") {
		t.Fatalf("lists: %+v", out)
	}
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// TestInvoiceSampleAndDocuments checks the sample invoice a portal user
// loads (the REST route's answer, its problems at the arguments) and a
// submitted invoice's QR image and PDF as cleared.
func TestInvoiceSampleAndDocuments(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		s := newServer(t, d, graph.Options{})
		a := s.tenant("acme")
		var sample struct{ InvoiceSample map[string]any }
		s.must(a.Token, `query($p: ID!) { invoiceSample(projectId: $p, invoiceType: "b2c", issueDate: "2026-03-15") }`, map[string]any{"p": a.ProjectID}, &sample)
		inv := sample.InvoiceSample
		var p struct {
			Project struct{ Authority struct{ BusinessID string } }
		}
		s.must(a.Token, `query($p: ID!) { project(id: $p) { authority { businessId } } }`, map[string]any{"p": a.ProjectID}, &p)
		if inv["business_id"] != p.Project.Authority.BusinessID || inv["issue_date"] != "2026-03-15" || inv["invoice_kind"] != "B2C" || inv["irn"] != nil {
			t.Fatalf("sample: business %v (project %s) date %v kind %v irn %v", inv["business_id"], p.Project.Authority.BusinessID, inv["issue_date"], inv["invoice_kind"], inv["irn"])
		}
		r := s.do(a.Token, `query($p: ID!) { invoiceSample(projectId: $p, invoiceType: "B2X", issueDate: "15/03/2026") }`, map[string]any{"p": a.ProjectID})
		if got := r.locs(t); len(got) != 2 || !contains(got, "enum@invoiceType") || !contains(got, "date_from_datetime_parsing@issueDate") {
			t.Fatalf("bad arguments: %v (%s)", got, r.Raw)
		}

		// An invoice of the project, recorded confirmed: its QR image and its PDF.
		var irn struct{ GenerateIrn struct{ Irn string } }
		s.must(a.Token, `mutation($p: ID!) { generateIrn(projectId: $p, input: {invoiceReference: "SAMPLE1", invoiceTypeCode: "B2C",
			taxAuthorityCode: "NRS", issueDate: "2026-03-15"}) { irn } }`, map[string]any{"p": a.ProjectID}, &irn)
		inv["irn"] = irn.GenerateIrn.Irn
		payload, err := json.Marshal(inv)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now().UTC().Truncate(time.Microsecond)
		qr := "confirmed QR payload"
		rec := &model.SubmittedInvoice{ID: model.NewID(), ProjectID: uuid.MustParse(a.ProjectID), OrganizationID: uuid.MustParse(a.OrgID),
			Environment: model.EnvironmentSandbox, IRN: irn.GenerateIrn.Irn, InvoiceType: model.InvoiceKindB2C, InvoiceTypeCode: "381",
			Payload: string(payload), PayloadHash: "x", Status: model.InvoiceConfirmed, IssueDate: "2026-03-15", WorkflowID: "w",
			QRCodeData: qr, CreatedAt: now, UpdatedAt: now, SignedAt: &now, ConfirmedAt: &now}
		if err := s.st.Submissions().Create(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
		var docs struct {
			Invoice struct {
				QrPngBase64, PdfBase64 string
			}
		}
		s.must(a.Token, `query($id: ID!) { invoice(id: $id) { qrPngBase64 pdfBase64 } }`, map[string]any{"id": rec.ID.String()}, &docs)
		png, _ := base64.StdEncoding.DecodeString(docs.Invoice.QrPngBase64)
		pdf, _ := base64.StdEncoding.DecodeString(docs.Invoice.PdfBase64)
		if !strings.HasPrefix(string(png), "\x89PNG") || !strings.HasPrefix(string(pdf), "%PDF-") {
			t.Fatalf("qr image %d bytes, pdf %d bytes", len(png), len(pdf))
		}
	})
}
