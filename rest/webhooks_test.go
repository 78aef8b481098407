package rest_test

import (
	"testing"

	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// The event and webhook routes over REST: events listed with an API key
// and with a bearer token, the URL rules, the secret shown once, and
// another tenant's records not found.
func TestEventsAndWebhookEndpoints(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := newServer(t, d)
			a, b := s.tenant("hooka"), s.tenant("hookb")

			// The key's creation is an event, with the key as the API shows it.
			list := s.must(200, req{method: "GET", path: "/api/v2/events?type=api_key.*", clientID: a.ClientID, secret: a.Secret})
			items := list["items"].([]any)
			if len(items) != 1 {
				t.Fatalf("events: %v", list)
			}
			ev := items[0].(map[string]any)
			obj := ev["data"].(map[string]any)["object"].(map[string]any)
			if ev["type"] != "api_key.created" || obj["id"] != a.KeyID || obj["client_secret"] != nil {
				t.Fatalf("event: %v", ev)
			}
			id := ev["id"].(string)
			s.must(200, req{method: "GET", path: "/api/v2/events/" + id, token: a.Token})
			s.must(200, req{method: "GET", path: "/api/v2/events?project_id=" + a.ProjectID, token: a.Token})
			s.must(404, req{method: "GET", path: "/api/v2/events/" + id, token: b.Token})
			s.must(404, req{method: "GET", path: "/api/v2/events/" + id, clientID: b.ClientID, secret: b.Secret})
			s.must(404, req{method: "GET", path: "/api/v2/events?project_id=" + a.ProjectID, token: b.Token})
			s.must(422, req{method: "GET", path: "/api/v2/events", token: a.Token})
			s.must(422, req{method: "GET", path: "/api/v2/events?type=nonsense", clientID: a.ClientID, secret: a.Secret})
			s.must(404, req{method: "POST", path: "/api/v2/events/" + id + "/redeliver", token: b.Token})

			base := "/api/v2/projects/" + a.ProjectID + "/webhook-endpoints"
			// Loopback, private and metadata addresses are refused (the
			// test server does not allow them), so is a non-URL.
			for _, u := range []string{"http://127.0.0.1:19399/hooks", "https://10.0.0.1/hooks", "http://169.254.169.254/latest",
				"https://[::1]/x", "ftp://example.com/x", "not a url"} {
				s.must(422, req{method: "POST", path: base, token: a.Token, body: map[string]any{"url": u}})
			}
			s.must(422, req{method: "POST", path: base, token: a.Token, body: map[string]any{"url": "https://93.184.215.14/hooks", "event_types": []any{"nope"}}})
			ep := s.must(200, req{method: "POST", path: base, token: a.Token, body: map[string]any{"url": "http://93.184.215.14/hooks"}})
			if sec, _ := ep["secret"].(string); len(sec) < 30 || ep["enabled"] != true {
				t.Fatalf("endpoint: %v", ep)
			}
			epPath := base + "/" + ep["id"].(string)
			got := s.must(200, req{method: "GET", path: epPath, token: a.Token})
			if got["secret"] != nil {
				t.Fatalf("secret shown again: %v", got)
			}
			s.must(404, req{method: "GET", path: "/api/v2/projects/" + a.ProjectID + "/webhook-endpoints/" + ep["id"].(string), token: b.Token})
			s.must(404, req{method: "PATCH", path: epPath, token: b.Token, body: map[string]any{"enabled": false}})
			s.must(401, req{method: "GET", path: epPath, clientID: a.ClientID, secret: a.Secret})
			up := s.must(200, req{method: "PATCH", path: epPath, token: a.Token, body: map[string]any{"enabled": false, "event_types": []any{"certification_run.*"}}})
			if up["enabled"] != false {
				t.Fatalf("patch: %v", up)
			}
			rot := s.must(200, req{method: "POST", path: epPath + "/rotate-secret", token: a.Token})
			if rot["secret"] == ep["secret"] || rot["previous_secret_expires_at"] == nil {
				t.Fatalf("rotate: %v", rot)
			}
			s.must(200, req{method: "GET", path: epPath + "/deliveries", token: a.Token})
			s.must(200, req{method: "DELETE", path: epPath, token: a.Token})
			s.must(404, req{method: "GET", path: epPath, token: a.Token})
		})
	}
}
