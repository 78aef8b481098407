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
//
// With DeliverFirst, a delivery to an endpoint that is not failing gets
// its first attempt from the dispatcher itself, with no workflow: the
// dispatcher creates it claimed (or claims one it finds unstarted: a
// lease of ClaimLease, so that no other dispatcher attempts it at the
// same time), makes the attempt with the event and endpoint it holds, and
// records it; a success is one transaction that also ends the delivery
// and records it started. Only a delivery that needs a retry gets its
// workflow, which goes on from the second attempt. A dispatcher that dies
// with a claim leaves the delivery to the sweep once the lease is over.
type Dispatcher struct {
	st     *store.Store
	cfg    Config
	direct func(ctx context.Context, x *Direct) (*Outcome, error)
}

// ClaimLease is how long a dispatcher's claim on a delivery's first
// attempt keeps others away: longer than an attempt can take.
const ClaimLease = time.Minute

// DeliverFirst makes the dispatcher attempt deliveries itself before any
// workflow: attempt makes the first attempt with the rows the dispatcher
// holds (Deliveries.PrepareDirect and RecordDirect, and the HTTP request
// between them) and answers whether the delivery is over.
func (d *Dispatcher) DeliverFirst(attempt func(ctx context.Context, x *Direct) (*Outcome, error)) {
	d.direct = attempt
}

// start is a delivery to start, and whether its endpoint is failing.
// direct (with DeliverFirst, an endpoint not failing) holds the rows of
// its direct attempt; claimed says the delivery was created claimed by
// this dispatcher.
type start struct {
	in      DeliveryInput
	failing bool
	direct  *Direct
	claimed bool
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
// dispatched. In one transaction it takes up to dispatchBatch events (on
// PostgreSQL skipping those another dispatcher's pass holds, so that
// dispatchers running at once share the outbox), creates their
// deliveries in one statement (claimed, for the dispatcher's own first
// attempt, where the endpoint is not failing) and marks the events
// dispatched; then it starts the deliveries. A delivery whose start
// fails, or whose dispatcher dies before, is left to the sweep.
func (d *Dispatcher) Dispatch(ctx context.Context) (int, error) {
	var (
		starts []start
		n      int
	)
	err := d.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		starts, n = nil, 0
		evs, err := tx.Events().ClaimUndispatched(ctx, dispatchBatch)
		if err != nil || len(evs) == 0 {
			return err
		}
		n = len(evs)
		endpoints := map[uuid.UUID][]model.WebhookEndpoint{}
		envs := map[uuid.UUID]model.Environment{}
		var dels []model.WebhookDelivery
		var pending []start
		at := now(d.cfg)
		for i := range evs {
			ev := &evs[i]
			eps, ok := endpoints[ev.ProjectID]
			if !ok {
				if eps, err = tx.Webhooks().EnabledEndpoints(ctx, ev.ProjectID); err != nil {
					return err
				}
				endpoints[ev.ProjectID] = eps
			}
			for j := range eps {
				ep := &eps[j]
				if !events.Matches(typesOf(ep), ev.Type) {
					continue
				}
				direct := d.direct != nil && ep.FailingSince == nil
				del := model.WebhookDelivery{
					ID: DeliveryID(ev.ID, ep.ID), EventID: ev.ID, EndpointID: ep.ID, ProjectID: ev.ProjectID,
					Status: model.DeliveryPending, CreatedAt: at,
				}
				if direct {
					// Created claimed: the dispatcher that creates it makes
					// its first attempt, with no Claim of its own.
					del.ClaimedAt = &at
				}
				dels = append(dels, del)
				s := start{in: DeliveryInput{DeliveryID: del.ID, OrganizationID: ev.OrganizationID, Retry: d.cfg.Retry},
					failing: ep.FailingSince != nil}
				if direct {
					env, ok := envs[ev.ProjectID]
					if !ok {
						pr, err := tx.Projects().ByID(ctx, ev.ProjectID)
						if err != nil {
							return err
						}
						env = pr.Environment
						envs[ev.ProjectID] = env
					}
					s.direct = &Direct{Delivery: &dels[len(dels)-1], Event: ev, Endpoint: ep, Environment: env}
				}
				pending = append(pending, s)
			}
		}
		created, err := tx.Webhooks().CreateDeliveries(ctx, dels)
		if err != nil {
			return err
		}
		for i, s := range pending {
			if created[dels[i].ID] {
				s.claimed = s.direct != nil
				if s.direct != nil {
					s.direct.Delivery = &dels[i]
				}
				starts = append(starts, s)
				continue
			}
			// It existed: started already, or left by a pass that did not
			// mark its event (it is claimed before any attempt).
			del, err := tx.Webhooks().Delivery(ctx, dels[i].ID)
			if err != nil {
				return err
			}
			if del.StartedAt != nil {
				continue
			}
			if s.direct != nil {
				s.direct.Delivery = del
			}
			starts = append(starts, s)
		}
		ids := make([]uuid.UUID, len(evs))
		for i := range evs {
			ids[i] = evs[i].ID
		}
		return tx.Events().MarkAllDispatched(ctx, ids, at)
	})
	if err != nil || n == 0 {
		return 0, err
	}
	if err := d.startAll(ctx, starts); err != nil {
		return n, err
	}
	return n, nil
}

