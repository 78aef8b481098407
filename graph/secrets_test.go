package graph_test

import (
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/graph"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// TestSecretsOnlyInCreateAndRotate checks that a key's secret appears in the
// answers of createApiKey and rotateApiKey and nowhere else: not in me, not
// in a project's keys, not in the audit log, not in the schema.
func TestSecretsOnlyInCreateAndRotate(t *testing.T) {
	forEachDialect(t, func(t *testing.T, d storetest.Dialect) {
		s := newServer(t, d, graph.Options{Introspection: true})
		tn := s.tenant("secretive")
		var rot struct{ RotateAPIKey keyPayload }
		s.must(tn.Token, `mutation($p: ID!, $k: ID!) { rotateApiKey(projectId: $p, keyId: $k, graceSeconds: 30) { key { id } clientSecret } }`,
			map[string]any{"p": tn.ProjectID, "k": tn.KeyID}, &rot)
		secrets := []string{tn.Secret, rot.RotateAPIKey.ClientSecret}
		if secrets[0] == "" || secrets[1] == "" || secrets[0] == secrets[1] {
			t.Fatalf("secrets = %q", secrets)
		}

		answers := map[string]result{
			"me":       s.must(tn.Token, meQuery, nil, nil),
			"project":  s.must(tn.Token, `query($id: ID!) { project(id: $id) { apiKeys { edges { node { id clientId secretLast4 scopes status } } } } }`, map[string]any{"id": tn.ProjectID}, nil),
			"audit":    s.must(tn.Token, `{ auditLogs { edges { node { action target { id } userAgent requestId } } } }`, nil, nil),
			"ApiKey":   s.must("", `{ __type(name: "ApiKey") { fields { name } } }`, nil, nil),
			"payloads": s.must("", `{ __type(name: "ApiKeySecretPayload") { fields { name } } }`, nil, nil),
		}
		for name, r := range answers {
			for _, sec := range secrets {
				if strings.Contains(string(r.Raw), sec) || strings.Contains(string(r.Raw), sec[:len(sec)-4]) {
					t.Fatalf("%s shows a secret: %s", name, r.Raw)
				}
			}
		}
		if raw := string(answers["ApiKey"].Raw); strings.Contains(raw, "clientSecret") || strings.Contains(raw, `"hash"`) || !strings.Contains(raw, "secretLast4") {
			t.Fatalf("ApiKey fields: %s", raw)
		}
		if raw := string(answers["payloads"].Raw); !strings.Contains(raw, "clientSecret") {
			t.Fatalf("ApiKeySecretPayload fields: %s", raw)
		}
		if r := s.do(tn.Token, `{ me { organizations { edges { node { projects { edges { node { apiKeys { edges { node { clientSecret } } } } } } } } } } }`, nil); r.code(t) != "GRAPHQL_VALIDATION_FAILED" {
			t.Fatalf("asking a listed key for its secret: %s", r.Raw)
		}
	})
}
