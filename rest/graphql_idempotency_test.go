package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/idempotency"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// graphServer drives the whole router, with GraphQL mounted at /graphql
// as the binary wires it, over a certtest environment.
type graphServer struct {
	t *testing.T
	e *certtest.Env
	h http.Handler
}

func newGraphServer(t *testing.T, d storetest.Dialect, engine *slowRuns, clock *fakeClock) *graphServer {
	t.Helper()
	e := certtest.New(t, certtest.Options{Open: d.Open, Runs: engine, App: func(c *app.Config) {
		if clock != nil {
			c.Now = clock.Now
		}
	}})
	return &graphServer{t: t, e: e, h: rest.New(e.App, rest.Options{Version: "test", GraphQL: graph.NewHandler(e.App, graph.Options{})})}
}

// gql posts a GraphQL request as tn's user under an Idempotency-Key.
func (s *graphServer) gql(tn certtest.Tenant, key, query string, vars map[string]any) response {
	s.t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		s.t.Fatal(err)
	}
	hr := httptest.NewRequest("POST", "/graphql", bytes.NewReader(body))
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Authorization", "Bearer "+tn.Token)
	hr.Header.Set(idempotency.Header, key)
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, hr)
	return response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// gqlRun is a CertificationRun as these tests select it.
type gqlRun struct {
	ID       string
	Status   string
	Temporal struct {
		WorkflowID string
		RunID      *string
	}
}

// started decodes the runs a mutation answered, by field, failing on
// any GraphQL error.
func started(t testing.TB, r response) map[string]gqlRun {
	t.Helper()
	var out struct {
		Data   map[string]*gqlRun
		Errors []json.RawMessage
	}
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	if err := json.Unmarshal(r.Body, &out); err != nil || len(out.Errors) > 0 {
		t.Fatalf("answer %s: %v", r.Body, err)
	}
	runs := map[string]gqlRun{}
	for field, run := range out.Data {
		if run == nil || run.ID == "" {
			t.Fatalf("field %s has no run: %s", field, r.Body)
		}
		runs[field] = *run
	}
	return runs
}

// gqlErrorCodes lists the extensions.code of a GraphQL answer's errors.
func gqlErrorCodes(t testing.TB, r response) []string {
	t.Helper()
	var out struct {
		Errors []struct {
			Extensions struct{ Code string }
		}
	}
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	if err := json.Unmarshal(r.Body, &out); err != nil {
		t.Fatalf("answer %s: %v", r.Body, err)
	}
	codes := []string{}
	for _, e := range out.Errors {
		codes = append(codes, e.Extensions.Code)
	}
	return codes
}

const gqlStartRun = `mutation($input: StartCertificationRunInput!) {
  startCertificationRun(input: $input) { id status temporal { workflowId runId } } }`

// gqlStartTwo starts two runs in one document.
const gqlStartTwo = `mutation($a: StartCertificationRunInput!, $b: StartCertificationRunInput!) {
  a: startCertificationRun(input: $a) { id status temporal { workflowId runId } }
  b: startCertificationRun(input: $b) { id status temporal { workflowId runId } } }`

func runInput(tn certtest.Tenant, kind string) map[string]any {
	return map[string]any{"projectId": tn.Project.ID.String(), "invoiceType": kind, "issueDate": "2026-03-15"}
}

