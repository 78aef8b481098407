package client_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image/png"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/einvoice-ng/einvoice/rest/client"
)

// baseURL is where the examples find einvoice: einvoice dev's address
// (go test points it at the server TestMain starts).
var baseURL = "http://127.0.0.1:8080"

// Sign up, create a sandbox project (provisioned at once against the NRS
// stand-in) and an API key for your systems. Portal operations take the
// user's access token, invoice operations the key.
func Example_signup() {
	ctx := context.Background()
	c, err := client.New(baseURL)
	if err != nil {
		log.Fatal(err)
	}
	s, err := c.SignupWithResponse(ctx, client.SignupRequest{Email: "ada@example.com", Password: "correct horse battery",
		OrganizationName: "Sango Building Supplies", OrganizationSlug: "sango"})
	if err != nil {
		log.Fatal(err)
	}
	portal := c.WithBearerToken(s.JSON200.AccessToken)
	p, err := portal.CreateProjectWithResponse(ctx, nil, client.ProjectRequest{OrganizationId: s.JSON200.Organization.Id, Name: "Web shop"})
	if err != nil {
		log.Fatal(err)
	}
	k, err := portal.CreateKeyWithResponse(ctx, p.JSON200.Id, nil, client.KeyRequest{KeyName: "erp"})
	if err != nil {
		log.Fatal(err)
	}
	// The secret is in this answer only: keep it.
	api := c.WithAPIKey(k.JSON200.ClientId, k.JSON200.ClientSecret)
	u, err := api.UsageWithResponse(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("project:", p.JSON200.Environment, p.JSON200.Authority.BusinessId != nil)
	fmt.Println("key:", strings.HasPrefix(k.JSON200.ClientSecret, "cs_sandbox_"), len(k.JSON200.Scopes) > 1)
	fmt.Println("calls so far:", u.JSON200.Total)
	// Output:
	// project: sandbox true
	// key: true true
	// calls so far: 0
}

// Keys: list them (never their secrets), rotate one with a grace period
// for the old secret, revoke one.
func Example_keys() {
	ctx := context.Background()
	portal, _, project := sandbox("keys")
	keys, err := portal.ListKeysWithResponse(ctx, project.Id, nil)
	if err != nil {
		log.Fatal(err)
	}
	key := keys.JSON200.Items[0]
	grace := 3600
	rot, err := portal.RotateKeyWithResponse(ctx, project.Id, key.Id, &client.RotateKeyParams{GraceSeconds: &grace})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := portal.RevokeKeyWithResponse(ctx, project.Id, key.Id); err != nil {
		log.Fatal(err)
	}
	fmt.Println("keys:", len(keys.JSON200.Items), "new secret:", rot.JSON200.ClientSecret != "")
	// Output:
	// keys: 1 new secret: true
}

// Validate an invoice against NRS's schema, code lists and rules: Valid
// means NRS would accept it. The sample is made out by the key's project;
// it gets its IRN first (the IRN is a mandatory field).
func Example_validate() {
	ctx := context.Background()
	_, api, _ := sandbox("validate")
	sample, err := api.InvoiceSampleWithResponse(ctx, "B2B", nil)
	if err != nil {
		log.Fatal(err)
	}
	invoice := *sample.JSON200
	day, err := time.Parse(time.DateOnly, invoice.IssueDate)
	if err != nil {
		log.Fatal(err)
	}
	irn, err := api.GenerateIRNWithResponse(ctx, nil, client.IRNRequest{InvoiceReference: "INV001", InvoiceTypeCode: "B2B",
		TaxAuthorityCode: "NRS", IssueDate: client.Date{Time: day}})
	if err != nil {
		log.Fatal(err)
	}
	invoice.Irn = irn.JSON200.Irn
	v, err := api.ValidateInvoiceWithResponse(ctx, nil, client.ValidateInvoiceRequest{InvoiceTypeCode: "B2B", TaxAuthorityCode: "NRS", Payload: invoice})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("valid:", v.JSON200.Valid, "errors:", len(v.JSON200.Errors), "warnings:", len(v.JSON200.Warnings))
	// Output:
	// valid: true errors: 0 warnings: 0
}

// The IRN of an invoice: {invoice reference}-{service id}-{YYYYMMDD}. The
// same reference and date give the same IRN; another date is a conflict.
// invoice_type_code takes the kind (B2B, B2C, B2G) or NRS's type code (381).
func Example_irn() {
	ctx := context.Background()
	_, api, project := sandbox("irn")
	day := client.Date{Time: time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC)}
	irn, err := api.GenerateIRNWithResponse(ctx, nil, client.IRNRequest{InvoiceReference: "INV001", InvoiceTypeCode: "B2B",
		TaxAuthorityCode: "NRS", IssueDate: day})
	if err != nil {
		log.Fatal(err)
	}
	var business client.UUID
	if err := business.UnmarshalText([]byte(irn.JSON200.BusinessId)); err != nil {
		log.Fatal(err)
	}
	check, err := api.ValidateIRNWithResponse(ctx, nil, client.ValidateIRNRequest{InvoiceReference: "INV001",
		BusinessId: business, Irn: irn.JSON200.Irn})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(irn.JSON200.Irn == "INV001-"+*project.Authority.ServiceId+"-20260315", check.JSON200.Valid)
	// Output:
	// true true
}

