// Command sdkflow runs the typical flow of an integrator against a live
// einvoice with the Go SDK (rest/client): signup, project, key, validate,
// IRN generate and validate, QR, render JSON and PDF, a certification run
// waited for to its end, usage, audit logs, rotate and revoke, and the
// typed errors on the way. Any unexpected answer fails.
//
//	go run ./sdkflow -base http://127.0.0.1:8080 -fixtures ../../../testdata/fixtures
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	einvoice "github.com/einvoice-ng/einvoice/rest/client"
)

func main() {
	base := flag.String("base", "http://127.0.0.1:8080", "the server's base URL")
	fixtures := flag.String("fixtures", "testdata/fixtures", "the invoice fixtures")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, *base, *fixtures); err != nil {
		fmt.Fprintln(os.Stderr, "sdkflow: FAIL:", err)
		os.Exit(1)
	}
	fmt.Println("sdkflow: the flow passed with the Go SDK")
}

func run(ctx context.Context, base, fixtures string) error {
	c, err := einvoice.New(base, einvoice.WithUserAgent("einvoice-sdkflow"))
	if err != nil {
		return err
	}
	slug := fmt.Sprintf("sdkflow-%d", time.Now().UnixNano())
	s, err := c.SignupWithResponse(ctx, einvoice.SignupRequest{
		Email: slug + "@example.com", Password: "correct horse battery", OrganizationName: "SDK flow " + slug, OrganizationSlug: slug,
	})
	if err != nil {
		return fmt.Errorf("signup: %w", err)
	}
	portal, org := c.WithBearerToken(s.JSON200.AccessToken), s.JSON200.Organization.Id

	// A 422 carries every problem with its location.
	_, err = portal.CreateProjectWithResponse(ctx, nil, einvoice.ProjectRequest{OrganizationId: org, Name: "x"})
	var apiErr *einvoice.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 422 {
		return fmt.Errorf("a short project name: want a 422 *APIError, got %v", err)
	}
	if p, ok := apiErr.Problem("body", "name"); !ok || p.Type != einvoice.StringTooShort {
		return fmt.Errorf("a short project name: problems %+v", apiErr.Problems)
	}

	pr, err := portal.CreateProjectWithResponse(ctx, nil, einvoice.ProjectRequest{OrganizationId: org, Name: "SDK flow shop"})
	if err != nil {
		return fmt.Errorf("create project: %w", err)
	}
	project := pr.JSON200
	kr, err := portal.CreateKeyWithResponse(ctx, project.Id, nil, einvoice.KeyRequest{KeyName: "sdk flow"})
	if err != nil {
		return fmt.Errorf("create key: %w", err)
	}
	key := kr.JSON200
	api := c.WithAPIKey(key.ClientId, key.ClientSecret)

	raw, err := os.ReadFile(filepath.Join(fixtures, "invoice-b2b-1.1.json"))
	if err != nil {
		return err
	}
	var invoice einvoice.NRSInvoice
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&invoice); err != nil {
		return fmt.Errorf("the fixture does not fit NRSInvoice: %w", err)
	}
	vr, err := api.ValidateInvoiceWithResponse(ctx, nil, einvoice.ValidateInvoiceRequest{InvoiceTypeCode: "B2B", TaxAuthorityCode: "NRS", Payload: invoice})
	if err != nil {
		return fmt.Errorf("validate: %w", err)
	}
	if !vr.JSON200.Valid {
		return fmt.Errorf("validate: valid expected: %s", vr.Body)
	}

	issue := einvoice.Date{Time: time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC)}
	ir, err := api.GenerateIRNWithResponse(ctx, nil, einvoice.IRNRequest{InvoiceReference: "SDKFLOW1", InvoiceTypeCode: "381", TaxAuthorityCode: "NRS", IssueDate: issue})
	if err != nil {
		return fmt.Errorf("generate IRN: %w", err)
	}
	// The same call again under the key the SDK generated is replayed.
	sent := ir.HTTPResponse.Request.Header.Get("Idempotency-Key")
	again, err := api.GenerateIRNWithResponse(ctx, &einvoice.GenerateIRNParams{IdempotencyKey: &sent},
		einvoice.IRNRequest{InvoiceReference: "SDKFLOW1", InvoiceTypeCode: "381", TaxAuthorityCode: "NRS", IssueDate: issue})
	if err != nil || again.HTTPResponse.Header.Get("Idempotent-Replayed") != "true" || again.JSON200.Irn != ir.JSON200.Irn {
		return fmt.Errorf("a replayed IRN: %v", err)
	}
	// The same reference on another date is a typed 409.
	_, err = api.GenerateIRNWithResponse(ctx, nil, einvoice.IRNRequest{InvoiceReference: "SDKFLOW1", InvoiceTypeCode: "381", TaxAuthorityCode: "NRS",
		IssueDate: einvoice.Date{Time: issue.AddDate(0, 0, 1)}})
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 409 || apiErr.Code != einvoice.ErrorCodeConflict {
		return fmt.Errorf("an IRN reference reused: want a 409 conflict, got %v", err)
	}

	var bid einvoice.UUID
	if err := bid.UnmarshalText([]byte(*project.Authority.BusinessId)); err != nil {
		return err
	}
	iv, err := api.ValidateIRNWithResponse(ctx, nil, einvoice.ValidateIRNRequest{InvoiceReference: "SDKFLOW1", BusinessId: bid, Irn: ir.JSON200.Irn})
	if err != nil || !iv.JSON200.Valid {
		return fmt.Errorf("validate IRN: %v", err)
	}
	png := einvoice.Png
	qr, err := api.GenerateQRWithResponse(ctx, &einvoice.GenerateQRParams{Include: &png}, einvoice.QRRequest{Irn: ir.JSON200.Irn})
	if err != nil || len(qr.JSON200.QrPayload) != 344 || qr.JSON200.QrPngBase64 == nil {
		return fmt.Errorf("QR: %v", err)
	}

	rr, err := api.RenderInvoiceWithResponse(ctx, nil, einvoice.RenderRequest{InvoiceType: "B2B", Payload: invoice})
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	if rr.JSON200.Totals.PayableAmount != "75250.00" || len(rr.JSON200.Taxes) != 1 || rr.JSON200.Qr.Payload == "" {
		return fmt.Errorf("render: unexpected view: %s", rr.Body)
	}
	var pdf bytes.Buffer
	name, err := api.RenderPDF(ctx, einvoice.RenderRequest{InvoiceType: "B2B", Payload: invoice}, &pdf)
	if err != nil {
		return fmt.Errorf("render PDF: %w", err)
	}
	if !bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-")) || filepath.Ext(name) != ".pdf" {
		return fmt.Errorf("render PDF: %q of %d bytes", name, pdf.Len())
	}

	started, err := api.StartCertificationRunWithResponse(ctx, nil, einvoice.CertificationRequest{InvoiceType: "B2G", IssueDate: issue})
	if err != nil {
		return fmt.Errorf("start run: %w", err)
	}
	done, err := api.WaitForRun(ctx, started.JSON200.RunId, 200*time.Millisecond)
	if err != nil {
		return fmt.Errorf("wait for run: %w", err)
	}
	if done.Status != einvoice.CertificationRunStatusPassed || done.FinishedAt == nil || len(done.Steps) == 0 {
		return fmt.Errorf("run %s ended %s (%v)", done.RunId, done.Status, done.FailureReason)
	}

	us, err := api.UsageWithResponse(ctx, nil)
	if err != nil || us.JSON200.Total < 7 {
		return fmt.Errorf("usage: %v", err)
	}
	al, err := portal.ListAuditLogsWithResponse(ctx, &einvoice.ListAuditLogsParams{OrganizationId: &org})
	if err != nil {
		return fmt.Errorf("audit logs: %w", err)
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

	grace := einvoice.RotateKeyParams{}
	rot, err := portal.RotateKeyWithResponse(ctx, project.Id, key.Id, &grace)
	if err != nil {
		return fmt.Errorf("rotate: %w", err)
	}
	if _, err := api.UsageWithResponse(ctx, nil); !errors.As(err, &apiErr) || apiErr.StatusCode != 401 {
		return fmt.Errorf("the rotated-out secret: want a 401, got %v", err)
	}
	api = api.WithAPIKey(key.ClientId, rot.JSON200.ClientSecret)
	if _, err := api.UsageWithResponse(ctx, nil); err != nil {
		return fmt.Errorf("the new secret: %w", err)
	}
	if _, err := portal.RevokeKeyWithResponse(ctx, project.Id, key.Id); err != nil {
		return fmt.Errorf("revoke: %w", err)
	}
	if _, err := api.UsageWithResponse(ctx, nil); !errors.As(err, &apiErr) || apiErr.Code != einvoice.ErrorCodeUnauthenticated {
		return fmt.Errorf("a revoked key: want a 401 unauthenticated, got %v", err)
	}
	return nil
}
