package nrshealth_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/nrshealth"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

type local struct {
	mu sync.Mutex
	h  map[model.Environment]string
}

func (l *local) set(env model.Environment, h string) { l.mu.Lock(); l.h[env] = h; l.mu.Unlock() }
func (l *local) read(env model.Environment) (string, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.h[env]
	if h == "" {
		return model.AuthorityOK, nil
	}
	return h, []string{"invoice_sign"}
}

// A worker's view of NRS reaches an API process through the database: a
// worker whose breakers are open makes the API say down for that
// environment only; the worker's recovery, or its going silent, clears it.
func TestSharedView(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			now := time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)
			var mu sync.Mutex
			clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
			ctx := context.Background()
			worker := &local{h: map[model.Environment]string{}}
			w := nrshealth.New(st, nrshealth.Config{ProcessID: "worker-1", Local: worker.read, Interval: 5 * time.Second, Now: clock})
			api := nrshealth.New(st, nrshealth.Config{ProcessID: "api-1", Interval: 5 * time.Second, Now: clock})
			tick := func() {
				t.Helper()
				for _, s := range []*nrshealth.Service{w, api} {
					if err := s.Tick(ctx); err != nil {
						t.Fatal(err)
					}
				}
			}
			tick()
			if h := api.Health(model.EnvironmentSandbox); h != model.AuthorityOK {
				t.Fatalf("before: %s", h)
			}
			worker.set(model.EnvironmentSandbox, model.AuthorityDown)
			if h := w.Health(model.EnvironmentSandbox); h != model.AuthorityDown {
				t.Fatalf("the worker's own view is live: %s", h)
			}
			tick()
			if h := api.Health(model.EnvironmentSandbox); h != model.AuthorityDown {
				t.Fatalf("shared: %s", h)
			}
			if h := api.Health(model.EnvironmentProduction); h != model.AuthorityOK {
				t.Fatalf("production: %s", h)
			}
			worker.set(model.EnvironmentSandbox, "")
			tick()
			if h := api.Health(model.EnvironmentSandbox); h != model.AuthorityOK {
				t.Fatalf("after recovery: %s", h)
			}
			// A worker that stops refreshing (it died) is forgotten after
			// three intervals.
			worker.set(model.EnvironmentProduction, model.AuthorityDegraded)
			tick()
			if h := api.Health(model.EnvironmentProduction); h != model.AuthorityDegraded {
				t.Fatalf("degraded: %s", h)
			}
			mu.Lock()
			now = now.Add(16 * time.Second)
			mu.Unlock()
			if err := api.Tick(ctx); err != nil {
				t.Fatal(err)
			}
			if h := api.Health(model.EnvironmentProduction); h != model.AuthorityOK {
				t.Fatalf("a stale view still counts: %s", h)
			}
		})
	}
}
