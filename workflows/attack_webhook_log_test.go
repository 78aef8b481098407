package workflows_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/webhooks"
	"github.com/einvoice-ng/einvoice/workflows"
)

// TestAttackWebhookLogKeepsBody: the delivery log kept the first 1 KiB of
// every answer and showed it to the tenant, so where private addresses are
// allowed (EINVOICE_WEBHOOK_ALLOW_PRIVATE) a tenant aimed an endpoint at
// an internal page and read it. The log now keeps the status and, for an
// answer other than 2xx, a fixed reason, whatever the answer says.
func TestAttackWebhookLogKeepsBody(t *testing.T) {
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ok" {
			_, _ = w.Write([]byte(internalBody))
			return
		}
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(internalBody))
	}))
	t.Cleanup(internal.Close)

	st := storetest.SQLite(t)
	svc := apptest.New(t, st, func(c *app.Config) {
		c.Webhooks.AllowPrivate, c.Webhooks.AllowHTTP = true, true
	})
	ctx := context.Background()
	su, err := svc.Auth.Signup(ctx, auth.SignupInput{Email: "t@example.com", Password: "correct horse battery", OrganizationName: "Tenant", OrganizationSlug: "tenant"})
	if err != nil {
		t.Fatal(err)
	}
	u := &model.Principal{UserID: su.User.ID}
	pr, err := svc.Portal.CreateProject(ctx, u, portal.ProjectInput{OrganizationID: su.Organization.ID.String(), Name: "Shop", Environment: "sandbox"})
	if err != nil {
		t.Fatal(err)
	}
	acts, err := workflows.NewWebhookActivities(svc.Deliveries)
	if err != nil {
		t.Fatal(err)
	}
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := suite.NewTestActivityEnvironment()
	env.RegisterActivity(acts)

	for _, c := range []struct {
		path   string
		status int
		reason string
	}{
		{"/fail", http.StatusInternalServerError, "the endpoint answered 500 Internal Server Error"},
		{"/ok", http.StatusOK, ""},
	} {
		t.Run(c.path, func(t *testing.T) {
			ep, err := svc.Webhooks.Create(ctx, u, pr.ID, webhooks.EndpointInput{URL: internal.URL + c.path})
			if err != nil {
				t.Fatal(err)
			}
			sent, err := svc.Webhooks.Test(ctx, u, pr.ID, ep.ID)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := env.ExecuteActivity(acts.DeliverWebhook, workflows.WebhookAttempt{DeliveryID: sent.Deliveries[0].DeliveryID, Attempt: 1}); err != nil {
				t.Fatal(err)
			}
			log, err := svc.Webhooks.Attempts(ctx, u, pr.ID, ep.ID, webhooks.AttemptsInput{})
			if err != nil {
				t.Fatal(err)
			}
			if len(log.Items) != 1 {
				t.Fatalf("%d attempts", len(log.Items))
			}
			a := log.Items[0]
			if a.HTTPStatus == nil || *a.HTTPStatus != c.status {
				t.Fatalf("status %v, want %d", a.HTTPStatus, c.status)
			}
			if strings.Contains(a.ResponseBody+a.Error, "hunter2") || a.ResponseBody != "" {
				t.Fatalf("the delivery log shows the answer: body %q, error %q", a.ResponseBody, a.Error)
			}
			if !strings.HasPrefix(a.Error, c.reason) || (c.reason == "") != (a.Error == "") {
				t.Fatalf("reason %q, want %q", a.Error, c.reason)
			}
		})
	}
}
