package worker_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/egress"
	apikey "github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/worker"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// TestAttackCertificationFlood replays the review's flood: one tenant
// starts run after run against an authority that never answers (210 runs
// in 1.4 s once held every worker slot, and another tenant's run went from
// 0.5 s to 14.2 s). The worker here has four activity slots. The flooding
// project gets its two concurrent runs and a 429 with Retry-After for the
// rest; those two hold two slots, and another tenant's run passes beside
// them. Without the limit, the hanging runs take all four slots and the
// other tenant's run waits on them for minutes: this test then fails at
// its deadline.
func TestAttackCertificationFlood(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var hanging atomic.Int64
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hanging.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(hang.Close)
	t.Cleanup(func() { close(release) })

	r := newRig(t, certtest.Options{App: func(c *app.Config) {
		c.Egress = egress.Policy{AllowPrivate: true, Origins: []string{hang.URL}}
		c.Quotas.RunsPerProject = 2
	}})
	w, err := worker.New(r.c, worker.Options{Runs: r.e.App.Steps, TaskQueue: r.queue, Logger: quiet(),
		MaxConcurrentActivities: 4, MBS: workflows.MBSClients(egress.Policy{AllowPrivate: true})})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)

	attacker := floodingTenant(t, r, hang.URL)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		accepted []string
		refused  int
	)
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hr := httptest.NewRequest("POST", "/api/v2/certification/nrs/smoke",
				strings.NewReader(`{"invoice_type":"B2B","issue_date":"2026-03-15"}`))
			hr.Header.Set("X-Client-Id", attacker.ClientID)
			hr.Header.Set("X-Client-Secret", attacker.ClientSecret)
			rec := httptest.NewRecorder()
			r.e.Handler.ServeHTTP(rec, hr)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case rec.Code == 200:
				accepted = append(accepted, rec.Body.String())
			case rec.Code == 429 && rec.Header().Get("Retry-After") != "":
				refused++
			default:
				t.Errorf("flood start: %d %v %s", rec.Code, rec.Header(), rec.Body)
			}
		}()
	}
	wg.Wait()
	if len(accepted) != 2 || refused != 8 {
		t.Fatalf("flood of 10 starts: %d accepted, %d refused; want 2 and 8", len(accepted), refused)
	}
	// The two accepted runs hang in their first authority call, each
	// holding a worker slot.
	deadline := time.Now().Add(30 * time.Second)
	for hanging.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the flooding runs never reached the authority (%d calls)", hanging.Load())
		}
		time.Sleep(20 * time.Millisecond)
	}

	victim := r.start(`{"invoice_type":"B2B","issue_date":"2026-03-15"}`)
	run := r.wait(victim, time.Minute, final)
	if run["status"] != "passed" {
		t.Fatalf("the other tenant's run did not pass beside the flood: %v", run)
	}

	// Both tenants' workflows carry their organization as fairness key.
	d, err := r.c.DescribeWorkflowExecution(context.Background(), workflows.WorkflowID(uuid.MustParse(victim)), "")
	if err != nil {
		t.Fatal(err)
	}
	want := workflows.FairnessKey(r.e.Tenant.Project.OrganizationID)
	if got := d.GetWorkflowExecutionInfo().GetPriority().GetFairnessKey(); got != want {
		t.Fatalf("fairness key %q, want %q", got, want)
	}
	for _, body := range accepted {
		var started struct {
			RunID uuid.UUID `json:"run_id"`
		}
		if err := json.Unmarshal([]byte(body), &started); err != nil {
			t.Fatal(err)
		}
		_ = r.c.TerminateWorkflow(context.Background(), workflows.WorkflowID(started.RunID), "", "test over")
	}
}

// floodingTenant signs up a tenant with a production project whose
// authority is url, and a key.
func floodingTenant(t *testing.T, r *rig, url string) certtest.Tenant {
	t.Helper()
	ctx := context.Background()
	svc := r.e.App
	su, err := svc.Auth.Signup(ctx, auth.SignupInput{Email: "flood@example.com", Password: "correct horse battery",
		OrganizationName: "Flood", OrganizationSlug: "flood"})
	if err != nil {
		t.Fatal(err)
	}
	u := &model.Principal{UserID: su.User.ID}
	pr, err := svc.Portal.CreateProject(ctx, u, portal.ProjectInput{OrganizationID: su.Organization.ID.String(), Name: "Flood", Environment: "production"})
	if err != nil {
		t.Fatal(err)
	}
	keys, err := apptest.SandboxKeys()
	if err != nil {
		t.Fatal(err)
	}
	apiKey, apiSecret := "k", "s"
	if _, err := svc.Portal.UpdateAuthority(ctx, u, pr.ID, portal.AuthorityInput{
		TaxAuthorityCode: "NRS", BusinessID: uuid.NewString(), ServiceID: "94ND90NR",
		PublicKey: base64.StdEncoding.EncodeToString([]byte(keys.PublicKeyPEM)), Certificate: "Y2VydA==",
		APIKey: &apiKey, APISecret: &apiSecret, BaseURL: &url,
	}); err != nil {
		t.Fatal(err)
	}
	k, err := svc.Keys.Create(ctx, u, pr.ID, apikey.Input{KeyName: "flood"})
	if err != nil {
		t.Fatal(err)
	}
	return certtest.Tenant{User: u, Project: pr, ClientID: k.ClientID, ClientSecret: k.ClientSecret}
}
