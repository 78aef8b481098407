package graph_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http/httptest"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/99designs/gqlgen/client"
	"github.com/google/uuid"
	temporalclient "go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/runs"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
	"github.com/einvoice-ng/einvoice/worker"
	"github.com/einvoice-ng/einvoice/worker/temporaltest"
	"github.com/einvoice-ng/einvoice/workflows"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// One Temporal server (a process of its own: worker/temporaltest) serves
// the whole test binary. It is started by the first test that needs it, so
// tests without workflows do not wait for it, and stopped by TestMain. Each test polls a task queue of
// its own, so that no worker takes another test's runs.
var (
	temporalOnce sync.Once
	temporalDir  string
	temporalSrv  *temporaltest.Server
	temporalErr  error
	taskQueues   atomic.Int64
)

func TestMain(m *testing.M) {
	code := m.Run()
	if temporalSrv != nil {
		_ = temporalSrv.Stop()
	}
	if temporalDir != "" {
		_ = os.RemoveAll(temporalDir)
	}
	os.Exit(code)
}

// sharedTemporal returns the package's Temporal server, starting it once.
func sharedTemporal(t testing.TB) *temporaltest.Server {
	t.Helper()
	temporalOnce.Do(func() {
		temporalDir, temporalErr = os.MkdirTemp("", "einvoice-graph-test-")
		if temporalErr != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		temporalSrv, temporalErr = temporaltest.Start(ctx, temporalDir)
	})
	if temporalErr != nil {
		t.Fatalf("temporal server: %v", temporalErr)
	}
	return temporalSrv
}

func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// temporalRig is a client of the shared Temporal server with a task queue
// of the test's own and the starter that puts runs on it.
type temporalRig struct {
	c     temporalclient.Client
	queue string
	runs  *workflows.Starter
}

func newTemporalRig(t testing.TB) *temporalRig {
	t.Helper()
	srv := sharedTemporal(t)
	c, err := temporalclient.Dial(temporalclient.Options{HostPort: srv.FrontendAddr(), Namespace: srv.Namespace(),
		Logger: sdklog.NewStructuredLogger(quietLogger())})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	queue := fmt.Sprintf("%s-%s-%d", workflows.TaskQueue, strings.ReplaceAll(t.Name(), "/", "-"), taskQueues.Add(1))
	return &temporalRig{c: c, queue: queue, runs: workflows.NewStarter(c, workflows.StarterOptions{TaskQueue: queue})}
}