// runsOf lists the ids of the tenant's project's runs.
func (s *graphServer) runsOf(tn certtest.Tenant) map[string]bool {
	s.t.Helper()
	list, err := s.e.App.Runs.List(context.Background(), tn.User, tn.Project.ID, model.PageInput{})
	if err != nil {
		s.t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, r := range list.Items {
		ids[r.RunID.String()] = true
	}
	return ids
}

// TestGraphQLStartDiesBeforeItsAnswerIsKept: the API process dies after
// a startCertificationRun under an Idempotency-Key committed its run,
// before the middleware kept the answer (after the workflow started, or
// before the engine took it). Once the claim's lease lapsed, a retry with
// the same key and body answers with that run, as it is now, for each
// field of the document: one run per field is recorded and one workflow
// started per run, on SQLite and PostgreSQL. The retry's answer is then
// kept and replayed. The same key with another body is a reuse; another
// user's retry with the same key is that user's own request, refused on a
// project not theirs.
func TestGraphQLStartDiesBeforeItsAnswerIsKept(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		for _, tc := range []struct {
			name string
			// refuse is how many workflow starts the engine does not take.
			refuse int32
			query  string
			vars   func(certtest.Tenant) map[string]any
		}{
			{"after the workflow started", 0, gqlStartRun, func(tn certtest.Tenant) map[string]any {
				return map[string]any{"input": runInput(tn, "B2B")}
			}},
			{"before the workflow started", 1, gqlStartRun, func(tn certtest.Tenant) map[string]any {
				return map[string]any{"input": runInput(tn, "B2B")}
			}},
			{"two fields, the second start not taken", 1, gqlStartTwo, func(tn certtest.Tenant) map[string]any {
				return map[string]any{"a": runInput(tn, "B2B"), "b": runInput(tn, "B2C")}
			}},
		} {
			t.Run(d.Name+"/"+tc.name, func(t *testing.T) {
				engine := &slowRuns{}
				clock := &fakeClock{}
				s := newGraphServer(t, d, engine, clock)
				tn := s.e.Tenant
				engine.refuse.Store(tc.refuse)
				var dying atomic.Bool
				dying.Store(true)
				rest.DieAfterHandler(t, func(r *http.Request) bool { return r.URL.Path == "/graphql" && dying.Load() })

				vars := tc.vars(tn)
				first := started(t, s.gql(tn, "start-1", tc.query, vars))
				if tc.refuse > 0 && tc.query == gqlStartRun && first["startCertificationRun"].Temporal.RunID != nil {
					t.Fatalf("first answer %+v, want the run not dispatched yet", first)
				}

				// The dead process's claim lapses; the retries reach a live one.
				dying.Store(false)
				clock.Advance(idempotency.DefaultLease + time.Second)
				retry := s.gql(tn, "start-1", tc.query, vars)
				again := started(t, retry)
				if retry.Header.Get(rest.ReplayedHeader) != "" || len(again) != len(first) {
					t.Fatalf("retry %v %s, want the mutation answered again", retry.Header, retry.Body)
				}
				for field, run := range first {
					got := again[field]
					if got.ID != run.ID || got.Temporal.WorkflowID != "certification-run-"+run.ID {
						t.Fatalf("retry's %s: %+v, want the first run %+v", field, got, run)
					}
				}
				// The retry's answer is kept: the next one replays it.
				replay := s.gql(tn, "start-1", tc.query, vars)
				if replay.Status != 200 || replay.Header.Get(rest.ReplayedHeader) != "true" || !bytes.Equal(replay.Body, retry.Body) {
					t.Fatalf("second retry: %d %v %s, want %s replayed", replay.Status, replay.Header, replay.Body, retry.Body)
				}
				// The same key for another run is still a reuse, and runs nothing.
				other := s.gql(tn, "start-1", gqlStartRun, map[string]any{"input": runInput(tn, "B2G")})
				if got := locs(detail(t, other)); len(got) != 1 || got[0] != "idempotency_key_reuse@header/Idempotency-Key" {
					t.Fatalf("reuse: %d %v", other.Status, got)
				}
				// Another user's same key and body is that user's own
				// request: the project is not theirs.
				stranger := s.e.NewTenant(t)
				if codes := gqlErrorCodes(t, s.gql(stranger, "start-1", tc.query, vars)); len(codes) != len(first) || codes[0] != "not_found" {
					t.Fatalf("another user's retry: %v, want not_found", codes)
				}

				// The runs the engine did not take are started by the
				// background relay, once.
				for i := 0; i < 2; i++ {
					if _, err := s.e.App.Runs.Dispatch(context.Background()); err != nil {
						t.Fatal(err)
					}
				}
				recorded := s.runsOf(tn)
				starts := engine.startsOf()
				if len(recorded) != len(first) || len(starts) != len(first) {
					t.Fatalf("runs %v, workflow starts %v; want the %d first runs %+v", recorded, starts, len(first), first)
				}
				for _, run := range first {
					if !recorded[run.ID] || starts[run.ID] != 1 {
						t.Fatalf("runs %v, workflow starts %v; want one of run %s", recorded, starts, run.ID)
					}
				}
			})
		}
	}
}

// TestGraphQLStartUnderKeyConcurrent: concurrent startCertificationRun
// requests under one key record one run and start one workflow; every
// other attempt is the first answer replayed or a 409.
func TestGraphQLStartUnderKeyConcurrent(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			engine := &slowRuns{}
			s := newGraphServer(t, d, engine, nil)
			tn := s.e.Tenant
			const n = 8
			var (
				wg       sync.WaitGroup
				mu       sync.Mutex
				statuses = map[int]int{}
				bodies   = map[string]bool{}
			)
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := s.gql(tn, "same", gqlStartRun, map[string]any{"input": runInput(tn, "B2G")})
					mu.Lock()
					defer mu.Unlock()
					statuses[r.Status]++
					if r.Status == 200 {
						bodies[string(r.Body)] = true
					}
				}()
			}
			wg.Wait()
			if statuses[200]+statuses[409] != n || statuses[200] == 0 || len(bodies) != 1 {
				t.Fatalf("statuses %v, %d distinct answers; want one answer, the rest 409", statuses, len(bodies))
			}
			for b := range bodies {
				if run := started(t, response{Status: 200, Body: []byte(b)})["startCertificationRun"]; !s.runsOf(tn)[run.ID] {
					t.Fatalf("answer %s names no recorded run", b)
				}
			}
			if got := s.runsOf(tn); len(got) != 1 {
				t.Fatalf("runs %v, want one", got)
			}
			if starts := engine.startsOf(); len(starts) != 1 {
				t.Fatalf("workflow starts %v, want one", starts)
			}
		})
	}
}