// The QR payload NRS prescribes, encrypted with the project's key, and the
// QR image (level H) to print on the invoice.
func Example_qr() {
	ctx := context.Background()
	_, api, _ := sandbox("qr")
	irn, err := api.GenerateIRNWithResponse(ctx, nil, client.IRNRequest{InvoiceReference: "INV001", InvoiceTypeCode: "B2B",
		TaxAuthorityCode: "NRS", IssueDate: client.Date{Time: time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC)}})
	if err != nil {
		log.Fatal(err)
	}
	withPNG := client.GenerateQRParamsInclude("png")
	qr, err := api.GenerateQRWithResponse(ctx, &client.GenerateQRParams{Include: &withPNG}, client.QRRequest{Irn: irn.JSON200.Irn})
	if err != nil {
		log.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(*qr.JSON200.QrPngBase64)
	if err != nil {
		log.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("payload:", len(qr.JSON200.QrPayload), "characters;", "image square:", img.Bounds().Dx() == img.Bounds().Dy())
	// Output:
	// payload: 344 characters; image square: true
}

// Submit an invoice to NRS (for a sandbox project, the stand-in): accepted
// at once, then signed, transmitted and confirmed by a workflow; wait for
// it and download its PDF, with its IRN and confirmed QR code.
func Example_submit() {
	ctx := context.Background()
	_, api, _ := sandbox("submit")
	sample, err := api.InvoiceSampleWithResponse(ctx, "B2B", nil)
	if err != nil {
		log.Fatal(err)
	}
	ref := "INV0042" // the IRN is generated from it and the issue date
	sub, err := api.SubmitInvoiceWithResponse(ctx, nil, client.InvoiceSubmission{InvoiceType: "B2B", InvoiceReference: &ref, Payload: *sample.JSON200})
	if err != nil {
		log.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	inv, err := api.WaitForInvoice(wctx, sub.JSON202.Id, 500*time.Millisecond)
	if err != nil {
		log.Fatal(err)
	}
	pdf, err := api.SubmittedInvoicePdfWithResponse(ctx, inv.Id)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("accepted:", sub.JSON202.Status)
	fmt.Println("final:", inv.Status, strings.HasPrefix(inv.Irn, "INV0042-"))
	fmt.Println("pdf:", bytes.HasPrefix(pdf.Body, []byte("%PDF-")))
	// Output:
	// accepted: queued
	// final: confirmed true
	// pdf: true
}

// Verify a webhook delivery's Einvoice-Signature against the raw body and
// the endpoint's signing secret (shown once, when the endpoint is
// created). Here a test ping is delivered to a local receiver.
func ExampleVerifyWebhook() {
	ctx := context.Background()
	portal, _, project := sandbox("webhooks")
	var secret string
	got := make(chan string, 1)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, "unreadable", http.StatusBadRequest)
			return
		}
		if err := client.VerifyWebhook(body, r.Header.Get(client.WebhookSignatureHeader), secret, 0, time.Now()); err != nil {
			http.Error(w, "bad signature", http.StatusBadRequest)
			return
		}
		// Every event of the project comes here; this example waits for
		// the test event (an API key created just before the endpoint may
		// come first).
		if typ := r.Header.Get("Einvoice-Event-Type"); typ == "test.ping" {
			select {
			case got <- typ:
			default: // a redelivery
			}
		}
	}))
	defer receiver.Close()
	ep, err := portal.CreateWebhookEndpointWithResponse(ctx, project.Id, nil, client.WebhookEndpointRequest{Url: receiver.URL + "/hooks"})
	if err != nil {
		log.Fatal(err)
	}
	secret = ep.JSON200.Secret
	if _, err := portal.TestWebhookEndpointWithResponse(ctx, project.Id, ep.JSON200.Id, nil); err != nil {
		log.Fatal(err)
	}
	select {
	case typ := <-got:
		fmt.Println("verified", typ)
	case <-time.After(2 * time.Minute):
		fmt.Println("no delivery")
	}
	// Output:
	// verified test.ping
}
