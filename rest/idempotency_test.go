package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/idempotency"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/rest"
)

// sharedStores opens n stores over one fresh, migrated database, as n API
// processes would.
func sharedStores(t testing.TB, d storetest.Dialect, n int) []*store.Store {
	t.Helper()
	var url string
	if d.Name == "postgres" {
		url = storetest.PostgresURL(t)
	} else {
		url = storetest.SQLiteURL(t)
	}
	var out []*store.Store
	for i := 0; i < n; i++ {
		st, err := store.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		if i == 0 {
			if _, err := st.Migrations().Up(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, st)
	}
	return out
}

func withKey(r req, key string) req {
	r.header = map[string]string{"Idempotency-Key": key}
	return r
}

func TestIdempotencyKey(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			s := newServer(t, d)
			tn := s.tenant("acme")
			body := map[string]any{"invoice_reference": "INV001", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}

			first := s.do(withKey(irnReq(tn, body), "order-1"))
			again := s.do(withKey(irnReq(tn, body), "order-1"))
			if first.Status != 200 || again.Status != 200 || !bytes.Equal(first.Body, again.Body) {
				t.Fatalf("replay: %d %s / %d %s", first.Status, first.Body, again.Status, again.Body)
			}
			if first.Header.Get(rest.ReplayedHeader) != "" || again.Header.Get(rest.ReplayedHeader) != "true" {
				t.Fatalf("replay header: first %q, again %q", first.Header.Get(rest.ReplayedHeader), again.Header.Get(rest.ReplayedHeader))
			}
			if again.Header.Get("Content-Type") != first.Header.Get("Content-Type") || again.Header.Get("X-Request-ID") == first.Header.Get("X-Request-ID") {
				t.Fatalf("replayed headers: %v", again.Header)
			}

			// Same key, another body: 422 at the header, nothing runs.
			other := map[string]any{"invoice_reference": "INV002", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}
			ds := detail(t, s.do(withKey(irnReq(tn, other), "order-1")))
			if got := locs(ds); len(got) != 1 || got[0] != "idempotency_key_reuse@header/Idempotency-Key" {
				t.Fatalf("reuse: %v", got)
			}
			// Same key on another path is a reuse too.
			ds = detail(t, s.do(withKey(req{method: "POST", path: "/api/v2/invoices/irn/validate", clientID: tn.ClientID, secret: tn.Secret, body: body}, "order-1")))
			if ds[0]["type"] != "idempotency_key_reuse" {
				t.Fatalf("reuse on another path: %v", ds)
			}

			// Another API key may use the same key for another request.
			tn2 := s.tenant("other")
			if r := s.do(withKey(irnReq(tn2, other), "order-1")); r.Status != 200 || r.Header.Get(rest.ReplayedHeader) != "" {
				t.Fatalf("other credential: %d %v", r.Status, r.Header)
			}

			// Client errors are stored and replayed.
			bad := map[string]any{"invoice_reference": "INV-1", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}
			if r := s.do(withKey(irnReq(tn, bad), "bad-1")); r.Status != 422 || r.Header.Get(rest.ReplayedHeader) != "" {
				t.Fatalf("first 422: %d %s", r.Status, r.Body)
			}
			if r := s.do(withKey(irnReq(tn, bad), "bad-1")); r.Status != 422 || r.Header.Get(rest.ReplayedHeader) != "true" {
				t.Fatalf("replayed 422: %d %v", r.Status, r.Header)
			}

			// A 409 is not stored: the retry runs again.
			clash := map[string]any{"invoice_reference": "INV001", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-16"}
			for i := 0; i < 2; i++ {
				r := s.do(withKey(irnReq(tn, clash), "clash-1"))
				if r.Status != 409 || r.Header.Get(rest.ReplayedHeader) != "" {
					t.Fatalf("409 attempt %d: %d %v %s", i, r.Status, r.Header, r.Body)
				}
			}

			// Bounds of the key: 1..255 printable ASCII, 422 at the header.
			for _, c := range []struct{ key, want string }{
				{"", "string_too_short@header/Idempotency-Key"},
				{strings.Repeat("k", 256), "string_too_long@header/Idempotency-Key"},
			} {
				if got := locs(detail(t, s.do(withKey(irnReq(tn, body), c.key)))); len(got) != 1 || got[0] != c.want {
					t.Fatalf("key %.10q: %v, want %s", c.key, got, c.want)
				}
			}
			if r := s.do(withKey(irnReq(tn, body), strings.Repeat("k", 255))); r.Status != 200 {
				t.Fatalf("255-character key: %d %s", r.Status, r.Body)
			}

			// GETs ignore the header.
			u := s.do(withKey(req{method: "GET", path: "/api/v2/usage", clientID: tn.ClientID, secret: tn.Secret}, "order-1"))
			if u.Status != 200 || u.Header.Get(rest.ReplayedHeader) != "" {
				t.Fatalf("GET with a key: %d %v", u.Status, u.Header)
			}
		})
	}
}

