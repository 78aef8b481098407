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

	"github.com/einvoice-ng/einvoice/model/idempotency"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

// TestKeyChangeDiesBeforeItsAnswerIsKept: the API process dies after a key
// create or rotate under an Idempotency-Key committed, before the
// middleware kept the answer. Once the claim's lease lapsed, a retry with
// the same key is answered the first key and secret, byte for byte: no
// second key is created, the key is rotated once (the secret first
// answered is the one that works), and the stored answer holds no secret
// in clear, on SQLite and PostgreSQL.
func TestKeyChangeDiesBeforeItsAnswerIsKept(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			clock := &fakeClock{}
			s := newServerOn(t, d.Open(t), clock.Now)
			tn := s.tenant("acme")
			keysPath := "/api/v2/projects/" + tn.ProjectID + "/keys"
			var dying atomic.Bool
			dying.Store(true)
			rest.DieAfterHandler(t, func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, keysPath) && dying.Load() })

			create := withKey(req{method: "POST", path: keysPath, token: tn.Token, body: map[string]any{"key_name": "erp"}}, "create-1")
			rotate := withKey(req{method: "POST", path: keysPath + "/" + tn.KeyID + "/rotate?grace_seconds=0", token: tn.Token}, "rotate-1")
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

			// One key created: the tenant's and the one first answered.
			newKey := created.json(t)
			list := s.must(200, req{method: "GET", path: keysPath, token: tn.Token})
			items := list["items"].([]any)
			ids := map[string]bool{}
			for _, it := range items {
				ids[it.(map[string]any)["id"].(string)] = true
			}
			if len(items) != 2 || !ids[tn.KeyID] || !ids[newKey["id"].(string)] {
				t.Fatalf("keys %v, want %s and %s", ids, tn.KeyID, newKey["id"])
			}
			// Both secrets first answered work; the rotated key's old one does
			// not (rotated without grace), nor would the first answer's had the
			// key been rotated again.
			rotatedKey := rotated.json(t)
			irn := func(clientID, secret string, n int) response {
				return s.do(irnReq(tenant{ClientID: clientID, Secret: secret}, map[string]any{"invoice_reference": fmt.Sprintf("INV%03d", n),
					"invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}))
			}
			if r := irn(newKey["client_id"].(string), newKey["client_secret"].(string), 1); r.Status != 200 {
				t.Fatalf("the created key's secret: %d %s", r.Status, r.Body)
			}
			if r := irn(tn.ClientID, rotatedKey["client_secret"].(string), 2); r.Status != 200 {
				t.Fatalf("the rotated key's secret: %d %s", r.Status, r.Body)
			}
			if r := irn(tn.ClientID, tn.Secret, 3); r.Status != 401 {
				t.Fatalf("the secret rotated away: %d %s, want 401", r.Status, r.Body)
			}

			// Kept sealed, as every stored answer.
			for _, b := range storedBodies(t, s) {
				for _, sec := range []string{newKey["client_secret"].(string), rotatedKey["client_secret"].(string)} {
					if bytes.Contains(b, []byte(sec)) {
						t.Fatalf("a stored response holds a secret in clear: %q", b)
					}
				}
			}
		})
	}
}

