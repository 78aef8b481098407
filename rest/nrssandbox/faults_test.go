package nrssandbox_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
)

// An outage of every endpoint answers as a gateway would (plain text, the
// status, Retry-After when set) for its duration, for that business only,
// on both databases; the business's own fault endpoints keep answering.
func TestFaultOutage(t *testing.T) {
	now := time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	forDialects(t, nrssandbox.Options{Now: clock}, func(t *testing.T, e *env) {
		mu.Lock()
		now = time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)
		mu.Unlock()
		other := e.register("0THER001")
		a := e.call(&e.biz, "POST", "/sandbox/faults", map[string]any{"kind": "outage", "duration": "6h", "retry_after": 30})
		if a.Status != 201 || a.data(t)["kind"] != "outage" || a.data(t)["status"] != float64(503) ||
			a.data(t)["ends_at"] != "2026-03-15T16:00:00Z" {
			t.Fatalf("set: %d %s", a.Status, a.Raw)
		}
		for _, path := range []string{"/api/v1/invoice/transmit/self-health-check", "/api/v1/entity"} {
			a = e.call(&e.biz, "GET", path, nil)
			if a.Status != 503 || a.Raw != "Service Unavailable" || a.Header.Get("Retry-After") != "30" ||
				!strings.HasPrefix(a.Header.Get("Content-Type"), "text/plain") {
				t.Fatalf("%s during the outage: %d %v %q", path, a.Status, a.Header, a.Raw)
			}
		}
		inv, _ := fixture(t, "b2c", e.biz, "OUT1")
		if a = e.call(&e.biz, "POST", "/api/v1/invoice/validate", inv); a.Status != 503 {
			t.Fatalf("validate during the outage: %d %s", a.Status, a.Raw)
		}
		e.must(&other, 200, "GET", "/api/v1/invoice/transmit/self-health-check", nil)
		e.must(nil, 200, "GET", "/api", nil)
		list := e.must(&e.biz, 200, "GET", "/sandbox/faults", nil).list(t)
		if len(list) != 1 {
			t.Fatalf("list: %v", list)
		}

		mu.Lock()
		now = now.Add(6 * time.Hour)
		mu.Unlock()
		e.must(&e.biz, 201, "POST", "/api/v1/invoice/validate", inv)
		if list := e.must(&e.biz, 200, "GET", "/sandbox/faults", nil).list(t); len(list) != 0 {
			t.Fatalf("an ended fault listed: %v", list)
		}
	})
}

// An outage of one endpoint leaves the others; a 502 or 504 can be chosen;
// clearing ends it at once.
func TestFaultOneEndpoint(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	e.must(&e.biz, 201, "POST", "/sandbox/faults", map[string]any{"kind": "outage", "endpoint": "invoice_sign", "status": 504, "duration": "1h"})
	inv, _ := fixture(t, "b2c", e.biz, "ONE1")
	e.must(&e.biz, 201, "POST", "/api/v1/invoice/validate", inv)
	if a := e.call(&e.biz, "POST", "/api/v1/invoice/sign", inv); a.Status != 504 || a.Raw != "Gateway Timeout" || a.Header.Get("Retry-After") != "" {
		t.Fatalf("sign: %d %v %s", a.Status, a.Header, a.Raw)
	}
	a := e.must(&e.biz, 200, "DELETE", "/sandbox/faults?kind=outage&endpoint=invoice_sign", nil)
	if a.data(t)["cleared"] != float64(1) {
		t.Fatalf("clear: %s", a.Raw)
	}
	e.must(&e.biz, 201, "POST", "/api/v1/invoice/sign", inv)
}

// A throttle lets its allowance through and answers 429 with Retry-After
// past it, until the allowance refills.
func TestFaultThrottle(t *testing.T) {
	now := time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	e := newEnv(t, nrssandbox.Options{Now: clock})
	e.must(&e.biz, 201, "POST", "/sandbox/faults", map[string]any{"kind": "throttle", "endpoint": "transmit_self_health_check", "rate": "2/m", "duration": "1h"})
	for range 2 {
		e.must(&e.biz, 200, "GET", "/api/v1/invoice/transmit/self-health-check", nil)
	}
	a := e.call(&e.biz, "GET", "/api/v1/invoice/transmit/self-health-check", nil)
	if a.Status != 429 || a.Raw != "Too Many Requests" || a.Header.Get("Retry-After") != "30" {
		t.Fatalf("past the allowance: %d %v %s", a.Status, a.Header, a.Raw)
	}
	e.must(&e.biz, 200, "GET", "/api/v1/entity", nil) // another endpoint
	mu.Lock()
	now = now.Add(30 * time.Second)
	mu.Unlock()
	e.must(&e.biz, 200, "GET", "/api/v1/invoice/transmit/self-health-check", nil)

	// A fixed Retry-After overrides the computed one.
	e.must(&e.biz, 201, "POST", "/sandbox/faults", map[string]any{"kind": "throttle", "rate": "1/h", "retry_after": 7, "duration": "1h"})
	e.must(&e.biz, 200, "GET", "/api/v1/entity", nil)
	if a := e.call(&e.biz, "GET", "/api/v1/entity", nil); a.Status != 429 || a.Header.Get("Retry-After") != "7" {
		t.Fatalf("fixed retry after: %d %v", a.Status, a.Header)
	}
}

