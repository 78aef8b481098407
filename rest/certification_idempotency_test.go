package rest_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/idempotency"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// slowRuns is recordingRuns whose engine does not take the first starts
// in time, as a Temporal that answers its reachability check but not the
// start.
type slowRuns struct {
	recordingRuns
	refuse atomic.Int32
}

func (f *slowRuns) StartCertificationRun(ctx context.Context, in runs.WorkflowInput) (runs.Ref, error) {
	if f.refuse.Add(-1) >= 0 {
		return runs.Ref{}, errors.New("the workflow engine did not answer in time")
	}
	return f.recordingRuns.StartCertificationRun(ctx, in)
}

func (f *slowRuns) startsOf() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for _, in := range f.started {
		out[in.RunID.String()]++
	}
	return out
}

// doKey sends a request under an Idempotency-Key.
func (s *certServer) doKey(method, path string, tn certtest.Tenant, key, body string) response {
	s.t.Helper()
	hr := httptest.NewRequest(method, path, strings.NewReader(body))
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("X-Client-Id", tn.ClientID)
	hr.Header.Set("X-Client-Secret", tn.ClientSecret)
	hr.Header.Set(idempotency.Header, key)
	rec := httptest.NewRecorder()
	s.e.Handler.ServeHTTP(rec, hr)
	return response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// TestCertificationStartDiesBeforeItsAnswerIsKept: the API process dies
// after a run start under an Idempotency-Key committed, before the
// middleware kept the answer (after the workflow started, or before the
// engine took it). Once the claim's lease lapsed, a retry with the same
// key and body is answered the first run, byte for byte: one run is
// recorded and one workflow started, on SQLite and PostgreSQL.
func TestCertificationStartDiesBeforeItsAnswerIsKept(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		for _, tc := range []struct {
			name string
			// refuse is how many workflow starts the engine does not take.
			refuse int32
		}{
			{"after the workflow started", 0},
			{"before the workflow started", 1},
		} {
			t.Run(d.Name+"/"+tc.name, func(t *testing.T) {
				engine := &slowRuns{}
				engine.refuse.Store(tc.refuse)
				clock := &fakeClock{}
				s := &certServer{t: t, e: certtest.New(t, certtest.Options{Open: d.Open, Runs: engine,
					App: func(c *app.Config) { c.Now = clock.Now }})}
				tn := s.e.Tenant
				var dying atomic.Bool
				dying.Store(true)
				rest.DieAfterHandler(t, func(r *http.Request) bool { return r.URL.Path == smokePath && dying.Load() })

				const body = `{"invoice_type":"B2B","issue_date":"2026-03-15"}`
				first := s.doKey("POST", smokePath, tn, "start-1", body)
				if first.Status != 200 {
					t.Fatalf("start: %d %s", first.Status, first.Body)
				}
				runID := first.json(t)["run_id"].(string)

				// The dead process's claim lapses; the retries reach a live one.
				dying.Store(false)
				clock.Advance(idempotency.DefaultLease + time.Second)
				for i := 0; i < 2; i++ {
					again := s.doKey("POST", smokePath, tn, "start-1", body)
					if again.Status != 200 || again.Header.Get(rest.ReplayedHeader) != "true" || !bytes.Equal(again.Body, first.Body) ||
						again.Header.Get("Content-Type") != first.Header.Get("Content-Type") {
						t.Fatalf("retry %d: %d %v %s, want the first answer %s replayed", i, again.Status, again.Header, again.Body, first.Body)
					}
				}
				// The same key for another run is still a reuse, and runs nothing.
				other := s.doKey("POST", smokePath, tn, "start-1", `{"invoice_type":"B2C","issue_date":"2026-03-15"}`)
				if got := locs(detail(t, other)); len(got) != 1 || got[0] != "idempotency_key_reuse@header/Idempotency-Key" {
					t.Fatalf("reuse: %d %v", other.Status, got)
				}

				// The run the engine did not take is started by the background
				// relay, once.
				for i := 0; i < 2; i++ {
					if _, err := s.e.App.Runs.Dispatch(context.Background()); err != nil {
						t.Fatal(err)
					}
				}
				list, err := s.e.App.Runs.List(context.Background(), tn.User, tn.Project.ID, model.PageInput{})
				if err != nil || len(list.Items) != 1 || list.Items[0].RunID.String() != runID {
					t.Fatalf("runs %+v %v, want the one run %s", list, err, runID)
				}
				if starts := engine.startsOf(); len(starts) != 1 || starts[runID] != 1 {
					t.Fatalf("workflow starts %v, want one of run %s", starts, runID)
				}
			})
		}
	}
}

// TestCertificationStartUnderKeyConcurrent: concurrent starts under one
// key record one run; every other attempt is its replay or a 409.
func TestCertificationStartUnderKeyConcurrent(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			engine := &slowRuns{}
			s := &certServer{t: t, e: certtest.New(t, certtest.Options{Open: d.Open, Runs: engine})}
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
					r := s.doKey("POST", smokePath, tn, "same", `{"invoice_type":"B2G","issue_date":"2026-03-15"}`)
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
			if starts := engine.startsOf(); len(starts) != 1 {
				t.Fatalf("workflow starts %v, want one", starts)
			}
		})
	}
}
