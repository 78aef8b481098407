package webhooks

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/events"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Dispatcher drains the events outbox: for each event not dispatched yet
// it creates the deliveries to the project's matching enabled endpoints,
// starts their workflows, then marks the event dispatched. Every step is
// safe to repeat, so several dispatchers (one per worker process) may run
// at once, and one that dies mid-pass leaves the rest to the next pass.
type Dispatcher struct {
	st  *store.Store
	cfg Config
}

// NewDispatcher builds a dispatcher over st; cfg.Engine is required.
func NewDispatcher(st *store.Store, cfg Config) (*Dispatcher, error) {
	if cfg.Engine == nil {
		return nil, errors.New("webhooks: the dispatcher needs a workflow starter")
	}
	cfg.defaults()
	return &Dispatcher{st: st, cfg: cfg}, nil
}

// Dispatch batch size and the parallel starts of one pass.
const (
	dispatchBatch    = 200
	parallelStarts   = 16
	sweepAfter       = 30 * time.Second
	DefaultPollEvery = 100 * time.Millisecond
)

// Run dispatches every interval (default DefaultPollEvery), at once again
// after a full batch, until ctx ends.
func (d *Dispatcher) Run(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		interval = DefaultPollEvery
	}
	lastSweep := time.Time{}
	for {
		n, err := d.Dispatch(ctx)
		if err != nil && ctx.Err() == nil {
			d.cfg.Logger.WarnContext(ctx, "webhook dispatch failed; retrying", "error", err.Error())
		}
		if time.Since(lastSweep) > sweepAfter/2 {
			lastSweep = time.Now()
			if _, err := d.Sweep(ctx); err != nil && ctx.Err() == nil {
				d.cfg.Logger.WarnContext(ctx, "webhook sweep failed", "error", err.Error())
			}
		}
		if n == dispatchBatch && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}

// Dispatch runs one pass over the outbox and returns how many events it
// dispatched.
func (d *Dispatcher) Dispatch(ctx context.Context) (int, error) {
	evs, err := d.st.Events().Undispatched(ctx, dispatchBatch)
	if err != nil || len(evs) == 0 {
		return 0, err
	}
	endpoints := map[uuid.UUID][]model.WebhookEndpoint{}
	var starts []DeliveryInput
	for i := range evs {
		ev := &evs[i]
		eps, ok := endpoints[ev.ProjectID]
		if !ok {
			if eps, err = d.st.Webhooks().EnabledEndpoints(ctx, ev.ProjectID); err != nil {
				return 0, err
			}
			endpoints[ev.ProjectID] = eps
		}
		at := now(d.cfg)
		for j := range eps {
			if !events.Matches(typesOf(&eps[j]), ev.Type) {
				continue
			}
			del := &model.WebhookDelivery{
				ID: DeliveryID(ev.ID, eps[j].ID), EventID: ev.ID, EndpointID: eps[j].ID, ProjectID: ev.ProjectID,
				Status: model.DeliveryPending, CreatedAt: at,
			}
			created, err := d.st.Webhooks().CreateDelivery(ctx, del)
			if err != nil {
				return 0, err
			}
			if !created {
				if del, err = d.st.Webhooks().Delivery(ctx, del.ID); err != nil {
					return 0, err
				}
				if del.StartedAt != nil {
					continue
				}
			}
			starts = append(starts, DeliveryInput{DeliveryID: del.ID, OrganizationID: ev.OrganizationID, Retry: d.cfg.Retry})
		}
	}
	if err := d.startAll(ctx, starts); err != nil {
		return 0, err
	}
	at := now(d.cfg)
	for i := range evs {
		if err := d.st.Events().MarkDispatched(ctx, evs[i].ID, at); err != nil {
			return i, err
		}
	}
	return len(evs), nil
}

// startAll starts deliveries' workflows, a few at a time, recording each
// start; the first failure is returned (the events stay in the outbox).
func (d *Dispatcher) startAll(ctx context.Context, in []DeliveryInput) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		sem   = make(chan struct{}, parallelStarts)
	)
	for _, di := range in {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			err := d.cfg.Engine.StartWebhookDelivery(ctx, di)
			if err == nil {
				err = d.st.Webhooks().MarkStarted(ctx, di.DeliveryID, now(d.cfg))
			}
			if err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}

// Sweep starts the workflows of pending deliveries whose start was never
// recorded (a test ping or redelivery whose start failed after commit).
func (d *Dispatcher) Sweep(ctx context.Context) (int, error) {
	rows, err := d.st.Webhooks().Unstarted(ctx, now(d.cfg).Add(-sweepAfter), dispatchBatch)
	if err != nil || len(rows) == 0 {
		return 0, err
	}
	var in []DeliveryInput
	for _, r := range rows {
		ev, err := d.st.Events().ByID(ctx, r.EventID)
		if err != nil {
			return 0, err
		}
		in = append(in, DeliveryInput{DeliveryID: r.ID, OrganizationID: ev.OrganizationID, Retry: d.cfg.Retry})
	}
	return len(in), d.startAll(ctx, in)
}