// TestIdempotencyPortal checks bearer-token POSTs: a replayed key creation
// returns the same key (and secret) and creates nothing more.
func TestIdempotencyPortal(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	create := withKey(req{method: "POST", path: "/api/v2/projects/" + tn.ProjectID + "/keys", token: tn.Token, body: map[string]any{"key_name": "erp"}}, "key-erp")
	a, b := s.do(create), s.do(create)
	if a.Status != 200 || b.Status != 200 || !bytes.Equal(a.Body, b.Body) || b.Header.Get(rest.ReplayedHeader) != "true" {
		t.Fatalf("replayed key creation: %d %s / %d %s", a.Status, a.Body, b.Status, b.Body)
	}
	keys := s.must(200, req{method: "GET", path: "/api/v2/projects/" + tn.ProjectID + "/keys", token: tn.Token})["items"].([]any)
	if len(keys) != 2 {
		t.Fatalf("%d keys after a replayed creation, want 2", len(keys))
	}
	// Unauthenticated routes (signup) do not take part.
	su := withKey(req{method: "POST", path: "/api/v2/auth/signup", body: map[string]any{"email": "x@example.com", "password": "correct horse battery", "organization_name": "Xo", "organization_slug": "xo"}}, "su")
	if r := s.do(su); r.Status != 200 {
		t.Fatalf("signup: %d %s", r.Status, r.Body)
	}
	if r := s.do(su); r.Status != 409 {
		t.Fatalf("signup again: %d, want the duplicate's 409", r.Status)
	}
}

// TestIdempotencyInFlight holds a claim as another process would while it
// runs the request: retries get 409 until it is released.
func TestIdempotencyInFlight(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	body := map[string]any{"invoice_reference": "INV001", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}
	raw, _ := json.Marshal(body)
	keyID := uuid.MustParse(tn.KeyID)
	claim := idempotency.Request{Credential: idempotency.KeyCredential(keyID), Key: "busy", Method: "POST", Target: "/api/v2/invoices/irn/generate", Body: raw}
	if got, err := s.svc.Idempotency.Begin(context.Background(), claim); err != nil || got != nil {
		t.Fatalf("claim: %v %v", got, err)
	}
	r := s.do(withKey(irnReq(tn, body), "busy"))
	if r.Status != 409 || r.json(t)["code"] != string(model.CodeConflict) || r.Header.Get("Retry-After") == "" {
		t.Fatalf("retry in flight: %d %v %s", r.Status, r.Header, r.Body)
	}
	// The first attempt failed with a server error: the key is free again.
	if err := s.svc.Idempotency.Finish(context.Background(), claim, &idempotency.StoredResponse{Status: 503}); err != nil {
		t.Fatal(err)
	}
	if r := s.do(withKey(irnReq(tn, body), "busy")); r.Status != 200 || r.Header.Get(rest.ReplayedHeader) != "" {
		t.Fatalf("after release: %d %v %s", r.Status, r.Header, r.Body)
	}
}

