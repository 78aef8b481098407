package rest_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/idempotency"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

// storedBodies reads every body the idempotency store holds, as stored.
func storedBodies(t *testing.T, s *server) [][]byte {
	t.Helper()
	var bodies [][]byte
	if err := s.st.DB().NewSelect().Table("idempotency_keys").Column("body").Scan(context.Background(), &bodies); err != nil {
		t.Fatal(err)
	}
	return bodies
}

// TestAttackIdempotentSecrets replays the review's finding: a key created or
// rotated (or a token issued) under an Idempotency-Key left its secret in
// clear in the store for a day. Stored responses are sealed now; the caller
// that made the request still gets its answer replayed (it may never have
// seen it), on REST and GraphQL.
func TestAttackIdempotentSecrets(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := withGraphQL(newServer(t, d), rest.Options{})
			tn := s.tenant("acme")
			keys := "/api/v2/projects/" + tn.ProjectID + "/keys"
			gql := func(query string) req {
				return req{method: "POST", path: "/graphql", token: tn.Token, body: map[string]any{"query": query}}
			}
			var secrets []string
			for i, r := range []req{
				{method: "POST", path: keys, token: tn.Token, body: map[string]any{"key_name": "erp"}},
				{method: "POST", path: keys + "/" + tn.KeyID + "/rotate?grace_seconds=60", token: tn.Token},
				gql(fmt.Sprintf(`mutation { createApiKey(input: {projectId: %q, keyName: "gql"}) { clientSecret } }`, tn.ProjectID)),
				gql(fmt.Sprintf(`mutation { rotateApiKey(projectId: %q, keyId: %q) { clientSecret } }`, tn.ProjectID, tn.KeyID)),
				gql(`mutation { login(input: {email: "acme@example.com", password: "correct horse battery"}) { accessToken } }`),
			} {
				r = withKey(r, fmt.Sprintf("idem-%d", i))
				first := s.do(r)
				again := s.do(r)
				if first.Status != 200 || again.Status != 200 || again.Header.Get(rest.ReplayedHeader) != "true" || !bytes.Equal(first.Body, again.Body) {
					t.Fatalf("%s %s: %d / %d %v %s", r.method, r.path, first.Status, again.Status, again.Header, again.Body)
				}
				if again.Header.Get("Cache-Control") != "no-store" {
					t.Fatalf("replay without Cache-Control: no-store: %v", again.Header)
				}
				secret := secretOf(t, first.Body)
				secrets = append(secrets, secret)
			}
			bodies := storedBodies(t, s)
			if len(bodies) != len(secrets) {
				t.Fatalf("%d stored responses, want %d", len(bodies), len(secrets))
			}
			for _, b := range bodies {
				for _, sec := range secrets {
					if bytes.Contains(b, []byte(sec)) {
						t.Fatalf("a stored response holds a secret in clear: %q", b)
					}
				}
				if bytes.Contains(b, []byte(`"client_id"`)) || bytes.Contains(b, []byte(`"data"`)) {
					t.Fatalf("a stored response is in clear: %q", b)
				}
			}
		})
	}
}

// secretOf pulls the secret or token out of an answer.
func secretOf(t *testing.T, body []byte) string {
	t.Helper()
	for _, field := range []string{`"client_secret":"`, `"clientSecret":"`, `"accessToken":"`} {
		if _, rest, ok := strings.Cut(string(body), field); ok {
			v, _, _ := strings.Cut(rest, `"`)
			if len(v) >= 20 {
				return v
			}
		}
	}
	t.Fatalf("no secret in %s", body)
	return ""
}

