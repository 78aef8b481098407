package rest_test

import (
	"slices"
	"testing"

	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// TestProjectQueueRate sets a project's queue_rate_per_minute over REST:
// shown on the project, used by the queue's pace, null back to the
// operator's default, and refused (422 naming the field, nothing changed)
// outside 1..6000 or when not a number.
func TestProjectQueueRate(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := newServer(t, d)
			tn := s.tenant("acme")
			path := "/api/v2/projects/" + tn.ProjectID
			pace := func() any {
				t.Helper()
				q := s.must(200, req{method: "GET", path: "/api/v2/invoices/queue", clientID: tn.ClientID, secret: tn.Secret})
				return q["rate_per_minute"]
			}
			project := func() map[string]any {
				t.Helper()
				return s.must(200, req{method: "GET", path: "/api/v2/projects", token: tn.Token})["items"].([]any)[0].(map[string]any)
			}
			if p := project(); p["queue_rate_per_minute"] != nil {
				t.Fatalf("a new project's rate: %v", p["queue_rate_per_minute"])
			}
			if got := pace(); got != float64(600) {
				t.Fatalf("default pace %v, want 600", got)
			}
			pr := s.must(200, req{method: "PATCH", path: path, token: tn.Token, body: map[string]any{"queue_rate_per_minute": 6000}})
			if pr["queue_rate_per_minute"] != float64(6000) || pr["clearance_deadline_minutes"] != float64(60) {
				t.Fatalf("patch: %v", pr)
			}
			if got := pace(); got != float64(6000) {
				t.Fatalf("pace after the patch %v, want 6000", got)
			}
			// Another setting leaves the rate as it is.
			s.must(200, req{method: "PATCH", path: path, token: tn.Token, body: map[string]any{"clearance_deadline_minutes": 90}})
			if p := project(); p["queue_rate_per_minute"] != float64(6000) {
				t.Fatalf("rate after another change: %v", p)
			}
			for _, c := range []struct {
				name string
				body any
				want []string
			}{
				{"zero", map[string]any{"queue_rate_per_minute": 0}, []string{"value_error@body/queue_rate_per_minute"}},
				{"negative", map[string]any{"queue_rate_per_minute": -5}, []string{"value_error@body/queue_rate_per_minute"}},
				{"too fast", map[string]any{"queue_rate_per_minute": 6001}, []string{"value_error@body/queue_rate_per_minute"}},
				{"a string", map[string]any{"queue_rate_per_minute": "600"}, []string{"int_type@body/queue_rate_per_minute"}},
				{"a fraction", map[string]any{"queue_rate_per_minute": 1.5}, []string{"int_type@body/queue_rate_per_minute"}},
				{"with a bad profile", map[string]any{"queue_rate_per_minute": 10, "validation_profile": "lenient"}, []string{"enum@body/validation_profile"}},
			} {
				t.Run(c.name, func(t *testing.T) {
					if got := locs(detail(t, s.do(req{method: "PATCH", path: path, token: tn.Token, body: c.body}))); !slices.Equal(got, c.want) {
						t.Fatalf("got %v, want %v", got, c.want)
					}
				})
			}
			if got := pace(); got != float64(6000) {
				t.Fatalf("pace after refusals %v, want 6000", got)
			}
			pr = s.must(200, req{method: "PATCH", path: path, token: tn.Token, body: map[string]any{"queue_rate_per_minute": 1}})
			if pr["queue_rate_per_minute"] != float64(1) || pace() != float64(1) {
				t.Fatalf("the slowest rate: %v", pr)
			}
			pr = s.must(200, req{method: "PATCH", path: path, token: tn.Token, body: map[string]any{"queue_rate_per_minute": nil}})
			if _, ok := pr["queue_rate_per_minute"]; !ok || pr["queue_rate_per_minute"] != nil {
				t.Fatalf("null: %v", pr)
			}
			if got := pace(); got != float64(600) {
				t.Fatalf("pace after null %v, want the default 600", got)
			}
		})
	}
}
