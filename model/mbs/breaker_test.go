package mbs_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/einvoice-ng/einvoice/model/mbs"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox"
)

// fakeClock is a clock that moves only when told (or when a client
// "sleeps" on it).
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// counted is a stand-in whose requests are counted.
type counted struct {
	*standIn
	sent atomic.Int64
}

func newCounted(t *testing.T, clock *fakeClock) *counted {
	s := newStandIn(t, nrssandbox.Options{Now: clock.Now})
	c := &counted{standIn: s}
	inner := s.srv.Config.Handler
	s.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.sent.Add(1)
		inner.ServeHTTP(w, r)
	})
	return c
}

// During an outage the breaker of an endpoint opens after its failures and
// then sends nothing but probes; a failed probe doubles the wait; after
// recovery a probe closes it. Other endpoints have their own breakers.
func TestBreakerOpensProbesAndCloses(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)}
	s := newCounted(t, clock)
	var changes []string
	var mu sync.Mutex
	br := mbs.NewBreakers(mbs.BreakerOptions{Failures: 3, OpenFor: 30 * time.Second, MaxOpenFor: time.Minute, Now: clock.Now,
		OnChange: func(env string, op mbs.Operation, from, to mbs.BreakerState) {
			mu.Lock()
			changes = append(changes, env+" "+string(op)+" "+from.String()+"→"+to.String())
			mu.Unlock()
		}})
	c, _ := s.client(t, func(cfg *mbs.Config) {
		cfg.Environment, cfg.Breakers = "sandbox", br
		cfg.Retry = mbs.RetryPolicy{MaxAttempts: 1}
	})
	ctx := context.Background()
	if _, err := s.h.SetSandboxFault(ctx, s.biz.BusinessID, nrssandbox.Fault{Kind: "outage", Duration: "6h", RetryAfter: 1}); err != nil {
		t.Fatal(err)
	}
	if br.Health("sandbox") != mbs.HealthOK {
		t.Fatalf("health before any call: %s", br.Health("sandbox"))
	}
	for i := range 3 {
		_, _, err := c.SelfHealthCheck(ctx)
		if e := asError(t, err); e.HTTPStatus != 503 || e.BreakerOpen || e.Details != "Service Unavailable" {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if s.sent.Load() != 3 {
		t.Fatalf("sent %d", s.sent.Load())
	}
	for range 50 {
		_, call, err := c.SelfHealthCheck(ctx)
		e := asError(t, err)
		if !e.BreakerOpen || !e.Retryable() || e.RetryAfter <= 0 || e.RetryAfter > 30*time.Second || call.Attempts != 0 {
			t.Fatalf("open breaker: %+v %+v", e, call)
		}
	}
	if s.sent.Load() != 3 {
		t.Fatalf("an open breaker sent: %d", s.sent.Load())
	}
	if h := br.Health("sandbox"); h != mbs.HealthDown {
		t.Fatalf("health: %s", h)
	}
	if h := br.Health("production"); h != mbs.HealthOK {
		t.Fatalf("production health: %s", h)
	}

	// Another endpoint is judged on its own: it still calls, and the
	// environment is degraded, not down, once it is closed and answering.
	inv, _ := s.fixture(t, "invoice-b2c-1.1.json", "BRK1")
	if _, _, err := c.ValidateInvoice(ctx, inv); asError(t, err).HTTPStatus != 503 {
		t.Fatalf("validate: %v", err)
	}
	if s.sent.Load() != 4 {
		t.Fatalf("sent %d", s.sent.Load())
	}

	// The probe after 30 s fails: open again for 60 s.
	clock.Advance(30 * time.Second)
	if _, _, err := c.SelfHealthCheck(ctx); asError(t, err).HTTPStatus != 503 {
		t.Fatalf("probe: %v", err)
	}
	if s.sent.Load() != 5 {
		t.Fatalf("probe not sent once: %d", s.sent.Load())
	}
	clock.Advance(30 * time.Second)
	if _, _, err := c.SelfHealthCheck(ctx); !asError(t, err).BreakerOpen {
		t.Fatalf("after a failed probe the wait doubles: %v", err)
	}
	// The outage ends; the next probe closes the breaker.
	clock.Advance(6 * time.Hour)
	if _, _, err := c.SelfHealthCheck(ctx); err != nil {
		t.Fatalf("after the outage: %v", err)
	}
	if _, _, err := c.SelfHealthCheck(ctx); err != nil {
		t.Fatal(err)
	}
	if s.sent.Load() != 7 {
		t.Fatalf("sent %d", s.sent.Load())
	}
	if h := br.Health("sandbox"); h != mbs.HealthOK {
		t.Fatalf("health after recovery: %s", h)
	}
	mu.Lock()
	got := append([]string(nil), changes...)
	mu.Unlock()
	want := []string{
		"sandbox transmit_self_health_check closed→open",
		"sandbox transmit_self_health_check open→half_open",
		"sandbox transmit_self_health_check half_open→open",
		"sandbox transmit_self_health_check open→half_open",
		"sandbox transmit_self_health_check half_open→closed",
	}
	if len(got) != len(want) {
		t.Fatalf("changes %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("changes %v", got)
		}
	}
	// The transitions are counted for Prometheus.
	reg := prometheus.NewRegistry()
	reg.MustRegister(br)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			v := m.GetCounter().GetValue() + m.GetGauge().GetValue()
			names[mf.GetName()] += v
		}
	}
	if names["einvoice_nrs_breaker_transitions_total"] != 5 || names["einvoice_nrs_breaker_rejected_total"] != 51 {
		t.Fatalf("metrics %v", names)
	}
	if _, ok := names["einvoice_nrs_breaker_state"]; !ok {
		t.Fatalf("no state gauge: %v", names)
	}
}

