package rest_test

import (
	"bytes"
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
