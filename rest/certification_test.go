package rest_test

import (
	"context"
	"log/slog"
	"net"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// recordingRuns is a RunStarter that starts nothing and says every
// workflow is running.
type recordingRuns struct {
	mu      sync.Mutex
	started []runs.WorkflowInput
}

func (f *recordingRuns) StartCertificationRun(_ context.Context, in runs.WorkflowInput) (runs.Ref, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.started = append(f.started, in)
	return runs.Ref{WorkflowID: workflows.WorkflowID(in.RunID), TemporalRunID: uuid.NewString()}, nil
}

func (f *recordingRuns) DescribeCertificationRun(context.Context, uuid.UUID) (*runs.State, error) {
	return &runs.State{Status: model.RunRunning}, nil
}

func (f *recordingRuns) AbandonCertificationRun(context.Context, uuid.UUID, string) error { return nil }

// certServer drives the router of a certtest environment.
type certServer struct {
	t *testing.T
	e *certtest.Env
}

func newCertServer(t *testing.T, runs runs.Starter) *certServer {
	t.Helper()
	return &certServer{t: t, e: certtest.New(t, certtest.Options{Open: storetest.SQLite, Runs: runs})}
}

func (s *certServer) do(method, path string, tn certtest.Tenant, body string) response {
	s.t.Helper()
	hr := httptest.NewRequest(method, path, strings.NewReader(body))
	hr.Header.Set("Content-Type", "application/json")
	if tn.ClientID != "" {
		hr.Header.Set("X-Client-Id", tn.ClientID)
		hr.Header.Set("X-Client-Secret", tn.ClientSecret)
	}
	rec := httptest.NewRecorder()
	s.e.Handler.ServeHTTP(rec, hr)
	return response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

const smokePath = "/api/v2/certification/nrs/smoke"

func keysOf(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestCertificationRunsREST(t *testing.T) {
	runs := &recordingRuns{}
	s := newCertServer(t, runs)
	tn := s.e.Tenant

	res := s.do("POST", smokePath, tn, `{"invoice_type":"B2B","issue_date":"2026-03-15","invoice_payload":{"note":"x"}}`)
	if res.Status != 200 {
		t.Fatalf("start: %d %s", res.Status, res.Body)
	}
	started := res.json(t)
	if started["status"] != "queued" || started["invoice_type"] != "B2B" || started["issue_date"] != "2026-03-15" {
		t.Fatalf("start body: %s", res.Body)
	}
	if steps, ok := started["steps"].([]any); !ok || len(steps) != 0 {
		t.Fatalf("steps must be an empty list: %s", res.Body)
	}
	runID, _ := started["run_id"].(string)
	if _, err := uuid.Parse(runID); err != nil {
		t.Fatalf("run_id %q: %v", runID, err)
	}
	if _, err := time.Parse(time.RFC3339, started["created_at"].(string)); err != nil {
		t.Fatalf("created_at: %v", err)
	}

	// Evidence written by the activities shows in the run.
	ctx := context.Background()
	id := uuid.MustParse(runID)
	if err := s.e.Store.Runs().MarkRunning(ctx, id, time.Now()); err != nil {
		t.Fatal(err)
	}
	st, ms := 200, int64(3)
	fin := time.Now().UTC()
	if err := s.e.Store.Runs().SaveStep(ctx, &model.CertificationStep{RunID: id, Name: workflows.StepHealth, Seq: 1,
		Status: model.StepPassed, Attempts: 1, StartedAt: fin, FinishedAt: &fin, DurationMS: &ms, HTTPStatus: &st, Message: "healthy"}); err != nil {
		t.Fatal(err)
	}
	res = s.do("GET", "/api/v2/certification/runs/"+runID, tn, "")
	if res.Status != 200 {
		t.Fatalf("get: %d %s", res.Status, res.Body)
	}
	got := res.json(t)
	want := []string{"created_at", "failure_reason", "finished_at", "invoice_type", "irn", "issue_date", "run_id", "status", "steps", "temporal"}
	if k := keysOf(got); !slices.Equal(k, want) {
		t.Fatalf("run keys %v, want %v", k, want)
	}
	if got["status"] != "running" || got["irn"] != nil || got["finished_at"] != nil {
		t.Fatalf("run: %s", res.Body)
	}
	tmp := got["temporal"].(map[string]any)
	if tmp["workflow_id"] != "certification-run-"+runID || tmp["run_id"] == nil {
		t.Fatalf("temporal: %v", tmp)
	}
	step := got["steps"].([]any)[0].(map[string]any)
	for _, k := range []string{"name", "status", "started_at", "finished_at", "duration_ms", "http_status", "message"} {
		if _, ok := step[k]; !ok {
			t.Fatalf("step lacks %s: %v", k, step)
		}
	}
	if step["name"] != "health" || step["http_status"] != float64(200) || step["duration_ms"] != float64(3) {
		t.Fatalf("step: %v", step)
	}

	// Another tenant's key: 404, never a hint that the run exists.
	other := s.e.NewTenant(t)
	res = s.do("GET", "/api/v2/certification/runs/"+runID, other, "")
	if res.Status != 404 || res.json(t)["code"] != "not_found" {
		t.Fatalf("foreign run: %d %s", res.Status, res.Body)
	}
	res = s.do("GET", "/api/v2/certification/runs/"+uuid.NewString(), tn, "")
	if res.Status != 404 {
		t.Fatalf("unknown run: %d %s", res.Status, res.Body)
	}
	if got := locs(detail(t, s.do("GET", "/api/v2/certification/runs/not-a-uuid", tn, ""))); !slices.Equal(got, []string{"uuid_parsing@path/run_id"}) {
		t.Fatalf("malformed id: %v", got)
	}
	if res := s.do("GET", "/api/v2/certification/runs/"+runID, certtest.Tenant{}, ""); res.Status != 401 {
		t.Fatalf("no credentials: %d", res.Status)
	}
	if len(runs.started) != 1 || !runs.started[0].Sandbox || runs.started[0].InvoiceType != model.InvoiceKindB2B {
		t.Fatalf("starts: %+v", runs.started)
	}
}

func TestCertificationStartValidation(t *testing.T) {
	s := newCertServer(t, &recordingRuns{})
	tn := s.e.Tenant
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"missing", `{}`, []string{"missing@body/invoice_type", "missing@body/issue_date"}},
		{"enum and date", `{"invoice_type":"B2X","issue_date":"2026-02-30"}`,
			[]string{"enum@body/invoice_type", "date_from_datetime_parsing@body/issue_date"}},
		{"payload not an object", `{"invoice_type":"B2C","issue_date":"2026-03-15","invoice_payload":[1]}`,
			[]string{"dict_type@body/invoice_payload"}},
		{"types and values together", `{"invoice_type":7,"issue_date":"15/03/2026","invoice_payload":"x"}`,
			[]string{"string_type@body/invoice_type", "date_from_datetime_parsing@body/issue_date", "dict_type@body/invoice_payload"}},
		{"malformed JSON", `{"invoice_type":`, []string{"json_invalid@body/16"}},
		{"no body", ``, []string{"missing@body"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := locs(detail(t, s.do("POST", smokePath, tn, tc.body)))
			if !slices.Equal(got, tc.want) {
				t.Fatalf("problems %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCertificationScopes(t *testing.T) {
	s := newCertServer(t, &recordingRuns{})
	ctx := context.Background()
	k, err := s.e.App.Keys.Create(ctx, s.e.Tenant.User, s.e.Tenant.Project.ID, keys.Input{KeyName: "read only", Scopes: []string{"certification:read"}})
	if err != nil {
		t.Fatal(err)
	}
	ro := certtest.Tenant{ClientID: k.ClientID, ClientSecret: k.ClientSecret}
	res := s.do("POST", smokePath, ro, `{"invoice_type":"B2C","issue_date":"2026-03-15"}`)
	if res.Status != 403 || res.json(t)["code"] != "forbidden" {
		t.Fatalf("start without certification:run: %d %s", res.Status, res.Body)
	}
}

// TestCertificationUnavailable: without Temporal, or with Temporal
// unreachable, a start answers 503 and leaves no run behind.
func TestCertificationUnavailable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close() // nothing listens there now
	c, err := client.NewLazyClient(client.Options{HostPort: dead, Logger: sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	for _, tc := range []struct {
		name string
		runs runs.Starter
	}{
		{"no TEMPORAL_ADDRESS", nil},
		{"Temporal unreachable", workflows.NewStarter(c, workflows.StarterOptions{StartTimeout: 2 * time.Second})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newCertServer(t, tc.runs)
			began := time.Now()
			res := s.do("POST", smokePath, s.e.Tenant, `{"invoice_type":"B2B","issue_date":"2026-03-15"}`)
			if res.Status != 503 {
				t.Fatalf("start: %d %s", res.Status, res.Body)
			}
			body := res.json(t)
			if body["code"] != "unavailable" || !strings.Contains(body["detail"].(string), "Temporal") {
				t.Fatalf("503 body: %s", res.Body)
			}
			if d := time.Since(began); d > 10*time.Second {
				t.Fatalf("the start took %s", d)
			}
			list, err := s.e.App.Runs.List(context.Background(), s.e.Tenant.User, s.e.Tenant.Project.ID, model.PageInput{})
			if err != nil || len(list.Items) != 0 {
				t.Fatalf("runs left behind: %+v %v", list, err)
			}
		})
	}
}
