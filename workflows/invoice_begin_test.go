package workflows_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// An attempt of BeginInvoice that finds no row looks again within the
// attempt: a row committed while it waits is begun by that attempt, and a
// row that does not come fails the attempt retryably (ErrNotYet), not
// for good.
func TestBeginInvoiceWaitsForItsRow(t *testing.T) {
	e := certtest.New(t, certtest.Options{Open: storetest.SQLite})
	acts, err := workflows.NewInvoiceActivities(workflows.InvoiceActivitiesConfig{Steps: e.App.SubmissionSteps, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := suite.NewTestActivityEnvironment()
	env.RegisterActivity(acts)
	pr := e.Tenant.Project

	missing := workflows.InvoiceStep{ProjectID: pr.ID, IRN: "INV00404-94ND90NR-20261124"}
	_, err = env.ExecuteActivity(workflows.ActivityBeginInvoice, missing)
	appError(t, err, workflows.ErrNotYet, false)

	irn := "INV00001-94ND90NR-20261124"
	now := time.Now().UTC()
	inv := &model.SubmittedInvoice{ID: uuid.Must(uuid.NewV7()), ProjectID: pr.ID, OrganizationID: pr.OrganizationID,
		Environment: pr.Environment, IRN: irn, InvoiceType: model.InvoiceKindB2B, InvoiceTypeCode: "396",
		Payload: `{}`, PayloadHash: "x", Status: model.InvoiceQueued, IssueDate: "2026-11-24", WorkflowID: "invoice-" + irn,
		CreatedAt: now, UpdatedAt: now}
	created := make(chan error, 1)
	go func() {
		// The row commits after the activity began, as Submit commits it
		// after the workflow started.
		time.Sleep(20 * time.Millisecond)
		created <- e.Store.Submissions().Create(context.Background(), inv)
	}()
	v, err := env.ExecuteActivity(workflows.ActivityBeginInvoice, workflows.InvoiceStep{ProjectID: pr.ID, IRN: irn})
	if cerr := <-created; cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Fatalf("BeginInvoice on a row committed while it waited: %v", err)
	}
	var out workflows.InvoiceStepResult
	if err := v.Get(&out); err != nil {
		t.Fatal(err)
	}
	if out.InvoiceID != inv.ID || out.Status != model.InvoiceSubmitting {
		t.Fatalf("BeginInvoice answered %+v, want invoice %s submitting", out, inv.ID)
	}
}
