package rest_test

import (
	"slices"
	"testing"
)

// TestProjectValidationProfile sets a project's profile over REST and sees
// validation follow it, on both API versions.
func TestProjectValidationProfile(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	other := s.tenant("other")
	path := "/api/v2/projects/" + tn.ProjectID
	payable := fixture(t, "invalid-payable-mismatch.json")
	validate := func(prefix string, body map[string]any) map[string]any {
		t.Helper()
		body["invoice_type_code"], body["tax_authority_code"], body["payload"] = "B2B", "NRS", payable
		return s.must(200, req{method: "POST", path: prefix + "/invoices/schema/validate", clientID: tn.ClientID, secret: tn.Secret, body: body})
	}
	if got := validate("/api/v2", map[string]any{}); got["valid"] != true || got["profile"] != "nrs" {
		t.Fatalf("default profile: %v %v", got["valid"], got["profile"])
	}

	pr := s.must(200, req{method: "PATCH", path: path, token: tn.Token, body: map[string]any{"validation_profile": "strict"}})
	if pr["validation_profile"] != "strict" || pr["id"] != tn.ProjectID {
		t.Fatalf("patch: %v", pr)
	}
	for _, prefix := range []string{"/api/v2", "/api/v1"} {
		if got := validate(prefix, map[string]any{}); got["valid"] != false || got["profile"] != "strict" {
			t.Errorf("%s with the project's strict: %v %v", prefix, got["valid"], got["profile"])
		}
		if got := validate(prefix, map[string]any{"profile": "nrs"}); got["valid"] != true || got["profile"] != "nrs" {
			t.Errorf("%s with the request's nrs: %v %v", prefix, got["valid"], got["profile"])
		}
	}
	list := s.must(200, req{method: "GET", path: "/api/v2/projects", token: tn.Token})
	if p := list["items"].([]any)[0].(map[string]any); p["validation_profile"] != "strict" {
		t.Errorf("listed project: %v", p)
	}
	audit := s.must(200, req{method: "GET", path: "/api/v2/audit-logs?action=project.update", token: tn.Token})
	if items := audit["items"].([]any); len(items) != 1 {
		t.Errorf("audit entries: %v", items)
	}

	// Refusals change nothing.
	for _, c := range []struct {
		name string
		body any
		want []string
	}{
		{"empty", map[string]any{}, []string{"missing@body/validation_profile"}},
		{"unknown profile", map[string]any{"validation_profile": "lenient"}, []string{"enum@body/validation_profile"}},
		{"wrong type", map[string]any{"validation_profile": 1}, []string{"string_type@body/validation_profile"}},
		{"null", map[string]any{"validation_profile": nil}, []string{"missing@body/validation_profile"}},
		{"upper case", map[string]any{"validation_profile": "NRS"}, []string{"enum@body/validation_profile"}},
		{"unknown field", map[string]any{"validation_profile": "nrs", "name": "Renamed"}, []string{"extra_forbidden@body/name"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := locs(detail(t, s.do(req{method: "PATCH", path: path, token: tn.Token, body: c.body}))); !slices.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
	if r := s.do(req{method: "PATCH", path: path, token: tn.Token, body: `validation_profile=nrs`,
		header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}); r.Status != 415 || r.json(t)["code"] != "unsupported_media_type" {
		t.Errorf("a form body: %d %s", r.Status, r.Body)
	}
	if r := s.do(req{method: "PATCH", path: path, token: tn.Token, body: `{"validation_profile":"strict","validation_profile":"nrs"}`,
		header: map[string]string{"Content-Type": "application/json"}}); !slices.Equal(locs(detail(t, r)), []string{"value_error@body/validation_profile"}) {
		t.Errorf("a name given twice: %d %s", r.Status, r.Body)
	}
	if r := s.do(req{method: "PATCH", path: path, body: map[string]any{"validation_profile": "nrs"}}); r.Status != 401 {
		t.Errorf("without a token: %d", r.Status)
	}
	if r := s.do(req{method: "PATCH", path: path, token: other.Token, body: map[string]any{"validation_profile": "nrs"}}); r.Status != 404 {
		t.Errorf("another tenant's project: %d %s", r.Status, r.Body)
	}
	if got := locs(detail(t, s.do(req{method: "PATCH", path: "/api/v2/projects/not-a-uuid", token: tn.Token, body: map[string]any{"validation_profile": "nrs"}}))); !slices.Equal(got, []string{"uuid_parsing@path/project_id"}) {
		t.Errorf("bad id: %v", got)
	}
	if got := validate("/api/v2", map[string]any{}); got["profile"] != "strict" {
		t.Errorf("a refused update changed the profile to %v", got["profile"])
	}
}
