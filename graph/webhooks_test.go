package graph_test

import (
	"testing"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// Project.events and the webhook endpoint mutations over GraphQL, with the
// same rules and tenant checks as REST.
func TestWebhooksGraphQL(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		s := newServer(t, d, graph.Options{})
		a, b := s.tenant("gqlhooka"), s.tenant("gqlhookb")
		var ev struct {
			Project struct {
				Events struct {
					Edges []struct {
						Node struct {
							ID, Type string
							Data     map[string]any
						}
					}
				}
			}
		}
		q := `query($id: ID!) { project(id: $id) { events(types: ["api_key.*"]) { edges { node { id type data } } } } }`
		s.must(a.Token, q, map[string]any{"id": a.ProjectID}, &ev)
		if e := ev.Project.Events.Edges; len(e) != 1 || e[0].Node.Type != "api_key.created" || e[0].Node.Data["id"] != a.KeyID {
			t.Fatalf("events: %+v", ev)
		}
		if code := s.do(b.Token, q, map[string]any{"id": a.ProjectID}).code(t); code != "not_found" {
			t.Fatalf("another tenant's events: %s", code)
		}

		create := `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret endpoint { id enabled eventTypes } } }`
		r := s.do(a.Token, create, map[string]any{"input": map[string]any{"projectId": a.ProjectID, "url": "http://127.0.0.1:19399/x"}})
		if locs := r.locs(t); len(locs) != 1 || locs[0] != "value_error@input/url" {
			t.Fatalf("loopback URL: %v", locs)
		}
		var cr struct {
			CreateWebhookEndpoint struct {
				Secret   string
				Endpoint struct {
					ID         string
					Enabled    bool
					EventTypes []string
				}
			}
		}
		s.must(a.Token, create, map[string]any{"input": map[string]any{"projectId": a.ProjectID, "url": "https://93.184.215.14/hooks",
			"eventTypes": []any{"certification_run.*"}}}, &cr)
		ep := cr.CreateWebhookEndpoint
		if len(ep.Secret) < 30 || !ep.Endpoint.Enabled || len(ep.Endpoint.EventTypes) != 1 {
			t.Fatalf("create: %+v", cr)
		}
		vars := map[string]any{"p": a.ProjectID, "e": ep.Endpoint.ID}
		rot := `mutation($p: ID!, $e: ID!) { rotateWebhookEndpointSecret(projectId: $p, endpointId: $e) { secret endpoint { previousSecretExpiresAt } } }`
		if code := s.do(b.Token, rot, vars).code(t); code != "not_found" {
			t.Fatalf("another tenant rotates: %s", code)
		}
		s.must(a.Token, rot, vars, nil)
		s.must(a.Token, `mutation($p: ID!, $e: ID!) { updateWebhookEndpoint(input: {projectId: $p, endpointId: $e, enabled: false}) { enabled } }`, vars, nil)
		s.must(a.Token, `query($p: ID!) { project(id: $p) { webhookEndpoints { edges { node { id enabled deliveries { edges { node { id } } } } } } } }`,
			map[string]any{"p": a.ProjectID}, nil)
		s.must(a.Token, `mutation($p: ID!, $e: ID!) { deleteWebhookEndpoint(projectId: $p, endpointId: $e) { deleted } }`, vars, nil)
		if code := s.do(a.Token, `mutation($id: ID!) { redeliverEvent(eventId: $id) { eventId } }`,
			map[string]any{"id": ev.Project.Events.Edges[0].Node.ID}).Errors; code != nil {
			t.Fatalf("redeliver: %+v", code)
		}
		if code := s.do(b.Token, `mutation($id: ID!) { redeliverEvent(eventId: $id) { eventId } }`,
			map[string]any{"id": ev.Project.Events.Edges[0].Node.ID}).code(t); code != "not_found" {
			t.Fatalf("another tenant redelivers: %s", code)
		}
	})
}
