package workflows_test

import (
	"context"
	"encoding/base64"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/workflows"
)

// internalBody is what an internal service answers; it must never reach a
// tenant's evidence.
const internalBody = "INTERNAL-ADMIN db_password=hunter2 stack trace follows"

// TestAttackSSRFBaseURL replays the review's SSRF through a production
// project's base_url: the tenant aims the worker at an internal service
// that answers 500 with its secrets, or redirects to a collector.
//
//   - With the operator's default policy, the call never leaves: the
//     internal address is refused at connection time.
//   - Where the operator allowed it (development), a redirect is not
//     followed (the collector never sees the credentials or the invoice)
//     and the evidence records the status, never the body.
func TestAttackSSRFBaseURL(t *testing.T) {
	var hits, collected atomic.Int64
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { collected.Add(1) }))
	t.Cleanup(collector.Close)
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/api" { // the health check
			http.Redirect(w, r, collector.URL+"/collect", http.StatusTemporaryRedirect)
			return
		}
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(internalBody))
	}))
	t.Cleanup(internal.Close)

	st := storetest.SQLite(t)
	svc := apptest.New(t, st, func(c *app.Config) {
		c.Egress = egress.Policy{AllowPrivate: true, Origins: []string{internal.URL}}
	})
	ctx := context.Background()
	su, err := svc.Auth.Signup(ctx, auth.SignupInput{Email: "t@example.com", Password: "correct horse battery", OrganizationName: "Tenant", OrganizationSlug: "tenant"})
	if err != nil {
		t.Fatal(err)
	}
	u := &model.Principal{UserID: su.User.ID}
	pr, err := svc.Portal.CreateProject(ctx, u, portal.ProjectInput{OrganizationID: su.Organization.ID.String(), Name: "Live", Environment: "production"})
	if err != nil {
		t.Fatal(err)
	}
	keys, err := apptest.SandboxKeys()
	if err != nil {
		t.Fatal(err)
	}
	apiKey, apiSecret, base := "nrs-key", "nrs-secret-value", internal.URL
	if _, err := svc.Portal.UpdateAuthority(ctx, u, pr.ID, portal.AuthorityInput{
		TaxAuthorityCode: "NRS", BusinessID: uuid.NewString(), ServiceID: "94ND90NR",
		PublicKey: base64.StdEncoding.EncodeToString([]byte(keys.PublicKeyPEM)), Certificate: "Y2VydGlmaWNhdGU=",
		APIKey: &apiKey, APISecret: &apiSecret, BaseURL: &base,
	}); err != nil {
		t.Fatal(err)
	}

	runStep := func(policy egress.Policy, step func(*workflows.Activities) any) (error, model.CertificationStep) {
		t.Helper()
		acts, err := workflows.NewActivities(workflows.ActivitiesConfig{Runs: svc.Steps, MBS: workflows.MBSClients(policy), Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		var suite testsuite.WorkflowTestSuite
		suite.SetLogger(sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
		env := suite.NewTestActivityEnvironment()
		env.RegisterActivity(acts)
		id := uuid.Must(uuid.NewV7())
		run := &model.CertificationRun{ID: id, ProjectID: pr.ID, InvoiceType: model.InvoiceKindB2B, WorkflowID: workflows.WorkflowID(id),
			IssueDate: "2026-03-15", Status: model.RunRunning, CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
		if err := st.Runs().Create(ctx, run); err != nil {
			t.Fatal(err)
		}
		_, aerr := env.ExecuteActivity(step(acts), workflows.StepInput{RunID: run.ID})
		steps, err := st.Runs().Steps(ctx, run.ID)
		if err != nil || len(steps) != 1 {
			t.Fatalf("evidence: %v %v", steps, err)
		}
		return aerr, steps[0]
	}
	health := func(a *workflows.Activities) any { return a.Health }
	codeLists := func(a *workflows.Activities) any { return a.CodeLists }

	// The default policy: refused before any byte leaves.
	err, ev := runStep(egress.Policy{}, health)
	if err == nil || ev.Status != model.StepRetrying && ev.Status != model.StepFailed || !strings.Contains(ev.Message, "loopback") {
		t.Fatalf("strict policy: %v, evidence %s %q", err, ev.Status, ev.Message)
	}
	if hits.Load() != 0 {
		t.Fatalf("the internal service was reached %d times under the strict policy", hits.Load())
	}

	// Private destinations allowed: the redirect comes back as a refusal.
	err, ev = runStep(egress.Policy{AllowPrivate: true}, health)
	if err == nil || ev.Status != model.StepFailed || ev.HTTPStatus == nil || *ev.HTTPStatus != http.StatusTemporaryRedirect {
		t.Fatalf("redirect: %v, evidence %+v", err, ev)
	}
	if collected.Load() != 0 {
		t.Fatal("the redirect was followed to the collector")
	}
	// The internal service's 500 body stays out of the evidence.
	err, ev = runStep(egress.Policy{AllowPrivate: true}, codeLists)
	if err == nil || ev.HTTPStatus == nil || *ev.HTTPStatus != http.StatusInternalServerError {
		t.Fatalf("500: %v, evidence %+v", err, ev)
	}
	for _, leak := range []string{"INTERNAL-ADMIN", "hunter2", "stack trace"} {
		if strings.Contains(ev.Message, leak) || strings.Contains(err.Error(), leak) {
			t.Fatalf("the evidence holds the internal body: %q / %v", ev.Message, err)
		}
	}
	if !strings.Contains(ev.Message, "HTTP 500") {
		t.Fatalf("the evidence lacks the status: %q", ev.Message)
	}
}
