package einvoice_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	einvoice "github.com/einvoice-ng/einvoice/rest/client"
)

// A sandbox project from signup to a rendered PDF: the portal token
// creates the project and its API key, the key calls the invoice
// operations.
func Example() {
	ctx := context.Background()
	c, err := einvoice.New("http://127.0.0.1:8080") // einvoice dev
	if err != nil {
		log.Fatal(err)
	}
	s, err := c.SignupWithResponse(ctx, einvoice.SignupRequest{
		Email: "ada@example.com", Password: "correct horse battery",
		OrganizationName: "Sango Building Supplies", OrganizationSlug: "sango",
	})
	if err != nil {
		log.Fatal(err)
	}
	portal := c.WithBearerToken(s.JSON200.AccessToken)
	project, err := portal.CreateProjectWithResponse(ctx, nil, einvoice.ProjectRequest{
		OrganizationId: s.JSON200.Organization.Id, Name: "Web shop", // a sandbox project, provisioned at once
	})
	if err != nil {
		log.Fatal(err)
	}
	key, err := portal.CreateKeyWithResponse(ctx, project.JSON200.Id, nil, einvoice.KeyRequest{KeyName: "erp"})
	if err != nil {
		log.Fatal(err)
	}
	// The secret is shown once: keep it.
	api := c.WithAPIKey(key.JSON200.ClientId, key.JSON200.ClientSecret)

	irn, err := api.GenerateIRNWithResponse(ctx, nil, einvoice.IRNRequest{
		InvoiceReference: "INV001", InvoiceTypeCode: "381", TaxAuthorityCode: "NRS",
		IssueDate: einvoice.Date{Time: time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC)},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("IRN:", irn.JSON200.Irn)

	invoice := einvoice.NRSInvoice{ /* the invoice, as NRS defines it */ }
	report, err := api.ValidateInvoiceWithResponse(ctx, nil, einvoice.ValidateInvoiceRequest{
		InvoiceTypeCode: "B2B", TaxAuthorityCode: "NRS", Payload: invoice,
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, issue := range report.JSON200.Errors {
		fmt.Println(issue.Rule, issue.Path, issue.Message)
	}

	f, err := os.Create("invoice.pdf")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if _, err := api.RenderPDF(ctx, einvoice.RenderRequest{InvoiceType: "B2B", Payload: invoice}, f); err != nil {
		log.Fatal(err)
	}
}

// Errors other than 2xx are *APIError values: the status, the code and,
// for a 422, every problem with its location.
func ExampleAPIError() {
	ctx := context.Background()
	c, _ := einvoice.New("http://127.0.0.1:8080", einvoice.WithBearerToken(os.Getenv("EINVOICE_TOKEN")))
	_, err := c.CreateOrganizationWithResponse(ctx, nil, einvoice.OrganizationRequest{Name: "Sango", Slug: "Not A Slug"})
	var apiErr *einvoice.APIError
	switch {
	case errors.As(err, &apiErr) && apiErr.StatusCode == 422:
		for _, p := range apiErr.Problems {
			fmt.Println(p.Type, p.Msg)
		}
	case errors.As(err, &apiErr) && apiErr.Code == einvoice.ErrorCodeQuotaExceeded:
		fmt.Println("too many organizations; request", apiErr.RequestID)
	case err != nil:
		log.Fatal(err)
	}
}

// A certification run executes as a workflow: start it, then wait for its
// end.
func ExampleClient_WaitForRun() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	api, _ := einvoice.New("http://127.0.0.1:8080", einvoice.WithAPIKey(os.Getenv("EINVOICE_CLIENT_ID"), os.Getenv("EINVOICE_CLIENT_SECRET")))
	started, err := api.StartCertificationRunWithResponse(ctx, nil, einvoice.CertificationRequest{
		InvoiceType: "B2B", IssueDate: einvoice.Date{Time: time.Now()},
	})
	if err != nil {
		log.Fatal(err)
	}
	run, err := api.WaitForRun(ctx, started.JSON200.RunId, time.Second)
	if err != nil {
		log.Fatal(err)
	}
	for _, step := range run.Steps {
		fmt.Println(step.Name, step.Status, step.Message)
	}
	fmt.Println("run", run.Status)
}

// Retries are bounded and configurable; Retry{MaxAttempts: 1} turns them
// off.
func ExampleWithRetry() {
	api, err := einvoice.New("https://einvoice.example.com",
		einvoice.WithAPIKey(os.Getenv("EINVOICE_CLIENT_ID"), os.Getenv("EINVOICE_CLIENT_SECRET")),
		einvoice.WithRetry(einvoice.Retry{MaxAttempts: 6, MaxDelay: time.Minute}))
	if err != nil {
		log.Fatal(err)
	}
	_ = api
}