// TestGraphQLKeyChangeDiesBeforeItsAnswerIsKept: as
// TestKeyChangeDiesBeforeItsAnswerIsKept for createApiKey and rotateApiKey
// (two keys created and one rotated in one document). The retry after the
// process died runs the document again and answers each field with the key
// and secret it first answered: no other key is created, the key is
// rotated once, and neither the stored answer nor the recorded effects
// hold a secret in clear, on SQLite and PostgreSQL.
func TestGraphQLKeyChangeDiesBeforeItsAnswerIsKept(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			clock := &fakeClock{}
			s := withGraphQL(newServerOn(t, d.Open(t), clock.Now), rest.Options{})
			tn := s.tenant("acme")
			var dying atomic.Bool
			dying.Store(true)
			rest.DieAfterHandler(t, func(r *http.Request) bool { return r.URL.Path == "/graphql" && dying.Load() })

			const fields = `{ clientSecret key { id clientId secretLast4 status createdAt rotatedAt } }`
			doc := req{method: "POST", path: "/graphql", token: tn.Token, body: map[string]any{"query": fmt.Sprintf(`mutation {
				a: createApiKey(input: {projectId: %[1]q, keyName: "erp"}) %[3]s
				b: createApiKey(input: {projectId: %[1]q, keyName: "pos"}) %[3]s
				r: rotateApiKey(projectId: %[1]q, keyId: %[2]q, graceSeconds: 0) %[3]s
			}`, tn.ProjectID, tn.KeyID, fields)}}
			doc = withKey(doc, "keys-1")
			first := s.do(doc)
			answered := gqlKeys(t, first)

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

			list := s.must(200, req{method: "GET", path: "/api/v2/projects/" + tn.ProjectID + "/keys", token: tn.Token})
			ids := map[string]bool{}
			for _, it := range list["items"].([]any) {
				ids[it.(map[string]any)["id"].(string)] = true
			}
			if len(ids) != 3 || !ids[tn.KeyID] || !ids[answered["a"].Key.ID] || !ids[answered["b"].Key.ID] || answered["r"].Key.ID != tn.KeyID {
				t.Fatalf("keys %v, want %s and the two first created %+v", ids, tn.KeyID, answered)
			}
			for i, f := range []string{"a", "b", "r"} {
				k := answered[f]
				r := s.do(irnReq(tenant{ClientID: k.Key.ClientID, Secret: k.ClientSecret}, map[string]any{"invoice_reference": fmt.Sprintf("INV%03d", i),
					"invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}))
				if r.Status != 200 {
					t.Fatalf("the secret first answered for %s: %d %s", f, r.Status, r.Body)
				}
			}
			if r := s.do(irnReq(tn, map[string]any{"invoice_reference": "INV009", "invoice_type_code": "381", "tax_authority_code": "NRS",
				"issue_date": "2026-03-15"})); r.Status != 401 {
				t.Fatalf("the secret rotated away: %d %s, want 401", r.Status, r.Body)
			}

			var effects []string
			if err := s.st.DB().NewSelect().Table("idempotency_keys").Column("effects").Scan(context.Background(), &effects); err != nil {
				t.Fatal(err)
			}
			stored := append(storedBodies(t, s), []byte(strings.Join(effects, "")))
			if !bytes.Contains(stored[len(stored)-1], []byte(answered["a"].Key.ID)) {
				t.Fatalf("effects %q, want the keys recorded", effects)
			}
			for _, b := range stored {
				for f, k := range answered {
					if bytes.Contains(b, []byte(k.ClientSecret)) {
						t.Fatalf("%s's secret kept in clear: %q", f, b)
					}
				}
			}
		})
	}
}

// gqlKey is a createApiKey or rotateApiKey answer.
type gqlKey struct {
	ClientSecret string `json:"clientSecret"`
	Key          struct {
		ID       string `json:"id"`
		ClientID string `json:"clientId"`
	} `json:"key"`
}

// gqlKeys decodes the answered keys of a mutation, by field; every field
// must have answered.
func gqlKeys(t testing.TB, r response) map[string]gqlKey {
	t.Helper()
	var body struct {
		Data   map[string]*gqlKey `json:"data"`
		Errors []any              `json:"errors"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil || r.Status != 200 || len(body.Errors) != 0 {
		t.Fatalf("mutation: %d %v %s", r.Status, err, r.Body)
	}
	out := map[string]gqlKey{}
	for f, k := range body.Data {
		if k == nil || len(k.ClientSecret) < 20 || k.Key.ID == "" {
			t.Fatalf("field %s: %s", f, r.Body)
		}
		out[f] = *k
	}
	return out
}
