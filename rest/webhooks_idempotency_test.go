package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/idempotency"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

// signingServer is a server over a fresh store of d with a clock, and the
// box that seals its endpoints' signing secrets.
func signingServer(t *testing.T, d storetest.Dialect, clock *fakeClock) (*server, *secret.Box) {
	t.Helper()
	var box *secret.Box
	s := build(t, d.Open(t), func(c *app.Config) { c.Now, box = clock.Now, c.Box }, nil)
	return s, box
}

// signingSecrets returns, by endpoint id, the secret each of the project's
// endpoints signs with now and the previous one still signing, if any.
func signingSecrets(t *testing.T, s *server, box *secret.Box, projectID string) map[string][2]string {
	t.Helper()
	var eps []model.WebhookEndpoint
	if err := s.st.DB().NewSelect().Model(&eps).Where("project_id = ?", projectID).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	out := map[string][2]string{}
	for _, e := range eps {
		ad := "webhook_endpoint:" + e.ID.String() + ":secret"
		cur, err := box.Open(e.SecretEnc, ad)
		if err != nil {
			t.Fatal(err)
		}
		prev, err := box.Open(e.PrevSecretEnc, ad)
		if err != nil {
			t.Fatal(err)
		}
		out[e.ID.String()] = [2]string{string(cur), string(prev)}
	}
	return out
}

// TestEndpointChangeDiesBeforeItsAnswerIsKept: the API process dies after
// a webhook endpoint create or secret rotation under an Idempotency-Key
// committed, before the middleware kept the answer. Once the claim's
// lease lapsed, a retry with the same key is answered the first endpoint
// and secret, byte for byte: no second endpoint is created (events would
// be delivered twice), the secret is rotated once (the secret first
// answered is the one the endpoint signs with), and the stored answer
// holds no secret in clear, on SQLite and PostgreSQL.
func TestEndpointChangeDiesBeforeItsAnswerIsKept(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			clock := &fakeClock{}
			s, box := signingServer(t, d, clock)
			tn := s.tenant("acme")
			base := "/api/v2/projects/" + tn.ProjectID + "/webhook-endpoints"
			old := s.must(200, req{method: "POST", path: base, token: tn.Token, body: map[string]any{"url": "http://93.184.215.14/old"}})
			oldID := old["id"].(string)
			var dying atomic.Bool
			dying.Store(true)
			rest.DieAfterHandler(t, func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, base) && dying.Load() })

			create := withKey(req{method: "POST", path: base, token: tn.Token, body: map[string]any{"url": "http://93.184.215.14/hooks"}}, "create-1")
			rotate := withKey(req{method: "POST", path: base + "/" + oldID + "/rotate-secret?grace_seconds=0", token: tn.Token}, "rotate-1")
			created, rotated := s.do(create), s.do(rotate)
			for _, first := range []response{created, rotated} {
				if first.Status != 200 {
					t.Fatalf("first: %d %s", first.Status, first.Body)
				}
			}

			// The dead process's claims lapse; the retries reach a live one.
			dying.Store(false)
			clock.Advance(idempotency.DefaultLease + time.Second)
			for _, c := range []struct {
				r     req
				first response
			}{{create, created}, {rotate, rotated}} {
				for i := 0; i < 2; i++ {
					again := s.do(c.r)
					if again.Status != 200 || again.Header.Get(rest.ReplayedHeader) != "true" || !bytes.Equal(again.Body, c.first.Body) ||
						again.Header.Get("Content-Type") != c.first.Header.Get("Content-Type") || again.Header.Get("Cache-Control") != "no-store" {
						t.Fatalf("%s retry %d: %d %v %s, want the first answer %s replayed", c.r.path, i, again.Status, again.Header, again.Body, c.first.Body)
					}
				}
			}

			// One endpoint created, and each signs with the secret first
			// answered for it: the rotated one was rotated once, without
			// grace, so its first secret no longer signs.
			newEp, rotatedEp := created.json(t), rotated.json(t)
			secrets := signingSecrets(t, s, box, tn.ProjectID)
			want := map[string][2]string{newEp["id"].(string): {newEp["secret"].(string), ""}, oldID: {rotatedEp["secret"].(string), ""}}
			if len(secrets) != 2 || secrets[newEp["id"].(string)] != want[newEp["id"].(string)] || secrets[oldID] != want[oldID] ||
				rotatedEp["id"] != oldID || rotatedEp["secret"] == old["secret"] {
				t.Fatalf("endpoints %v, want %v", secrets, want)
			}
			list := s.must(200, req{method: "GET", path: base, token: tn.Token})
			if n := len(list["items"].([]any)); n != 2 {
				t.Fatalf("%d endpoints listed, want 2: %v", n, list)
			}

			// Kept sealed, as every stored answer.
			for _, b := range storedBodies(t, s) {
				for _, sec := range []string{newEp["secret"].(string), rotatedEp["secret"].(string)} {
					if bytes.Contains(b, []byte(sec)) {
						t.Fatalf("a stored response holds a secret in clear: %q", b)
					}
				}
			}
		})
	}
}