// startWorker starts a worker of svc on the rig's queue until the test ends.
func (r *temporalRig) startWorker(t testing.TB, svc *app.App) {
	t.Helper()
	w, err := worker.New(r.c, worker.Options{Runs: svc.Steps, TaskQueue: r.queue, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
}

// newCertServer is newServer over a certtest environment: the real NRS
// rules, sandbox projects provisioned by the NRS sandbox stand-in, and runs
// started by runs (nil: no workflow engine).
func newCertServer(t testing.TB, d storetest.Dialect, runs runs.Starter) *server {
	t.Helper()
	return newCertServerWith(t, d, runs, graph.Options{})
}

// newCertServerWith is newCertServer with the GraphQL handler's options.
func newCertServerWith(t testing.TB, d storetest.Dialect, runs runs.Starter, opts graph.Options) *server {
	t.Helper()
	queries := &store.QueryCounter{}
	logs := &apptest.LogBuffer{}
	e := certtest.New(t, certtest.Options{
		Open: func(tb testing.TB) *store.Store {
			st := d.Open(tb)
			st.AddQueryHook(queries)
			return st
		},
		Runs: runs,
		Logs: logs,
	})
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	opts.Logger = log
	h := rest.New(e.App, rest.Options{Version: "test", Logger: log, GraphQL: graph.NewHandler(e.App, opts)})
	return &server{t: t, h: h, c: client.New(h, client.Path("/graphql")), svc: e.App, st: e.Store, logs: logs, queries: queries}
}

// as returns s reporting to t, for use inside subtests.
func (s *server) as(t testing.TB) *server {
	c := *s
	c.t = t
	return &c
}

// runFields selects every field of a CertificationRun.
const runFields = `id projectId status invoiceType issueDate irn failureReason createdAt finishedAt
  temporal { workflowId runId }
  steps { name status attempts startedAt finishedAt durationMs httpStatus nrsErrorId message }`

const startRunMutation = `mutation($input: StartCertificationRunInput!) { startCertificationRun(input: $input) { ` + runFields + ` } }`

// runNode is a CertificationRun as the tests read it.
type runNode struct {
	ID, ProjectID, Status, InvoiceType, IssueDate, CreatedAt string
	IRN, FailureReason, FinishedAt                           *string
	Temporal                                                 struct {
		WorkflowID string
		RunID      *string
	}
	Steps []stepNode
}

// stepNode is a CertificationStep as the tests read it.
type stepNode struct {
	Name, Status, StartedAt, Message string
	Attempts                         int
	FinishedAt, NRSErrorID           *string
	DurationMS, HTTPStatus           *int
}

func (r runNode) stepNames() []string {
	out := make([]string, len(r.Steps))
	for i, s := range r.Steps {
		out[i] = s.Name
	}
	return out
}

// startRun starts a run through the mutation; it must succeed.
func (s *server) startRun(token string, input map[string]any) runNode {
	s.t.Helper()
	var out struct{ StartCertificationRun runNode }
	s.must(token, startRunMutation, map[string]any{"input": input}, &out)
	return out.StartCertificationRun
}

// runOf reads a run through certificationRun; it must succeed.
func (s *server) runOf(token, id string) runNode {
	s.t.Helper()
	var out struct{ CertificationRun runNode }
	s.must(token, `query($id: ID!) { certificationRun(id: $id) { `+runFields+` } }`, map[string]any{"id": id}, &out)
	return out.CertificationRun
}

// watchDeadline bounds a subscription: long enough for any run of these
// tests to end on a loaded machine, short enough to fail rather than hang.
const watchDeadline = 2 * time.Minute

const watchSubscription = `subscription($id: ID!) { certificationRunUpdated(id: $id) { ` + runFields + ` } }`

// runWatch is a certificationRunUpdated subscription made with gqlgen's
// client over a WebSocket, authenticated by its connection_init payload.
type runWatch struct {
	t   testing.TB
	sub *client.Subscription
}

func (s *server) watch(t testing.TB, token, runID string) *runWatch {
	t.Helper()
	sub := s.c.WebsocketWithPayload(watchSubscription, map[string]any{"Authorization": "Bearer " + token}, client.Var("id", runID))
	var once sync.Once
	closeSub := func() { once.Do(func() { _ = sub.Close() }) }
	timer := time.AfterFunc(watchDeadline, closeSub)
	t.Cleanup(func() {
		timer.Stop()
		closeSub()
	})
	return &runWatch{t: t, sub: sub}
}

// next returns the next update of the run, or false once the server has
// completed the subscription. Any error fails the test.
func (w *runWatch) next() (runNode, bool) {
	w.t.Helper()
	run, errs, done := w.read()
	if len(errs) > 0 {
		w.t.Fatalf("subscription errors: %+v", errs)
	}
	return run, !done
}

// read returns the next message: an update, the errors of one, or done
// when the subscription completed.
func (w *runWatch) read() (run runNode, errs []gqlError, done bool) {
	w.t.Helper()
	var data map[string]any
	err := w.sub.Next(&data)
	var raw client.RawJsonError
	switch {
	case err == nil:
	case strings.Contains(err.Error(), `Type:"complete"`):
		// gqlgen's client answers the server's complete message with
		// an "expected data message" error naming it.
		return runNode{}, nil, true
	case errors.As(err, &raw):
		if jerr := json.Unmarshal(raw.RawMessage, &errs); jerr != nil {
			w.t.Fatalf("decode errors %s: %v", raw.RawMessage, jerr)
		}
		return runNode{}, errs, false
	default:
		w.t.Fatalf("subscription (deadline %s): %v", watchDeadline, err)
	}
	b, _ := json.Marshal(data["certificationRunUpdated"])
	if err := json.Unmarshal(b, &run); err != nil {
		w.t.Fatalf("decode update %s: %v", b, err)
	}
	return run, nil, false
}

// statusRank orders a run's statuses as they may follow each other.
var statusRank = map[string]int{"QUEUED": 0, "RUNNING": 1, "PASSED": 2, "FAILED": 2, "CANCELLED": 2}

// TestCertificationRunEndToEnd starts runs of each invoice type through the
// mutation on a sandbox project, follows them over the subscription while a
// worker executes them on an in-process Temporal server against the NRS
// sandbox stand-in, and reads them back through certificationRun and
// Project.certificationRuns.
func TestCertificationRunEndToEnd(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		rig := newTemporalRig(t)
		s := newCertServer(t, d, rig.runs)
		tn := s.tenant("certify")
		kinds := []string{"B2B", "B2C", "B2G"}

		// No worker polls yet, so every run is still queued when its
		// subscription starts: the first update is QUEUED for sure.
		runs := map[string]runNode{}
		watches := map[string]*runWatch{}
		firsts := map[string]runNode{}
		for _, kind := range kinds {
			r := s.startRun(tn.Token, map[string]any{"projectId": tn.ProjectID, "invoiceType": kind, "issueDate": "2026-03-15"})
			if r.Status != "QUEUED" || r.InvoiceType != kind || r.IssueDate != "2026-03-15" || r.ProjectID != tn.ProjectID ||
				len(r.Steps) != 0 || r.IRN != nil || r.FinishedAt != nil || r.Temporal.WorkflowID != "certification-run-"+r.ID {
				t.Fatalf("started %s run: %+v", kind, r)
			}
			runs[kind] = r
			watches[kind] = s.watch(t, tn.Token, r.ID)
			first, ok := watches[kind].next()
			if !ok || first.ID != r.ID || first.Status != "QUEUED" {
				t.Fatalf("first update of the %s run: %+v (open %v)", kind, first, ok)
			}
			firsts[kind] = first
		}
		rig.startWorker(t, s.svc)

		for _, kind := range kinds {
			t.Run(kind, func(t *testing.T) {
				s := s.as(t)
				w := watches[kind]
				w.t = t
				updates, last := 1, firsts[kind]
				for {
					u, ok := w.next()
					if !ok {
						break
					}
					if statusRank[u.Status] < statusRank[last.Status] || (u.Status == last.Status && len(u.Steps) < len(last.Steps)) {
						t.Fatalf("update %d went back: %s with %d steps after %s with %d", updates, u.Status, len(u.Steps), last.Status, len(last.Steps))
					}
					last = u
					updates++
				}
				t.Logf("%d updates", updates)
				if last.Status != "PASSED" {
					t.Fatalf("the subscription completed after %d updates at %+v", updates, last)
				}

				run := s.runOf(tn.Token, runs[kind].ID)
				if run.Status != "PASSED" || run.FinishedAt == nil || run.FailureReason != nil || run.Temporal.RunID == nil ||
					run.Temporal.WorkflowID != "certification-run-"+run.ID {
					t.Fatalf("run: %+v", run)
				}
				if run.IRN == nil || !strings.HasPrefix(*run.IRN, "CERT") || !strings.HasSuffix(*run.IRN, "-20260315") {
					t.Fatalf("irn: %v", run.IRN)
				}
				if !reflect.DeepEqual(last, run) {
					t.Fatalf("the last update differs from the run:\n%+v\n%+v", last, run)
				}
				names := run.stepNames()
				for _, want := range []string{workflows.StepGenerateIRN, workflows.StepSignInvoice, workflows.StepBuildQR, workflows.StepConfirm} {
					if !slices.Contains(names, want) {
						t.Errorf("no %s step: %v", want, names)
					}
				}
				transmits := slices.Contains(names, workflows.StepTransmit)
				if transmits != (kind != "B2C") {
					t.Errorf("%s transmitted: %v (%v)", kind, transmits, names)
				}
				for _, st := range run.Steps {
					if st.Status != "PASSED" || st.Attempts < 1 || st.FinishedAt == nil || st.DurationMS == nil || st.StartedAt == "" {
						t.Errorf("step %+v", st)
					}
				}
			})
		}

		t.Run("project certificationRuns", func(t *testing.T) {
			s := s.as(t)
			const q = `query($id: ID!, $first: Int, $after: String) { project(id: $id) {
			  certificationRuns(first: $first, after: $after) { edges { cursor node { id status invoiceType issueDate irn steps { name } } } pageInfo { hasNextPage endCursor } }
			} }`
			type page struct {
				Project struct {
					CertificationRuns struct {
						Edges []struct {
							Cursor string
							Node   runNode
						}
						PageInfo struct {
							HasNextPage bool
							EndCursor   *string
						}
					}
				}
			}
			var all page
			s.must(tn.Token, q, map[string]any{"id": tn.ProjectID}, &all)
			var got []string
			for _, e := range all.Project.CertificationRuns.Edges {
				if e.Node.Status != "PASSED" || e.Node.IRN == nil || len(e.Node.Steps) != 0 || e.Cursor == "" {
					t.Fatalf("listed run %+v", e)
				}
				got = append(got, e.Node.InvoiceType)
			}
			if want := []string{"B2G", "B2C", "B2B"}; !slices.Equal(got, want) || all.Project.CertificationRuns.PageInfo.HasNextPage {
				t.Fatalf("runs %v (next page %v), want newest first %v", got, all.Project.CertificationRuns.PageInfo.HasNextPage, want)
			}

			var first, second page
			s.must(tn.Token, q, map[string]any{"id": tn.ProjectID, "first": 2}, &first)
			info := first.Project.CertificationRuns.PageInfo
			if len(first.Project.CertificationRuns.Edges) != 2 || !info.HasNextPage || info.EndCursor == nil {
				t.Fatalf("first page: %+v", first)
			}
			s.must(tn.Token, q, map[string]any{"id": tn.ProjectID, "first": 2, "after": *info.EndCursor}, &second)
			if e := second.Project.CertificationRuns.Edges; len(e) != 1 || e[0].Node.ID != runs["B2B"].ID || second.Project.CertificationRuns.PageInfo.HasNextPage {
				t.Fatalf("second page: %+v", second)
			}
			if got := s.do(tn.Token, q, map[string]any{"id": tn.ProjectID, "first": 0}).locs(t); !slices.Equal(got, []string{"value_error@first"}) {
				t.Fatalf("first: 0: %v", got)
			}

			// Through the portal tree, where the dataloader serves every
			// project of every organization.
			var me struct {
				Me struct {
					Organizations struct {
						Edges []struct {
							Node struct {
								Projects struct {
									Edges []struct {
										Node struct {
											ID                string
											CertificationRuns struct{ Edges []struct{ Node runNode } }
										}
									}
								}
							}
						}
					}
				}
			}
			s.must(tn.Token, `{ me { organizations { edges { node { projects { edges { node { id certificationRuns { edges { node { id status } } } } } } } } } } }`, nil, &me)
			listed := 0
			for _, o := range me.Me.Organizations.Edges {
				for _, p := range o.Node.Projects.Edges {
					if p.Node.ID == tn.ProjectID {
						listed = len(p.Node.CertificationRuns.Edges)
					}
				}
			}
			if listed != len(kinds) {
				t.Fatalf("the portal tree lists %d runs of the project: %+v", listed, me)
			}
		})

		t.Run("graphql-transport-ws", func(t *testing.T) {
			// Browsers speak graphql-transport-ws: an ended run is one
			// next message, then complete.
			srv := httptest.NewServer(s.h)
			t.Cleanup(srv.Close)
			c := dialWS(t, srv)
			c.send(wsMessage{Type: "connection_init", Payload: json.RawMessage(`{"Authorization":"Bearer ` + tn.Token + `"}`)})
			c.must("connection_ack")
			payload, _ := json.Marshal(map[string]any{"query": watchSubscription, "variables": map[string]any{"id": runs["B2B"].ID}})
			c.send(wsMessage{ID: "1", Type: "subscribe", Payload: payload})
			var next struct {
				Data struct{ CertificationRunUpdated runNode }
			}
			if err := json.Unmarshal(c.must("next").Payload, &next); err != nil || next.Data.CertificationRunUpdated.Status != "PASSED" {
				t.Fatalf("next: %+v %v", next, err)
			}
			c.must("complete")
		})

		t.Run("another tenant", func(t *testing.T) {
			s := s.as(t)
			other := s.tenant("intruder")
			id := runs["B2B"].ID
			for name, r := range map[string]result{
				"certificationRun":      s.do(other.Token, `query($id: ID!) { certificationRun(id: $id) { id } }`, map[string]any{"id": id}),
				"startCertificationRun": s.do(other.Token, startRunMutation, map[string]any{"input": map[string]any{"projectId": tn.ProjectID, "invoiceType": "B2C", "issueDate": "2026-03-15"}}),
				"project":               s.do(other.Token, `query($id: ID!) { project(id: $id) { certificationRuns { edges { node { id } } } } }`, map[string]any{"id": tn.ProjectID}),
			} {
				if got := r.code(t); got != "not_found" || strings.Contains(string(r.Raw), id) {
					t.Fatalf("%s: %s", name, r.Raw)
				}
			}
			_, errs, _ := s.watch(t, other.Token, id).read()
			if len(errs) != 1 || errs[0].Extensions.Code != "not_found" {
				t.Fatalf("subscription to another tenant's run: %+v", errs)
			}
			var own struct {
				Project struct{ CertificationRuns struct{ Edges []any } }
			}
			s.must(other.Token, `query($id: ID!) { project(id: $id) { certificationRuns { edges { cursor } } } }`, map[string]any{"id": other.ProjectID}, &own)
			if n := len(own.Project.CertificationRuns.Edges); n != 0 {
				t.Fatalf("the other tenant's project lists %d runs", n)
			}
		})
	})
}

