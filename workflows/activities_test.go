package workflows_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/authority"
	"github.com/einvoice-ng/einvoice/model/egress"
	"github.com/einvoice-ng/einvoice/model/invoices"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// activityEnv runs the real activities against the stand-in and a real
// store, one step at a time, without a workflow.
type activityEnv struct {
	t    *testing.T
	e    *certtest.Env
	acts *workflows.Activities
	env  *testsuite.TestActivityEnvironment
}

func newActivityEnv(t *testing.T, d storetest.Dialect) *activityEnv {
	t.Helper()
	e := certtest.New(t, certtest.Options{Open: d.Open})
	acts, err := workflows.NewActivities(workflows.ActivitiesConfig{Runs: e.App.Steps, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := suite.NewTestActivityEnvironment()
	env.RegisterActivity(acts)
	return &activityEnv{t: t, e: e, acts: acts, env: env}
}

// exec runs one activity; out may be nil.
func (a *activityEnv) exec(fn, in, out any) error {
	a.t.Helper()
	v, err := a.env.ExecuteActivity(fn, in)
	if err == nil && out != nil {
		if gerr := v.Get(out); gerr != nil {
			a.t.Fatal(gerr)
		}
	}
	return err
}

func (a *activityEnv) must(fn, in, out any) {
	a.t.Helper()
	if err := a.exec(fn, in, out); err != nil {
		a.t.Fatalf("activity failed: %v", err)
	}
}

// evidence returns the run's step rows by name.
func (a *activityEnv) evidence(run *model.CertificationRun) map[string]model.CertificationStep {
	a.t.Helper()
	steps, err := a.e.Store.Runs().Steps(context.Background(), run.ID)
	if err != nil {
		a.t.Fatal(err)
	}
	out := map[string]model.CertificationStep{}
	for _, s := range steps {
		out[s.Name] = s
	}
	return out
}

// appError asserts err is an application error of typ.
func appError(t *testing.T, err error, typ string, nonRetryable bool) *temporal.ApplicationError {
	t.Helper()
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != typ || app.NonRetryable() != nonRetryable {
		t.Fatalf("error %v, want a %s application error (non-retryable %v)", err, typ, nonRetryable)
	}
	return app
}

func TestActivitiesAgainstTheStandIn(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		for _, kind := range []model.InvoiceKind{model.InvoiceKindB2B, model.InvoiceKindB2C, model.InvoiceKindB2G} {
			t.Run(d.Name+"/"+string(kind), func(t *testing.T) {
				a := newActivityEnv(t, d)
				run := a.e.NewRun(t, kind, "2026-03-15", "")
				id := workflows.StepInput{RunID: run.ID}
				acts := a.acts
				a.must(acts.StartRun, id, nil)
				a.must(acts.Health, id, nil)
				a.must(acts.CodeLists, id, nil)
				var p workflows.PayloadResult
				a.must(acts.BuildPayload, id, &p)
				want := workflows.FreshReference(run.ID) + "-" + *a.e.Tenant.Project.Authority.ServiceID + "-20260315"
				if p.IRN != want {
					t.Fatalf("IRN %s, want %s", p.IRN, want)
				}
				a.must(acts.GenerateIRN, id, nil)
				a.must(acts.ValidateIRN, id, nil)
				a.must(acts.ValidateInvoice, id, nil)
				a.must(acts.SignInvoice, id, nil)
				var qr workflows.QRResult
				a.must(acts.BuildQR, id, &qr)
				if len(qr.QRPayload) != 344 {
					t.Fatalf("QR payload of %d characters", len(qr.QRPayload))
				}
				a.must(acts.VerifyQR, workflows.QRInput{RunID: run.ID, QRPayload: qr.QRPayload}, nil)
				if kind.Transmitted() {
					a.must(acts.Transmit, id, nil)
					a.must(acts.LookupTransmission, id, nil)
				}
				a.must(acts.Confirm, id, nil)
				a.must(acts.UpdatePaid, id, nil)
				a.must(acts.ConfirmPaid, id, nil)
				a.must(acts.NegativeProbe, id, nil)
				a.must(acts.FinishRun, workflows.FinishInput{RunID: run.ID, Status: model.RunPassed}, nil)

				// Repeating steps that already passed changes nothing: the
				// stand-in would refuse a second signature or transmission.
				a.must(acts.SignInvoice, id, nil)
				a.must(acts.UpdatePaid, id, nil)
				if kind.Transmitted() {
					a.must(acts.Transmit, id, nil)
				}

				ev := a.evidence(run)
				wantSteps := 13
				if kind.Transmitted() {
					wantSteps = 15
				}
				if len(ev) != wantSteps {
					t.Fatalf("%d evidence rows, want %d: %v", len(ev), wantSteps, ev)
				}
				for name, s := range ev {
					if s.Status != model.StepPassed || s.FinishedAt == nil || s.DurationMS == nil || s.Attempts != 1 || s.Message == "" {
						t.Errorf("step %s evidence: %+v", name, s)
					}
					if strings.Contains(s.Message, a.e.Tenant.ClientSecret) {
						t.Errorf("step %s leaks a secret", name)
					}
				}
				if s := ev[workflows.StepSignInvoice]; s.HTTPStatus == nil || *s.HTTPStatus != 201 {
					t.Errorf("sign evidence: %+v", s)
				}
				if s := ev[workflows.StepNegativeProbe]; s.HTTPStatus == nil || *s.HTTPStatus != 400 || s.NRSErrorID == "" ||
					!strings.Contains(s.Message, "irn validation failed") {
					t.Errorf("negative probe evidence: %+v", s)
				}
				if _, ok := ev[workflows.StepTransmit]; ok != kind.Transmitted() {
					t.Errorf("transmit evidence present %v for %s", ok, kind)
				}
				got, err := a.e.Store.Runs().ByID(context.Background(), run.ID)
				if err != nil || got.Status != model.RunPassed || got.IRN != p.IRN || got.StartedAt == nil || got.FinishedAt == nil {
					t.Fatalf("run: %+v %v", got, err)
				}
				var doc map[string]any
				if err := json.Unmarshal([]byte(got.Payload), &doc); err != nil || doc["invoice_kind"] != string(kind) ||
					doc["business_id"] != *a.e.Tenant.Project.Authority.BusinessID || doc["irn"] != p.IRN {
					t.Fatalf("stored payload: %v %v", doc, err)
				}
			})
		}
	}
}

// payloadWith returns a fixture with another IRN reference, as a request's
// invoice_payload.
func payloadWith(t *testing.T, fixture, reference string) string {
	t.Helper()
	raw, err := os.ReadFile("../testdata/fixtures/" + fixture)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	doc["irn"] = reference + "-ABCDEFGH-20260315"
	b, _ := json.Marshal(doc)
	return string(b)
}

// upTo runs the steps before signing.
func (a *activityEnv) upTo(run *model.CertificationRun) {
	a.t.Helper()
	id := workflows.StepInput{RunID: run.ID}
	for _, fn := range []any{a.acts.StartRun, a.acts.BuildPayload, a.acts.GenerateIRN, a.acts.ValidateIRN, a.acts.ValidateInvoice} {
		a.must(fn, id, nil)
	}
}

func TestRejectionIsNonRetryableWithEvidence(t *testing.T) {
	a := newActivityEnv(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	run := a.e.NewRun(t, model.InvoiceKindB2B, "2026-03-15", payloadWith(t, "invoice-b2b-1.1.json", "SBXSIGNFAIL1"))
	a.upTo(run)
	err := a.exec(a.acts.SignInvoice, workflows.StepInput{RunID: run.ID}, nil)
	app := appError(t, err, workflows.ErrRejected, true)
	if !strings.Contains(app.Message(), "invoice signing failed") {
		t.Fatalf("message: %s", app.Message())
	}
	s := a.evidence(run)[workflows.StepSignInvoice]
	if s.Status != model.StepFailed || s.HTTPStatus == nil || *s.HTTPStatus != 400 || s.NRSErrorID == "" {
		t.Fatalf("evidence: %+v", s)
	}
}

func TestUnavailableAuthorityIsRetryable(t *testing.T) {
	a := newActivityEnv(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	run := a.e.NewRun(t, model.InvoiceKindB2C, "2026-03-15", payloadWith(t, "invoice-b2c-1.1.json", "SBXDOWN1"))
	id := workflows.StepInput{RunID: run.ID}
	a.must(a.acts.BuildPayload, id, nil)
	err := a.exec(a.acts.ValidateIRN, id, nil)
	appError(t, err, workflows.ErrUnavailable, false)
	s := a.evidence(run)[workflows.StepValidateIRN]
	if s.Status != model.StepRetrying || s.HTTPStatus == nil || *s.HTTPStatus != 503 {
		t.Fatalf("evidence: %+v", s)
	}
}

func TestPayloadRejectedByOurValidator(t *testing.T) {
	a := newActivityEnv(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	run := a.e.NewRun(t, model.InvoiceKindB2B, "2026-03-15", payloadWith(t, "invalid-missing-supplier-tin.json", "INV77"))
	err := a.exec(a.acts.BuildPayload, workflows.StepInput{RunID: run.ID}, nil)
	app := appError(t, err, workflows.ErrInvalid, true)
	if !strings.Contains(app.Message(), "/accounting_supplier_party/tin") {
		t.Fatalf("message: %s", app.Message())
	}
	if s := a.evidence(run)[workflows.StepBuildPayload]; s.Status != model.StepFailed {
		t.Fatalf("evidence: %+v", s)
	}
}

func TestStartRunWaitsForTheRow(t *testing.T) {
	a := newActivityEnv(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	run := a.e.NewRun(t, model.InvoiceKindB2B, "2026-03-15", "")
	missing := workflows.StepInput{RunID: [16]byte{1}}
	appError(t, a.exec(a.acts.StartRun, missing, nil), workflows.ErrNotYet, false)
	a.must(a.acts.StartRun, workflows.StepInput{RunID: run.ID}, nil)
}

func TestForgottenSandboxInvoiceIsExplained(t *testing.T) {
	a := newActivityEnv(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	run := a.e.NewRun(t, model.InvoiceKindB2B, "2026-03-15", "")
	id := workflows.StepInput{RunID: run.ID}
	a.must(a.acts.BuildPayload, id, nil)
	// The stand-in never saw this invoice, as after its database was reset.
	app := appError(t, a.exec(a.acts.Transmit, id, nil), workflows.ErrRejected, true)
	if !strings.Contains(app.Message(), "HTTP 404") || !strings.Contains(app.Message(), "does not hold this invoice") {
		t.Fatalf("message: %s", app.Message())
	}
}

// TestCodeListsStepStoresOfficialLists checks the code_lists step: lists
// fetched from the official host of the project's environment (here the
// sandbox, the stand-in) are stored and used for the environment's
// validation; lists fetched from any other host are counted, never stored.
func TestCodeListsStepStoresOfficialLists(t *testing.T) {
	ctx := context.Background()
	// Sandbox projects always call the configured sandbox; a project on
	// another host is a production project whose base_url is one of the
	// operator's hosts other than the official one: here another address
	// of the same stand-in.
	var standIn atomic.Value
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		standIn.Load().(http.Handler).ServeHTTP(w, r)
	}))
	t.Cleanup(elsewhere.Close)
	e := certtest.New(t, certtest.Options{App: func(c *app.Config) {
		c.Egress = egress.Policy{AllowPrivate: true, Origins: []string{authority.DefaultProductionBaseURL, elsewhere.URL}}
	}})
	standIn.Store(http.Handler(e.Sandbox))
	acts, err := workflows.NewActivities(workflows.ActivitiesConfig{Runs: e.App.Steps,
		MBS: workflows.MBSClients(egress.Policy{AllowPrivate: true}), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := suite.NewTestActivityEnvironment()
	env.RegisterActivity(acts)
	a := &activityEnv{t: t, e: e, acts: acts, env: env}

	keys, err := apptest.SandboxKeys()
	if err != nil {
		t.Fatal(err)
	}
	apiKey, apiSecret, base := "k", "s", elsewhere.URL
	prod, err := e.App.Portal.CreateProject(ctx, e.Tenant.User, portal.ProjectInput{OrganizationID: e.Tenant.Project.OrganizationID.String(),
		Name: "Production elsewhere", Environment: "production"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.App.Portal.UpdateAuthority(ctx, e.Tenant.User, prod.ID, portal.AuthorityInput{
		TaxAuthorityCode: "NRS", BusinessID: uuid.NewString(), ServiceID: "94ND90NR",
		PublicKey: base64.StdEncoding.EncodeToString([]byte(keys.PublicKeyPEM)), Certificate: "Y2VydA==",
		APIKey: &apiKey, APISecret: &apiSecret, BaseURL: &base,
	}); err != nil {
		t.Fatal(err)
	}
	run := a.e.NewRun(t, model.InvoiceKindB2B, "2026-03-15", "")
	foreign := &model.CertificationRun{ID: newRunID(t), ProjectID: prod.ID, InvoiceType: model.InvoiceKindB2B,
		IssueDate: "2026-03-15", Status: model.RunQueued, CreatedAt: run.CreatedAt}
	foreign.WorkflowID = "certification-run-" + foreign.ID.String()
	if err := a.e.Store.Runs().Create(ctx, foreign); err != nil {
		t.Fatal(err)
	}
	a.must(a.acts.CodeLists, workflows.StepInput{RunID: foreign.ID}, nil)
	if msg := a.evidence(foreign)[workflows.StepCodeLists].Message; !strings.Contains(msg, "not stored") {
		t.Errorf("evidence: %s", msg)
	}
	if v, _ := a.e.Store.CodeLists().Versions(ctx); len(v) != 0 {
		t.Fatalf("lists from another host were stored: %+v", v)
	}

	// The tenant's project talks to the sandbox itself: the lists are stored.
	a.must(a.acts.CodeLists, workflows.StepInput{RunID: run.ID}, nil)
	ev := a.evidence(run)[workflows.StepCodeLists]
	if ev.Status != model.StepPassed || !strings.Contains(ev.Message, "stored for sandbox validation") || ev.HTTPStatus == nil {
		t.Errorf("evidence: %+v", ev)
	}
	stored, err := a.e.Store.CodeLists().List(ctx, "NRS", model.EnvironmentSandbox)
	if err != nil || len(stored) == 0 {
		t.Fatalf("stored lists: %v %v", stored, err)
	}
	names := map[string]bool{}
	for _, l := range stored {
		names[l.Name] = true
		if l.SHA256 == "" || l.Entries == 0 || len(l.Data) == 0 {
			t.Errorf("stored list %s: %d entries", l.Name, l.Entries)
		}
	}
	if !names["payment-means"] || !names["invoice-types"] {
		t.Errorf("stored %v", names)
	}
	// Validation in the sandbox now names the refreshed lists.
	r, err := a.e.App.Invoices.Validate(ctx, a.e.Tenant.Key, invoices.ValidateInput{Payload: map[string]any{}})
	if err != nil || !strings.HasSuffix(r.Ruleset, " sandbox") {
		t.Errorf("ruleset after the step: %v %v", r, err)
	}
}

func newRunID(t *testing.T) uuid.UUID {
	t.Helper()
	id, err := uuid.NewV7()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestStepMessagesCountTemporalAttempts runs a whole run whose authority is
// down for its IRN (SBXDOWN) with the real activities under the workflow's
// retry policy: the step's evidence counts attempts as Temporal does (the
// last is attempt 8 of 8, the number the Web UI and the CLI show) and says
// so, and counts the HTTP requests of one attempt apart.
func TestStepMessagesCountTemporalAttempts(t *testing.T) {
	e := certtest.New(t, certtest.Options{RetryAfter: -1})
	acts, err := workflows.NewActivities(workflows.ActivitiesConfig{Runs: e.App.Steps, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	run := e.NewRun(t, model.InvoiceKindB2C, "2026-03-15", payloadWith(t, "invoice-b2c-1.1.json", "SBXDOWN2"))
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := suite.NewTestWorkflowEnvironment()
	env.SetTestTimeout(2 * time.Minute)
	env.RegisterWorkflow(workflows.CertificationRun)
	env.RegisterActivity(acts)
	env.ExecuteWorkflow(workflows.CertificationRun, runs.WorkflowInput{RunID: run.ID, ProjectID: run.ProjectID,
		InvoiceType: run.InvoiceType, IssueDate: run.IssueDate, Sandbox: true})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() == nil {
		t.Fatalf("the run must fail: completed %t, error %v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	stored, err := e.Store.Runs().ByID(context.Background(), run.ID)
	if err != nil || stored.Status != model.RunFailed {
		t.Fatalf("run: %+v %v", stored, err)
	}
	ev, err := e.Store.Runs().Step(context.Background(), run.ID, workflows.StepValidateIRN)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Status != model.StepFailed || ev.Attempts != 8 {
		t.Fatalf("evidence: %+v", ev)
	}
	// The test environment gives activities no retry policy to read, so
	// "of 8" is optional here; a server gives it.
	if !regexp.MustCompile(`\(after 3 HTTP requests within this call\) \[attempt 8( of 8)? \(Temporal activity attempt\)\]$`).MatchString(ev.Message) {
		t.Fatalf("message %q does not count the Temporal attempt and the HTTP requests apart", ev.Message)
	}
	if !strings.Contains(stored.FailureReason, workflows.StepValidateIRN) {
		t.Fatalf("failure reason: %q", stored.FailureReason)
	}
}

// TestStepOfAFinishedRunDoesNothing: an activity that runs after its run
// ended (its workflow was cancelled while the attempt was queued or under
// way) is refused without calling the authority, writes no evidence and
// leaves the run as it was.
func TestStepOfAFinishedRunDoesNothing(t *testing.T) {
	a := newActivityEnv(t, storetest.Dialect{Name: "sqlite", Open: storetest.SQLite})
	run := a.e.NewRun(t, model.InvoiceKindB2B, "2026-03-15", "")
	id := workflows.StepInput{RunID: run.ID}
	a.must(a.acts.StartRun, id, nil)
	a.must(a.acts.Health, id, nil)
	a.must(a.acts.FinishRun, workflows.FinishInput{RunID: run.ID, Status: model.RunCancelled, Reason: "the run was cancelled"}, nil)
	before, err := a.e.Store.Runs().ByID(context.Background(), run.ID)
	if err != nil {
		t.Fatal(err)
	}
	evBefore := a.evidence(run)
	for _, fn := range []any{a.acts.CodeLists, a.acts.BuildPayload} {
		appError(t, a.exec(fn, id, nil), workflows.ErrRunOver, true)
	}
	after, err := a.e.Store.Runs().ByID(context.Background(), run.ID)
	if err != nil || !reflect.DeepEqual(before, after) {
		t.Fatalf("the run changed:\n%+v\n%+v (%v)", before, after, err)
	}
	if ev := a.evidence(run); !reflect.DeepEqual(ev, evBefore) || len(ev) != 1 {
		t.Fatalf("evidence changed: %+v", ev)
	}
	// A step that passed before the end still answers passed (a retried
	// report of work done), without writing.
	a.must(a.acts.Health, id, nil)
}
