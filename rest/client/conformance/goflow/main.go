// Command goflow runs the typical flow of an integrator against a live
// einvoice with the Go client oapi-codegen generates from the served v2
// document (default configuration, in ../gen/v2/oapi), and one call with
// the v1 client: signup, project, key, validate, IRN generate and
// validate, QR, render JSON and PDF, a certification run polled to its
// end, usage, audit logs, rotate and revoke. Any unexpected answer fails.
//
//	go run ./goflow -base http://127.0.0.1:8080 -fixtures ../../../testdata/fixtures
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	oapiv1 "github.com/einvoice-ng/einvoice/rest/client/conformance/gen/v1/oapi"
	oapi "github.com/einvoice-ng/einvoice/rest/client/conformance/gen/v2/oapi"
)

func main() {
	base := flag.String("base", "http://127.0.0.1:8080", "the server's base URL")
	fixtures := flag.String("fixtures", "testdata/fixtures", "the invoice fixtures")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, *base, *fixtures); err != nil {
		fmt.Fprintln(os.Stderr, "goflow: FAIL:", err)
		os.Exit(1)
	}
	fmt.Println("goflow: the flow passed with the oapi-codegen client")
}

// status fails unless a generated response has the wanted status.
func status(what string, code int, body []byte, err error, want int) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if code != want {
		return fmt.Errorf("%s: status %d, want %d: %s", what, code, want, body)
	}
	return nil
}

func bearer(token string) oapi.RequestEditorFn {
	return func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
}

func apiKey(id, secret string) oapi.RequestEditorFn {
	return func(_ context.Context, r *http.Request) error {
		r.Header.Set("X-Client-Id", id)
		r.Header.Set("X-Client-Secret", secret)
		return nil
	}
}