// TestIdempotencyTwoProcesses runs two routers over one database: a retry
// sent to the other process is replayed, and concurrent attempts through
// both create one key.
func TestIdempotencyTwoProcesses(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			stores := sharedStores(t, d, 2)
			// Processes of one deployment share its encryption key.
			shared := apptest.Config(t, nil).Box
			sameKey := func(c *app.Config) { c.Box = shared }
			a, b := build(t, stores[0], sameKey, nil), build(t, stores[1], sameKey, nil)
			tn := a.tenant("acme")
			body := map[string]any{"invoice_reference": "INV001", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}
			first := a.do(withKey(irnReq(tn, body), "k"))
			again := b.do(withKey(irnReq(tn, body), "k"))
			if first.Status != 200 || again.Status != 200 || !bytes.Equal(first.Body, again.Body) || again.Header.Get(rest.ReplayedHeader) != "true" {
				t.Fatalf("replay across processes: %d %s / %d %v %s", first.Status, first.Body, again.Status, again.Header, again.Body)
			}
			if r := b.do(withKey(irnReq(tn, map[string]any{"invoice_reference": "INV009", "invoice_type_code": "381", "tax_authority_code": "NRS", "issue_date": "2026-03-15"}), "k")); r.Status != 422 {
				t.Fatalf("reuse across processes: %d %s", r.Status, r.Body)
			}

			// Concurrent creations with one key through both processes.
			const n = 12
			create := withKey(req{method: "POST", path: "/api/v2/projects/" + tn.ProjectID + "/keys", token: tn.Token, body: map[string]any{"key_name": "erp"}}, "create-erp")
			var (
				wg       sync.WaitGroup
				mu       sync.Mutex
				statuses = map[string]int{}
				bodies   = map[string]bool{}
			)
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func(s *server) {
					defer wg.Done()
					r := s.do(create)
					mu.Lock()
					defer mu.Unlock()
					kind := http.StatusText(r.Status)
					if r.Header.Get(rest.ReplayedHeader) == "true" {
						kind += " replayed"
					}
					statuses[kind]++
					if r.Status == 200 {
						bodies[string(r.Body)] = true
					}
				}([]*server{a, b}[i%2])
			}
			wg.Wait()
			if statuses["OK"] != 1 || statuses["OK"]+statuses["OK replayed"]+statuses["Conflict"] != n || len(bodies) != 1 {
				t.Fatalf("outcomes %v with %d distinct bodies; want one run, the rest replayed or 409", statuses, len(bodies))
			}
			keys := a.must(200, req{method: "GET", path: "/api/v2/projects/" + tn.ProjectID + "/keys", token: tn.Token})["items"].([]any)
			if len(keys) != 2 {
				t.Fatalf("%d keys, want 2: the concurrent creations ran more than once", len(keys))
			}
		})
	}
}

// TestIdempotencyPDF replays a binary answer byte for byte, with its
// content type and disposition.
func TestIdempotencyPDF(t *testing.T) {
	s := newServer(t, sqlite())
	tn := s.tenant("acme")
	r := renderReq(tn, "/api/v2/invoices/render", map[string]any{"invoice_type": "B2B", "payload": loadFixture(t, "invoice-b2b-1.1.json")},
		map[string]string{"Accept": "application/pdf", "Idempotency-Key": "pdf-1"})
	first, again := s.do(r), s.do(r)
	if first.Status != 200 || first.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(first.Body, []byte("%PDF-")) {
		t.Fatalf("first: %d %s", first.Status, first.Header.Get("Content-Type"))
	}
	if again.Status != 200 || !bytes.Equal(first.Body, again.Body) || again.Header.Get(rest.ReplayedHeader) != "true" ||
		again.Header.Get("Content-Type") != "application/pdf" || again.Header.Get("Content-Disposition") != first.Header.Get("Content-Disposition") {
		t.Fatalf("replay: %d %v (%d bytes, first %d)", again.Status, again.Header, len(again.Body), len(first.Body))
	}
}
