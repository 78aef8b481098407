package client_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/rest/client"
)

func fixture(t *testing.T, name string) client.NRSInvoice {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", name))
	if err != nil {
		t.Fatal(err)
	}
	var inv client.NRSInvoice
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&inv); err != nil {
		t.Fatalf("%s does not fit NRSInvoice: %v", name, err)
	}
	return inv
}

// portal signs a user up (slug made unique) and returns a client with their token and the
// organization's id.
func portal(t *testing.T, c *client.Client, slug string) (*client.Client, client.UUID) {
	t.Helper()
	slug += "-" + strings.ToLower(rand.Text()[:8])
	s, err := c.SignupWithResponse(context.Background(), client.SignupRequest{
		Email: slug + "@example.com", Password: "correct horse battery", OrganizationName: "Org " + slug, OrganizationSlug: slug,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c.WithBearerToken(s.JSON200.AccessToken), s.JSON200.Organization.Id
}

func TestFlow(t *testing.T) {
	ctx := context.Background()
	c, err := client.New(baseURL)
	if err != nil {
		t.Fatal(err)
	}
	p, org := portal(t, c, "sdkflow")
	pr, err := p.CreateProjectWithResponse(ctx, nil, client.ProjectRequest{OrganizationId: org, Name: "SDK shop"})
	if err != nil {
		t.Fatal(err)
	}
	project := pr.JSON200
	kr, err := p.CreateKeyWithResponse(ctx, project.Id, nil, client.KeyRequest{KeyName: "sdk"})
	if err != nil {
		t.Fatal(err)
	}
	key := kr.JSON200
	k := c.WithAPIKey(key.ClientId, key.ClientSecret)
	invoice := fixture(t, "invoice-b2b-1.1.json")

	vr, err := k.ValidateInvoiceWithResponse(ctx, nil, client.ValidateInvoiceRequest{InvoiceTypeCode: "B2B", TaxAuthorityCode: "NRS", Payload: invoice})
	if err != nil {
		t.Fatal(err)
	}
	if !vr.JSON200.Valid {
		t.Fatalf("validate: %s", vr.Body)
	}
	bad, err := k.ValidateInvoiceWithResponse(ctx, nil, client.ValidateInvoiceRequest{InvoiceTypeCode: "B2B", TaxAuthorityCode: "NRS",
		Payload: fixture(t, "invalid-missing-supplier-tin.json")})
	if err != nil {
		t.Fatal(err)
	}
	if bad.JSON200.Valid || len(bad.JSON200.Errors) == 0 || bad.JSON200.Errors[0].Path != "/accounting_supplier_party/tin" {
		t.Fatalf("validate an invalid invoice: %s", bad.Body)
	}

	issue := client.Date{Time: time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC)}
	ir, err := k.GenerateIRNWithResponse(ctx, nil, client.IRNRequest{InvoiceReference: "SDK1", InvoiceTypeCode: "381", TaxAuthorityCode: "NRS", IssueDate: issue})
	if err != nil {
		t.Fatal(err)
	}
	if ir.HTTPResponse.Request.Header.Get("Idempotency-Key") == "" {
		t.Error("an authenticated POST went without an Idempotency-Key")
	}
	irn := ir.JSON200.Irn
	qr, err := k.GenerateQRWithResponse(ctx, nil, client.QRRequest{Irn: irn})
	if err != nil {
		t.Fatal(err)
	}
	if len(qr.JSON200.QrPayload) != 344 {
		t.Errorf("QR payload of %d characters", len(qr.JSON200.QrPayload))
	}

	rr, err := k.RenderInvoiceWithResponse(ctx, nil, client.RenderRequest{InvoiceType: "B2B", Payload: invoice})
	if err != nil {
		t.Fatal(err)
	}
	if rr.JSON200.Totals.PayableAmount != "75250.00" || rr.JSON200.Supplier == nil || rr.JSON200.Supplier.Address == nil {
		t.Fatalf("render: %s", rr.Body)
	}
	var pdf bytes.Buffer
	name, err := k.RenderPDF(ctx, client.RenderRequest{InvoiceType: "B2B", Payload: invoice}, &pdf)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-")) || filepath.Ext(name) != ".pdf" {
		t.Errorf("RenderPDF: %q, %d bytes starting %q", name, pdf.Len(), pdf.Bytes()[:min(8, pdf.Len())])
	}

	us, err := k.UsageWithResponse(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if us.JSON200.Total < 5 {
		t.Errorf("usage total %d", us.JSON200.Total)
	}
	al, err := p.ListAuditLogsWithResponse(ctx, &client.ListAuditLogsParams{OrganizationId: &org})
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, e := range al.JSON200.Items {
		actions = append(actions, e.Action)
	}
	if !slices.Contains(actions, "key.create") {
		t.Errorf("audit actions %v", actions)
	}

	rot, err := p.RotateKeyWithResponse(ctx, project.Id, key.Id, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.UsageWithResponse(ctx, nil); apiError(t, err).StatusCode != 401 {
		t.Errorf("the rotated-out secret: %v", err)
	}
	k = k.WithAPIKey(key.ClientId, rot.JSON200.ClientSecret)
	if _, err := k.UsageWithResponse(ctx, nil); err != nil {
		t.Fatalf("the new secret: %v", err)
	}
	if _, err := p.RevokeKeyWithResponse(ctx, project.Id, key.Id); err != nil {
		t.Fatal(err)
	}
	_, err = k.UsageWithResponse(ctx, nil)
	if e := apiError(t, err); e.StatusCode != 401 || e.Code != client.ErrorCodeUnauthenticated || e.RequestID == "" {
		t.Errorf("a revoked key: %+v", e)
	}
}

func apiError(t *testing.T, err error) *client.APIError {
	t.Helper()
	var e *client.APIError
	if !errors.As(err, &e) {
		t.Fatalf("want an *APIError, got %v", err)
	}
	return e
}

func TestAPIErrorCarriesTheProblems(t *testing.T) {
	ctx := context.Background()
	c, err := client.New(baseURL)
	if err != nil {
		t.Fatal(err)
	}
	p, org := portal(t, c, "problems")
	_, err = p.CreateProjectWithResponse(ctx, nil, client.ProjectRequest{OrganizationId: org, Name: "x"})
	e := apiError(t, err)
	if e.StatusCode != 422 || e.Code != "" || len(e.Problems) != 1 {
		t.Fatalf("%+v", e)
	}
	prob, ok := e.Problem("body", "name")
	if !ok || prob.Type != client.StringTooShort || e.Message != prob.Msg {
		t.Errorf("problem %+v (%v), message %q", prob, ok, e.Message)
	}

	orgs, err := p.ListOrganizationsWithResponse(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.CreateOrganizationWithResponse(ctx, nil, client.OrganizationRequest{Name: "Again", Slug: orgs.JSON200.Items[0].Slug})
	if e := apiError(t, err); e.StatusCode != 409 || e.Code != client.ErrorCodeConflict {
		t.Errorf("a taken slug: %+v", e)
	}

	k := c.WithAPIKey("ck_sandbox_unknown", "cs_sandbox_unknown")
	_, err = k.UsageWithResponse(ctx, nil)
	if e := apiError(t, err); e.StatusCode != 401 || e.Code != client.ErrorCodeUnauthenticated {
		t.Errorf("an unknown key: %+v", e)
	}
}

// TestUnavailableIsRetried: a 503 (the server did not run the request)
// is retried with the same Idempotency-Key until the attempts are spent.
func TestUnavailableIsRetried(t *testing.T) {
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"detail":"the workflow engine cannot be reached","code":"unavailable"}`))
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, client.WithAPIKey("ck_sandbox_x", "cs_sandbox_x"),
		client.WithRetry(client.Retry{MaxAttempts: 3, BaseDelay: time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	issue := client.Date{Time: time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC)}
	_, err = c.StartCertificationRunWithResponse(context.Background(), nil, client.CertificationRequest{InvoiceType: "B2B", IssueDate: issue})
	if e := apiError(t, err); e.StatusCode != 503 || e.Code != client.ErrorCodeUnavailable {
		t.Fatalf("%+v", e)
	}
	if len(keys) != 3 || keys[0] == "" || keys[1] != keys[0] || keys[2] != keys[0] {
		t.Errorf("attempts with Idempotency-Keys %q, want 3 with one key", keys)
	}
}

func TestWaitForRun(t *testing.T) {
	// A server whose run moves queued, running, passed.
	states := []string{"queued", "running", "passed"}
	polls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v2/certification/runs/0190a0a0-0000-7000-8000-000000000001" || r.Header.Get("X-Client-Id") != "ck" {
			http.NotFound(w, r)
			return
		}
		st := states[min(polls, len(states)-1)]
		polls++
		w.Header().Set("Content-Type", "application/json")
		finished := "null"
		if st == "passed" {
			finished = `"2026-03-15T10:00:01Z"`
		}
		_, _ = w.Write([]byte(`{"run_id":"0190a0a0-0000-7000-8000-000000000001","status":"` + st + `","invoice_type":"B2B","issue_date":"2026-03-15",
			"irn":null,"failure_reason":null,"steps":[],"created_at":"2026-03-15T10:00:00Z","finished_at":` + finished + `,
			"temporal":{"workflow_id":"certification-run-0190a0a0-0000-7000-8000-000000000001","run_id":null}}`))
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(srv.URL, client.WithAPIKey("ck", "cs"))
	if err != nil {
		t.Fatal(err)
	}
	var id client.UUID
	if err := id.UnmarshalText([]byte("0190a0a0-0000-7000-8000-000000000001")); err != nil {
		t.Fatal(err)
	}
	run, err := c.WaitForRun(context.Background(), id, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != client.CertificationRunStatusPassed || run.FinishedAt == nil || polls != 3 {
		t.Errorf("status %s after %d polls", run.Status, polls)
	}

	// A context that ends stops the polling with its error.
	states = []string{"running"}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.WaitForRun(ctx, id, time.Millisecond); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