func run(ctx context.Context, base, fixtures string) error {
	c, err := oapi.NewClientWithResponses(base)
	if err != nil {
		return err
	}
	h, err := c.HealthWithResponse(ctx)
	if err := status("health", h.StatusCode(), h.Body, err, 200); err != nil {
		return err
	}
	slug := fmt.Sprintf("goflow-%d", time.Now().UnixNano())

	su, err := c.SignupWithResponse(ctx, oapi.SignupRequest{
		Email: slug + "@example.com", Password: "correct horse battery", OrganizationName: "Go flow " + slug, OrganizationSlug: slug,
	})
	if err := status("signup", su.StatusCode(), su.Body, err, 200); err != nil {
		return err
	}
	token, org := su.JSON200.AccessToken, su.JSON200.Organization.Id
	portal := bearer(token)

	pr, err := c.CreateProjectWithResponse(ctx, nil, oapi.ProjectRequest{OrganizationId: org, Name: "Go flow shop"}, portal)
	if err := status("create project", pr.StatusCode(), pr.Body, err, 200); err != nil {
		return err
	}
	project := pr.JSON200
	if project.Environment != oapi.EnvironmentSandbox || project.Authority.BusinessId == nil {
		return fmt.Errorf("create project: a provisioned sandbox project expected, got %s", pr.Body)
	}

	kr, err := c.CreateKeyWithResponse(ctx, project.Id, nil, oapi.KeyRequest{KeyName: "go flow"}, portal)
	if err := status("create key", kr.StatusCode(), kr.Body, err, 200); err != nil {
		return err
	}
	key := kr.JSON200
	if len(key.Scopes) != 11 || key.ClientSecret == "" {
		return fmt.Errorf("create key: every scope and a secret expected: %s", kr.Body)
	}
	k := apiKey(key.ClientId, key.ClientSecret)

	// A typed invoice: the fixture must fit the generated NRSInvoice.
	raw, err := os.ReadFile(filepath.Join(fixtures, "invoice-b2b-1.1.json"))
	if err != nil {
		return err
	}
	var invoice oapi.NRSInvoice
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&invoice); err != nil {
		return fmt.Errorf("the fixture does not fit the generated NRSInvoice: %w", err)
	}

	vr, err := c.ValidateInvoiceWithResponse(ctx, nil, oapi.ValidateInvoiceRequest{
		InvoiceTypeCode: "B2B", TaxAuthorityCode: "NRS", Payload: invoice,
	}, k)
	if err := status("validate", vr.StatusCode(), vr.Body, err, 200); err != nil {
		return err
	}
	if !vr.JSON200.Valid || vr.JSON200.SchemaVersion != "1.1" || vr.JSON200.Profile != oapi.Nrs {
		return fmt.Errorf("validate: a valid 1.1 report under nrs expected: %s", vr.Body)
	}

	issue := openapi_types.Date{Time: time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC)}
	ir, err := c.GenerateIRNWithResponse(ctx, nil, oapi.IRNRequest{
		InvoiceReference: "GOFLOW1", InvoiceTypeCode: "381", TaxAuthorityCode: "NRS", IssueDate: issue,
	}, k)
	if err := status("generate IRN", ir.StatusCode(), ir.Body, err, 200); err != nil {
		return err
	}
	irn := ir.JSON200.Irn

	bid, err := parseUUID(*project.Authority.BusinessId)
	if err != nil {
		return err
	}
	iv, err := c.ValidateIRNWithResponse(ctx, nil, oapi.ValidateIRNRequest{InvoiceReference: "GOFLOW1", BusinessId: bid, Irn: irn}, k)
	if err := status("validate IRN", iv.StatusCode(), iv.Body, err, 200); err != nil {
		return err
	}
	if !iv.JSON200.Valid {
		return fmt.Errorf("validate IRN: valid expected: %s", iv.Body)
	}

	png := oapi.Png
	qr, err := c.GenerateQRWithResponse(ctx, &oapi.GenerateQRParams{Include: &png}, oapi.QRRequest{Irn: irn}, k)
	if err := status("QR", qr.StatusCode(), qr.Body, err, 200); err != nil {
		return err
	}
	if len(qr.JSON200.QrPayload) != 344 || qr.JSON200.QrPngBase64 == nil {
		return fmt.Errorf("QR: a 344-character payload and a PNG expected: %s", qr.Body)
	}

	rr, err := c.RenderInvoiceWithResponse(ctx, nil, oapi.RenderRequest{InvoiceType: "B2B", Payload: invoice}, k)
	if err := status("render", rr.StatusCode(), rr.Body, err, 200); err != nil {
		return err
	}
	view := rr.JSON200
	if view.InvoiceType != oapi.RenderedInvoiceInvoiceTypeB2B || view.Totals.PayableAmount != "75250.00" || len(view.Lines) != 2 ||
		view.Supplier == nil || view.Qr.Payload == "" || !view.Validation.Valid {
		return fmt.Errorf("render: unexpected view: %s", rr.Body)
	}

	pdf := oapi.Pdf
	rp, err := c.RenderInvoiceWithResponse(ctx, &oapi.RenderInvoiceParams{Format: &pdf}, oapi.RenderRequest{InvoiceType: "b2b", Payload: invoice}, k)
	if err := status("render PDF", rp.StatusCode(), nil, err, 200); err != nil {
		return err
	}
	if ct := rp.HTTPResponse.Header.Get("Content-Type"); ct != "application/pdf" || !bytes.HasPrefix(rp.Body, []byte("%PDF-")) {
		return fmt.Errorf("render PDF: a PDF expected, got %s (%d bytes)", ct, len(rp.Body))
	}

	cr, err := c.StartCertificationRunWithResponse(ctx, nil, oapi.CertificationRequest{InvoiceType: "B2B", IssueDate: issue}, k)
	if err := status("start run", cr.StatusCode(), cr.Body, err, 200); err != nil {
		return err
	}
	run := cr.JSON200
	for !slices.Contains([]oapi.CertificationRunStatus{oapi.CertificationRunStatusPassed, oapi.CertificationRunStatusFailed, oapi.CertificationRunStatusCancelled}, run.Status) {
		select {
		case <-ctx.Done():
			return fmt.Errorf("run %s: still %s: %w", run.RunId, run.Status, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
		g, err := c.CertificationRunWithResponse(ctx, run.RunId, k)
		if err := status("poll run", g.StatusCode(), g.Body, err, 200); err != nil {
			return err
		}
		run = g.JSON200
	}
	if run.Status != oapi.CertificationRunStatusPassed || run.FinishedAt == nil || len(run.Steps) == 0 {
		return fmt.Errorf("run %s ended %s (%v)", run.RunId, run.Status, run.FailureReason)
	}

	us, err := c.UsageWithResponse(ctx, nil, k)
	if err := status("usage", us.StatusCode(), us.Body, err, 200); err != nil {
		return err
	}
	if us.JSON200.Total < 7 {
		return fmt.Errorf("usage: at least 7 metered calls expected: %s", us.Body)
	}

	al, err := c.ListAuditLogsWithResponse(ctx, &oapi.ListAuditLogsParams{OrganizationId: &org}, portal)
	if err := status("audit logs", al.StatusCode(), al.Body, err, 200); err != nil {
		return err
	}
	var actions []string
	for _, e := range al.JSON200.Items {
		actions = append(actions, e.Action)
	}
	for _, want := range []string{"signup", "project.create", "key.create", "certification.start"} {
		if !slices.Contains(actions, want) {
			return fmt.Errorf("audit logs: no %s in %v", want, actions)
		}
	}

	rot, err := c.RotateKeyWithResponse(ctx, project.Id, key.Id, nil, portal)
	if err := status("rotate", rot.StatusCode(), rot.Body, err, 200); err != nil {
		return err
	}
	if rot.JSON200.ClientSecret == key.ClientSecret {
		return fmt.Errorf("rotate: the secret did not change")
	}
	old, err := c.UsageWithResponse(ctx, nil, k)
	if err := status("usage with the rotated-out secret", old.StatusCode(), old.Body, err, 401); err != nil {
		return err
	}
	k = apiKey(key.ClientId, rot.JSON200.ClientSecret)
	if u, err := c.UsageWithResponse(ctx, nil, k); status("usage with the new secret", u.StatusCode(), u.Body, err, 200) != nil {
		return status("usage with the new secret", u.StatusCode(), u.Body, err, 200)
	}

	rv, err := c.RevokeKeyWithResponse(ctx, project.Id, key.Id, portal)
	if err := status("revoke", rv.StatusCode(), rv.Body, err, 200); err != nil {
		return err
	}
	gone, err := c.UsageWithResponse(ctx, nil, k)
	if err := status("usage with a revoked key", gone.StatusCode(), gone.Body, err, 401); err != nil {
		return err
	}
	if gone.JSON401 == nil || gone.JSON401.Code != oapi.ErrorCodeUnauthenticated {
		return fmt.Errorf("usage with a revoked key: a typed 401 expected: %s", gone.Body)
	}

	// The deprecated prefix answers the same through its own document.
	c1, err := oapiv1.NewClientWithResponses(base)
	if err != nil {
		return err
	}
	lo, err := c1.ListOrganizationsV1WithResponse(ctx, nil, func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+token)
		return nil
	})
	if err := status("v1 organizations", lo.StatusCode(), lo.Body, err, 200); err != nil {
		return err
	}
	if len(lo.JSON200.Items) != 1 || lo.HTTPResponse.Header.Get("Deprecation") == "" {
		return fmt.Errorf("v1 organizations: one organization and a Deprecation header expected: %s", lo.Body)
	}
	return nil
}

func parseUUID(s string) (openapi_types.UUID, error) {
	var u openapi_types.UUID
	err := u.UnmarshalText([]byte(s))
	return u, err
}