// startAll starts deliveries, a few at a time: each one's direct first
// attempt (DeliverFirst, an endpoint not failing), then its workflow
// unless the attempt ended it, recording the start; the first failure is
// returned (the events stay in the outbox).
func (d *Dispatcher) startAll(ctx context.Context, in []start) error {
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
			err := d.start(ctx, di)
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

// start starts one delivery.
func (d *Dispatcher) start(ctx context.Context, s start) error {
	if s.direct != nil {
		if !s.claimed {
			at := now(d.cfg)
			claimed, err := d.st.Webhooks().Claim(ctx, s.in.DeliveryID, at, at.Add(-ClaimLease))
			if err != nil || !claimed {
				// Not claimed: another dispatcher holds it, or its workflow
				// is started; a claim that expires goes to the sweep.
				return err
			}
		}
		out, err := d.direct(ctx, s.direct)
		switch {
		case err == nil && out.Done && out.Started:
			return nil // recorded started with its end (RecordDirect)
		case err == nil && out.Done:
			return d.st.Webhooks().MarkStarted(ctx, s.in.DeliveryID, now(d.cfg))
		case err == nil:
			s.in.Attempted = 1
		default:
			d.cfg.Logger.WarnContext(ctx, "webhook direct attempt failed; its workflow retries", "delivery_id", s.in.DeliveryID.String(), "error", err.Error())
		}
	}
	if err := d.cfg.Engine.StartWebhookDelivery(ctx, s.in); err != nil {
		return err
	}
	return d.st.Webhooks().MarkStarted(ctx, s.in.DeliveryID, now(d.cfg))
}

// Sweep starts the workflows of pending deliveries whose start was never
// recorded (a test ping or redelivery whose start failed after commit).
func (d *Dispatcher) Sweep(ctx context.Context) (int, error) {
	rows, err := d.st.Webhooks().Unstarted(ctx, now(d.cfg).Add(-sweepAfter), now(d.cfg).Add(-ClaimLease), dispatchBatch)
	if err != nil || len(rows) == 0 {
		return 0, err
	}
	var in []start
	for _, r := range rows {
		ev, err := d.st.Events().ByID(ctx, r.EventID)
		if err != nil {
			return 0, err
		}
		// A claim that expired may have made its attempt: the workflow
		// takes it from there, with no second direct attempt.
		in = append(in, start{in: DeliveryInput{DeliveryID: r.ID, OrganizationID: ev.OrganizationID, Retry: d.cfg.Retry, Attempted: r.Attempts},
			failing: r.ClaimedAt != nil})
	}
	return len(in), d.startAll(ctx, in)
}