// The admin endpoints set, list and clear any business's faults with the
// admin token; bad requests are refused with every problem and change
// nothing.
func TestFaultAdmin(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	auth := http.Header{"Authorization": {"Bearer " + adminToken}}
	base := "/sandbox/businesses/" + e.biz.BusinessID + "/faults"
	ctx := context.Background()
	if a := e.send(ctx, nil, "POST", base, map[string]any{"kind": "outage", "duration": "5m"}, auth); a.Status != 201 {
		t.Fatalf("set: %d %s", a.Status, a.Raw)
	}
	if a := e.call(&e.biz, "GET", "/api/v1/entity", nil); a.Status != 503 {
		t.Fatalf("outage: %d", a.Status)
	}
	if list := e.send(ctx, nil, "GET", base, nil, auth).list(t); len(list) != 1 {
		t.Fatalf("list: %v", list)
	}
	if a := e.send(ctx, nil, "POST", base, map[string]any{"kind": "outage", "duration": "5m"}, nil); a.Status != 401 {
		t.Fatalf("without the token: %d", a.Status)
	}
	if a := e.send(ctx, nil, "GET", "/sandbox/businesses/6a1d7c36-3d77-4f5e-9e43-3f0a0d1c9b10/faults", nil, auth); a.Status != 404 {
		t.Fatalf("unknown business: %d %s", a.Status, a.Raw)
	}
	a := e.send(ctx, nil, "POST", base, map[string]any{"kind": "throttle", "endpoint": "nope", "status": 503, "retry_after": -1, "duration": "9999h"}, auth)
	refusedWith(t, a, 400, "sandbox_admin", "validation failed", "")
	for _, want := range []string{"a throttle answers 429", "rate is required", "endpoint must be", "retry_after must be", "duration must be"} {
		if !strings.Contains(a.errorField("details"), want) {
			t.Errorf("details lack %q: %s", want, a.errorField("details"))
		}
	}
	if a := e.send(ctx, nil, "DELETE", base, nil, auth); a.Status != 200 || a.data(t)["cleared"] != float64(1) {
		t.Fatalf("clear: %d %s", a.Status, a.Raw)
	}
	e.must(&e.biz, 200, "GET", "/api/v1/entity", nil)
	if a := e.call(nil, "GET", "/sandbox/faults", nil); a.Status != 400 || a.errorField("public_message") != "unable to validate api key" {
		t.Fatalf("own faults without a key: %d %s", a.Status, a.Raw)
	}
}

// Mounted under a prefix (as einvoice dev serves it, under /nrs-sandbox),
// the stand-in still knows its endpoints, so its faults apply.
func TestFaultMounted(t *testing.T) {
	e := newEnv(t, nrssandbox.Options{})
	mux := chi.NewRouter()
	mux.Mount("/nrs-sandbox", e.h)
	e.must(&e.biz, 201, "POST", "/sandbox/faults", map[string]any{"kind": "outage", "endpoint": "invoice_validate", "duration": "1h"})
	inv, _ := fixture(t, "b2c", e.biz, "MNT1")
	if a := serve(t, mux, context.Background(), &e.biz, "POST", "/nrs-sandbox/api/v1/invoice/validate", inv, nil); a.Status != 503 {
		t.Fatalf("validate under the prefix during its outage: %d %s", a.Status, a.Raw)
	}
	if a := serve(t, mux, context.Background(), &e.biz, "POST", "/nrs-sandbox/api/v1/invoice/irn/validate", map[string]any{}, nil); a.Status == 503 {
		t.Fatalf("another endpoint under the prefix: %d %s", a.Status, a.Raw)
	}
}

// A business and its faults are read once a second per API key: a fault
// set through this stand-in applies to its next call, one set by another
// process sharing the database (a second Handler here) within a second;
// a fault ending inside that second ends on time. On both databases.
func TestCredentialsReadOnceASecond(t *testing.T) {
	start := time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	now := start
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	at := func(d time.Duration) { mu.Lock(); now = start.Add(d); mu.Unlock() }
	forDialects(t, nrssandbox.Options{Now: clock}, func(t *testing.T, e *env) {
		at(0)
		other, err := nrssandbox.New(nrssandbox.Options{DB: e.db, Now: clock, AdminToken: adminToken, Logger: quietLog})
		if err != nil {
			t.Fatal(err)
		}
		const health = "/api/v1/invoice/transmit/self-health-check"
		e.must(&e.biz, 200, "GET", health, nil)
		at(300 * time.Millisecond)
		if a := serve(t, other, context.Background(), &e.biz, "POST", "/sandbox/faults",
			map[string]any{"kind": "outage", "duration": "1s"}, nil); a.Status != 201 {
			t.Fatalf("set through the other process: %d %s", a.Status, a.Raw)
		}
		at(500 * time.Millisecond)
		e.must(&e.biz, 200, "GET", health, nil) // read at 0, kept until 1s
		at(time.Second)
		e.must(&e.biz, 503, "GET", health, nil) // read again: the outage, until 1.3s
		at(1200 * time.Millisecond)
		e.must(&e.biz, 503, "GET", health, nil)
		at(1300 * time.Millisecond)
		e.must(&e.biz, 200, "GET", health, nil) // ended, inside the second read's second

		// Set through this stand-in: at once, and cleared at once.
		e.must(&e.biz, 201, "POST", "/sandbox/faults", map[string]any{"kind": "outage", "duration": "1h"})
		e.must(&e.biz, 503, "GET", health, nil)
		e.must(&e.biz, 200, "DELETE", "/sandbox/faults", nil)
		e.must(&e.biz, 200, "GET", health, nil)
	})
}
