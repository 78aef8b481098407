package rest_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb/sandboxdbtest"
)

// withStandIn builds a server whose sandbox projects are registered with an
// in-process NRS sandbox stand-in, which also holds their faults.
func withStandIn(t *testing.T, d storetest.Dialect) (*server, *nrssandbox.Handler) {
	t.Helper()
	h, err := nrssandbox.New(nrssandbox.Options{DB: sandboxdbtest.SQLite(t), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s := build(t, d.Open(t), func(c *app.Config) { c.SandboxRegistrar, c.SandboxFaults, c.Inbox = h, h, &recordingInbox{} }, nil)
	return s, h
}

// recordingInbox is an inbox engine that starts nothing and records the
// projects whose pull was asked for.
type recordingInbox struct {
	mu      sync.Mutex
	started []uuid.UUID
}

func (f *recordingInbox) StartInboxPull(_ context.Context, projectID uuid.UUID) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.started = append(f.started, projectID)
	return "inbox-pull-" + projectID.String(), nil
}

// A sandbox project's owner switches faults of its business on and off at
// the stand-in; the stand-in then answers the business's calls as a
// gateway would. Another tenant's project is not found, a production
// project has no faults, bad input changes nothing, and every change is
// audited.
func TestSandboxFaults(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s, h := withStandIn(t, d)
			a, b := s.tenant("faulta"), s.tenant("faultb")
			base := "/api/v2/projects/" + a.ProjectID + "/sandbox/faults"
			out := s.must(200, req{method: "POST", path: base, token: a.Token,
				body: map[string]any{"kind": "outage", "endpoint": "invoice_sign", "status": 504, "duration": "6h"}})
			if out["kind"] != "outage" || out["endpoint"] != "invoice_sign" || out["status"] != float64(504) || out["ends_at"] == nil {
				t.Fatalf("set: %v", out)
			}
			pr := s.must(200, req{method: "GET", path: "/api/v2/projects", token: a.Token})
			biz := pr["items"].([]any)[0].(map[string]any)["authority"].(map[string]any)["business_id"].(string)
			faults, err := h.SandboxFaults(context.Background(), biz)
			if err != nil || len(faults) != 1 || faults[0].Endpoint != "invoice_sign" {
				t.Fatalf("at the stand-in: %v %v", faults, err)
			}
			list := s.must(200, req{method: "GET", path: base, token: a.Token})
			if items := list["items"].([]any); len(items) != 1 {
				t.Fatalf("list: %v", list)
			}

			// Another tenant: not found, on every method; nothing changes.
			for _, m := range []string{"POST", "GET", "DELETE"} {
				r := s.do(req{method: m, path: base, token: b.Token, body: map[string]any{"kind": "outage", "duration": "1h"}})
				if r.Status != 404 {
					t.Fatalf("%s as another tenant: %d %s", m, r.Status, r.Body)
				}
			}
			// Bad input: every problem, nothing changed.
			r := s.do(req{method: "POST", path: base, token: a.Token, body: map[string]any{"kind": "flood", "status": 500, "retry_after": 99999}})
			if r.Status != 422 {
				t.Fatalf("bad input: %d %s", r.Status, r.Body)
			}
			for _, want := range []string{`"body","kind"`, `"body","status"`, `"body","retry_after"`, `"body","duration"`} {
				if !strings.Contains(string(r.Body), want) {
					t.Errorf("no problem at %s: %s", want, r.Body)
				}
			}
			if r := s.do(req{method: "POST", path: base, token: a.Token, body: map[string]any{"kind": "outage", "endpoint": "nope", "duration": "1h"}}); r.Status != 422 {
				t.Fatalf("unknown endpoint: %d %s", r.Status, r.Body)
			}
			if r := s.do(req{method: "POST", path: base, token: a.Token, body: `{"kind":"outage","duration":"1h","extra":1}`}); r.Status != 422 {
				t.Fatalf("unknown field: %d %s", r.Status, r.Body)
			}
			if r := s.do(req{method: "DELETE", path: base + "?endpoint=transmit", token: a.Token}); r.Status != 422 {
				t.Fatalf("endpoint without kind: %d %s", r.Status, r.Body)
			}
			if faults, _ := h.SandboxFaults(context.Background(), biz); len(faults) != 1 {
				t.Fatalf("a refused request changed the faults: %v", faults)
			}
			// A production project has none.
			prod := s.must(200, req{method: "POST", path: "/api/v2/projects", token: a.Token,
				body: map[string]any{"organization_id": a.OrgID, "name": "Head office", "environment": "production"}})
			if r := s.do(req{method: "POST", path: "/api/v2/projects/" + prod["id"].(string) + "/sandbox/faults", token: a.Token,
				body: map[string]any{"kind": "outage", "duration": "1h"}}); r.Status != 409 {
				t.Fatalf("production: %d %s", r.Status, r.Body)
			}

			cleared := s.must(200, req{method: "DELETE", path: base + "?kind=outage", token: a.Token})
			if cleared["cleared"] != float64(1) {
				t.Fatalf("clear: %v", cleared)
			}
			logs := s.must(200, req{method: "GET", path: "/api/v2/audit-logs?limit=50", token: a.Token})
			got := map[string]int{}
			for _, e := range logs["items"].([]any) {
				got[e.(map[string]any)["action"].(string)]++
			}
			if got["sandbox_fault.set"] != 1 || got["sandbox_fault.clear"] != 1 {
				t.Fatalf("audit: %v", got)
			}
		})
	}
}

// Without a reachable stand-in the routes answer 503 and record nothing.
func TestSandboxFaultsWithoutStandIn(t *testing.T) {
	s := newServer(t, storetest.Dialects(t)[0])
	a := s.tenant("nostandin")
	r := s.do(req{method: "POST", path: "/api/v2/projects/" + a.ProjectID + "/sandbox/faults", token: a.Token,
		body: map[string]any{"kind": "outage", "duration": "1h"}})
	if r.Status != http.StatusServiceUnavailable {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
}