// A 4xx is NRS answering: it neither opens the breaker nor keeps it open.
func TestBreakerIgnoresRefusals(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)}
	s := newCounted(t, clock)
	br := mbs.NewBreakers(mbs.BreakerOptions{Failures: 2, Now: clock.Now})
	c, _ := newClient(t, s.srv.URL, s.biz.APIKey, "wrong-secret", func(cfg *mbs.Config) {
		cfg.Environment, cfg.Breakers = "production", br
	})
	for range 5 {
		if _, _, err := c.SelfHealthCheck(context.Background()); asError(t, err).HTTPStatus != 400 {
			t.Fatal(err)
		}
	}
	if s.sent.Load() != 5 || br.Health("production") != mbs.HealthOK {
		t.Fatalf("sent %d, health %s", s.sent.Load(), br.Health("production"))
	}
}

// A 429 with Retry-After slows the calls: within MaxRetryAfter the client
// waits and the call goes through; past it the call fails with RetryAfter
// set and later calls of the same credentials wait without sending. The
// breaker stays closed.
func TestThrottleSlowsCalls(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)}
	s := newCounted(t, clock)
	br := mbs.NewBreakers(mbs.BreakerOptions{Failures: 2, Now: clock.Now})
	var waited []time.Duration
	c, _ := s.client(t, func(cfg *mbs.Config) {
		cfg.Environment, cfg.Breakers = "sandbox", br
		cfg.Retry = mbs.RetryPolicy{MaxAttempts: 3, MaxRetryAfter: 5 * time.Second}
		cfg.Sleep = func(ctx context.Context, d time.Duration) error {
			waited = append(waited, d)
			clock.Advance(d)
			return ctx.Err()
		}
	})
	ctx := context.Background()
	if _, err := s.h.SetSandboxFault(ctx, s.biz.BusinessID, nrssandbox.Fault{Kind: "throttle", Rate: "1/2s", Duration: "1h"}); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		_, call, err := c.SelfHealthCheck(ctx)
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if i > 0 && (call.Attempts != 2 || call.Waited != 2*time.Second) {
			t.Fatalf("call %d: %+v", i, call)
		}
	}
	if br.Health("sandbox") != mbs.HealthOK {
		t.Fatalf("health: %s", br.Health("sandbox"))
	}

	// A Retry-After longer than the client waits: the call fails with it,
	// the next is held back without being sent, and no breaker opens.
	if _, err := s.h.SetSandboxFault(ctx, s.biz.BusinessID, nrssandbox.Fault{Kind: "throttle", Rate: "1/h", Duration: "2h"}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	_, _, err := c.SelfHealthCheck(ctx) // takes the hour's one call of the new throttle
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.SelfHealthCheck(ctx)
	e := asError(t, err)
	if e.HTTPStatus != 429 || e.RetryAfter < 50*time.Minute || !e.Retryable() {
		t.Fatalf("long throttle: %+v", e)
	}
	sent := s.sent.Load()
	for range 10 {
		_, _, err = c.SelfHealthCheck(ctx)
		if e := asError(t, err); !e.Paced || e.RetryAfter < 50*time.Minute || !e.Retryable() {
			t.Fatalf("paced: %+v", e)
		}
	}
	if s.sent.Load() != sent {
		t.Fatalf("paced calls were sent: %d", s.sent.Load()-sent)
	}
	if br.Health("sandbox") != mbs.HealthDegraded {
		t.Fatalf("health while throttled: %s", br.Health("sandbox"))
	}
	for _, snap := range br.Snapshot() {
		if snap.State != mbs.BreakerClosed {
			t.Fatalf("a throttle opened a breaker: %+v", snap)
		}
	}
	// Another business's credentials are not held back.
	other := s.register(t, "0THER001")
	oc, _ := newClient(t, s.srv.URL, other.APIKey, other.APISecret, func(cfg *mbs.Config) {
		cfg.Environment, cfg.Breakers = "sandbox", br
	})
	if _, _, err := oc.SelfHealthCheck(ctx); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)
	if _, _, err := c.SelfHealthCheck(ctx); err != nil {
		t.Fatalf("after the pace: %v", err)
	}
}