// TestCertificationRunErrors checks the errors of the certification fields:
// invalid with the locations of the arguments, not_found, unauthenticated,
// authority_not_configured, and unavailable when the workflow engine is
// missing or unreachable (nothing is recorded then).
func TestCertificationRunErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	_ = ln.Close() // nothing listens there now
	c, err := temporalclient.NewLazyClient(temporalclient.Options{HostPort: dead, Logger: sdklog.NewStructuredLogger(quietLogger())})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	unreachable := workflows.NewStarter(c, workflows.StarterOptions{StartTimeout: 2 * time.Second})

	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		s := newCertServer(t, d, nil)
		tn := s.tenant("errors")
		var prod struct{ CreateProject struct{ ID string } }
		s.must(tn.Token, createProjectMutation, map[string]any{"input": map[string]any{
			"organizationId": tn.OrgID, "name": "production shop", "environment": "PRODUCTION"}}, &prod)
		start := func(project, kind, date string, payload any) map[string]any {
			in := map[string]any{"projectId": project, "invoiceType": kind, "issueDate": date}
			if payload != nil {
				in["invoicePayload"] = payload
			}
			return map[string]any{"input": in}
		}
		const runQuery = `query($id: ID!) { certificationRun(id: $id) { id } }`

		for _, tc := range []struct {
			name, token, query string
			vars               map[string]any
			code               string
			locs               []string
		}{
			{"bad invoiceType and issueDate", tn.Token, startRunMutation, start(tn.ProjectID, "B2X", "2026-02-30", nil),
				"invalid", []string{"enum@input/invoiceType", "date_from_datetime_parsing@input/issueDate"}},
			{"issueDate not a date", tn.Token, startRunMutation, start(tn.ProjectID, "B2C", "15/03/2026", nil),
				"invalid", []string{"date_from_datetime_parsing@input/issueDate"}},
			{"invoicePayload not an object", tn.Token, startRunMutation, start(tn.ProjectID, "B2C", "2026-03-15", []any{1}),
				"invalid", []string{"dict_type@input/invoicePayload"}},
			{"projectId not a UUID", tn.Token, startRunMutation, start("42", "B2C", "2026-03-15", nil),
				"invalid", []string{"uuid_parsing@input/projectId"}},
			{"unknown project", tn.Token, startRunMutation, start("0a1b2c3d-0000-4000-8000-000000000001", "B2C", "2026-03-15", nil),
				"not_found", nil},
			{"unconfigured production project", tn.Token, startRunMutation, start(prod.CreateProject.ID, "B2B", "2026-03-15", nil),
				"authority_not_configured", nil},
			{"no workflow engine", tn.Token, startRunMutation, start(tn.ProjectID, "B2B", "2026-03-15", map[string]any{"note": "x"}),
				"unavailable", nil},
			{"anonymous start", "", startRunMutation, start(tn.ProjectID, "B2B", "2026-03-15", nil),
				"unauthenticated", nil},
			{"run id not a UUID", tn.Token, runQuery, map[string]any{"id": "42"},
				"invalid", []string{"uuid_parsing@id"}},
			{"unknown run", tn.Token, runQuery, map[string]any{"id": "0a1b2c3d-0000-4000-8000-000000000001"},
				"not_found", nil},
			{"anonymous read", "", runQuery, map[string]any{"id": "0a1b2c3d-0000-4000-8000-000000000001"},
				"unauthenticated", nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := s.as(t).do(tc.token, tc.query, tc.vars)
				if got := r.code(t); got != tc.code {
					t.Fatalf("code %q, want %q: %s", got, tc.code, r.Raw)
				}
				if tc.locs != nil {
					if got := r.locs(t); !slices.Equal(got, tc.locs) {
						t.Fatalf("problems %v, want %v", got, tc.locs)
					}
				}
			})
		}

		t.Run("Temporal unreachable", func(t *testing.T) {
			s := newCertServer(t, d, unreachable)
			tn := s.tenant("unreachable")
			r := s.do(tn.Token, startRunMutation, start(tn.ProjectID, "B2B", "2026-03-15", nil))
			if got := r.code(t); got != "unavailable" || !strings.Contains(r.Errors[0].Message, "Temporal") {
				t.Fatalf("start: %s", r.Raw)
			}
			list, err := s.svc.Runs.List(context.Background(), &model.Principal{UserID: uuid.MustParse(tn.UserID)}, uuid.MustParse(tn.ProjectID), model.PageInput{})
			if err != nil || len(list.Items) != 0 {
				t.Fatalf("runs left behind: %+v %v", list, err)
			}
		})

		t.Run("anonymous subscription", func(t *testing.T) {
			sub := s.c.Websocket(watchSubscription, client.Var("id", "0a1b2c3d-0000-4000-8000-000000000001"))
			t.Cleanup(func() { _ = sub.Close() })
			_, errs, _ := (&runWatch{t: t, sub: sub}).read()
			if len(errs) != 1 || errs[0].Extensions.Code != "unauthenticated" {
				t.Fatalf("errors: %+v", errs)
			}
		})
	})
}