// TestGraphQLEndpointChangeDiesBeforeItsAnswerIsKept: as
// TestEndpointChangeDiesBeforeItsAnswerIsKept for createWebhookEndpoint
// and rotateWebhookEndpointSecret (two endpoints created and one rotated
// in one document). The retry after the process died runs the document
// again and answers each field with the endpoint and secret it first
// answered: no other endpoint is created, the secret is rotated once, and
// neither the stored answer nor the recorded effects hold a secret in
// clear, on SQLite and PostgreSQL.
func TestGraphQLEndpointChangeDiesBeforeItsAnswerIsKept(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			clock := &fakeClock{}
			s, box := signingServer(t, d, clock)
			s = withGraphQL(s, rest.Options{})
			tn := s.tenant("acme")
			old := s.must(200, req{method: "POST", path: "/api/v2/projects/" + tn.ProjectID + "/webhook-endpoints", token: tn.Token,
				body: map[string]any{"url": "http://93.184.215.14/old"}})
			oldID := old["id"].(string)
			var dying atomic.Bool
			dying.Store(true)
			rest.DieAfterHandler(t, func(r *http.Request) bool { return r.URL.Path == "/graphql" && dying.Load() })

			const fields = `{ secret endpoint { id url secretLast4 previousSecretExpiresAt createdAt updatedAt } }`
			doc := req{method: "POST", path: "/graphql", token: tn.Token, body: map[string]any{"query": fmt.Sprintf(`mutation {
				a: createWebhookEndpoint(input: {projectId: %[1]q, url: "http://93.184.215.14/a"}) %[3]s
				b: createWebhookEndpoint(input: {projectId: %[1]q, url: "http://93.184.215.14/b"}) %[3]s
				r: rotateWebhookEndpointSecret(projectId: %[1]q, endpointId: %[2]q, graceSeconds: 0) %[3]s
			}`, tn.ProjectID, oldID, fields)}}
			doc = withKey(doc, "endpoints-1")
			first := s.do(doc)
			answered := gqlEndpoints(t, first)

			// The dead process's claim lapses; the retry reaches a live one,
			// runs the document again and answers it as the first time.
			dying.Store(false)
			clock.Advance(idempotency.DefaultLease + time.Second)
			retry := s.do(doc)
			if retry.Status != 200 || retry.Header.Get(rest.ReplayedHeader) != "" || !bytes.Equal(retry.Body, first.Body) {
				t.Fatalf("retry: %d %v %s, want the mutation answered again as %s", retry.Status, retry.Header, retry.Body, first.Body)
			}
			// The retry's answer is kept: the next one replays it.
			replay := s.do(doc)
			if replay.Status != 200 || replay.Header.Get(rest.ReplayedHeader) != "true" || !bytes.Equal(replay.Body, first.Body) {
				t.Fatalf("second retry: %d %v %s, want %s replayed", replay.Status, replay.Header, replay.Body, first.Body)
			}

			// Three endpoints (the old one and the two first created), each
			// signing with the secret first answered for it.
			secrets := signingSecrets(t, s, box, tn.ProjectID)
			if len(secrets) != 3 || answered["r"].Endpoint.ID != oldID || answered["r"].Secret == old["secret"] {
				t.Fatalf("endpoints %v, want %s and the two first created %+v", secrets, oldID, answered)
			}
			for f, e := range answered {
				if got := secrets[e.Endpoint.ID]; got != [2]string{e.Secret, ""} {
					t.Fatalf("%s: endpoint %s signs with %q, want %q only", f, e.Endpoint.ID, got, e.Secret)
				}
			}

			var effects []string
			if err := s.st.DB().NewSelect().Table("idempotency_keys").Column("effects").Scan(context.Background(), &effects); err != nil {
				t.Fatal(err)
			}
			stored := append(storedBodies(t, s), []byte(strings.Join(effects, "")))
			if !bytes.Contains(stored[len(stored)-1], []byte(answered["a"].Endpoint.ID)) {
				t.Fatalf("effects %q, want the endpoints recorded", effects)
			}
			for _, b := range stored {
				for f, e := range answered {
					if bytes.Contains(b, []byte(e.Secret)) {
						t.Fatalf("%s's secret kept in clear: %q", f, b)
					}
				}
			}
		})
	}
}

// gqlEndpoint is a createWebhookEndpoint or rotateWebhookEndpointSecret
// answer.
type gqlEndpoint struct {
	Secret   string `json:"secret"`
	Endpoint struct {
		ID string `json:"id"`
	} `json:"endpoint"`
}

// gqlEndpoints decodes the answered endpoints of a mutation, by field;
// every field must have answered.
func gqlEndpoints(t testing.TB, r response) map[string]gqlEndpoint {
	t.Helper()
	var body struct {
		Data   map[string]*gqlEndpoint `json:"data"`
		Errors []any                   `json:"errors"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil || r.Status != 200 || len(body.Errors) != 0 {
		t.Fatalf("mutation: %d %v %s", r.Status, err, r.Body)
	}
	out := map[string]gqlEndpoint{}
	for f, e := range body.Data {
		if e == nil || len(e.Secret) < 30 || e.Endpoint.ID == "" {
			t.Fatalf("field %s: %s", f, r.Body)
		}
		out[f] = *e
	}
	return out
}