// TestAttackIdempotencyAmplification replays the review's amplification
// (20 requests of 209 KB kept 156 MB for a day) under small bounds: a
// response past the replay bound keeps only its size and hash, a
// credential's stored bytes stay within its quota, and past its quota of
// keys a request with a new key is refused before it runs. The counts are
// the attack's cost in storage.
func TestAttackIdempotencyAmplification(t *testing.T) {
	const (
		maxResponse = 1024
		maxBytes    = 4096
		maxKeys     = 40
	)
	s := build(t, sqlite().Open(t), func(c *app.Config) {
		c.Idempotency = idempotency.Limits{MaxResponseBytes: maxResponse, MaxBytesPerCredential: maxBytes, MaxKeysPerCredential: maxKeys}
	}, nil)
	tn := s.tenant("acme")
	render := renderReq(tn, renderPath, map[string]any{"invoice_type": "B2B", "payload": loadFixture(t, "invoice-b2b-1.1.json")}, nil)
	sent := 0
	for i := range 10 {
		res := s.do(withKey(render, fmt.Sprintf("render-%d", i)))
		if res.Status != 200 || len(res.Body) <= maxResponse {
			t.Fatalf("render: %d, %d bytes (want more than %d)", res.Status, len(res.Body), maxResponse)
		}
		sent += len(res.Body)
	}
	for i := range 25 {
		s.must(200, withKey(irnReq(tn, map[string]any{"invoice_reference": fmt.Sprintf("INV%03d", i), "issue_date": "2026-03-15", "invoice_type_code": "381", "tax_authority_code": "NRS"}),
			fmt.Sprintf("irn-%d", i)))
	}
	stored := 0
	for _, b := range storedBodies(t, s) {
		stored += len(b)
	}
	t.Logf("35 idempotent answers of %d bytes in all (%d of renders) kept %d bytes", sent+25*300, sent, stored)
	if stored > maxBytes {
		t.Fatalf("the credential keeps %d bytes, past its quota of %d", stored, maxBytes)
	}

	// A retry of a response kept as its hash: a final 409, not run again.
	retry := s.do(withKey(render, "render-3"))
	if retry.Status != 409 || retry.Header.Get("Retry-After") != "" || !strings.Contains(string(retry.Body), "SHA-256") {
		t.Fatalf("retry of a response not kept: %d %v %s", retry.Status, retry.Header, retry.Body)
	}
	// Another body under that key is still a reuse.
	if r := s.do(withKey(irnReq(tn, map[string]any{"invoice_reference": "X1", "issue_date": "2026-03-15", "invoice_type_code": "381", "tax_authority_code": "NRS"}), "render-3")); r.Status != 422 {
		t.Fatalf("reuse of a key kept as its hash: %d %s", r.Status, r.Body)
	}

	// 35 keys claimed; 5 more fit, then new keys are refused before running.
	for i := range 5 {
		s.must(200, withKey(irnReq(tn, map[string]any{"invoice_reference": fmt.Sprintf("MORE%d", i), "issue_date": "2026-03-15", "invoice_type_code": "381", "tax_authority_code": "NRS"}),
			fmt.Sprintf("more-%d", i)))
	}
	over := s.do(withKey(irnReq(tn, map[string]any{"invoice_reference": "OVER1", "issue_date": "2026-03-15", "invoice_type_code": "381", "tax_authority_code": "NRS"}), "over"))
	if over.Status != 429 || over.Header.Get("Retry-After") == "" || over.json(t)["code"] != "rate_limited" {
		t.Fatalf("a key past the quota: %d %v %s", over.Status, over.Header, over.Body)
	}
	if n, err := s.st.DB().NewSelect().Table("irns").Where("invoice_reference = ?", "OVER1").Count(context.Background()); err != nil || n != 0 {
		t.Fatalf("the refused request ran: %d irns, %v", n, err)
	}
	// Replays of keys already held still answer, and so do requests
	// without a key.
	if r := s.do(withKey(irnReq(tn, map[string]any{"invoice_reference": "INV001", "issue_date": "2026-03-15", "invoice_type_code": "381", "tax_authority_code": "NRS"}), "irn-1")); r.Status != 200 || r.Header.Get(rest.ReplayedHeader) != "true" {
		t.Fatalf("replay past the quota: %d %s", r.Status, r.Body)
	}
	s.must(200, irnReq(tn, map[string]any{"invoice_reference": "OVER1", "issue_date": "2026-03-15", "invoice_type_code": "381", "tax_authority_code": "NRS"}))
}
