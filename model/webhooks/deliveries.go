package webhooks

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/events"
	"github.com/einvoice-ng/einvoice/model/store"
)

// deliveryNamespace derives the ids of the deliveries the Dispatcher
// creates from their event and endpoint.
var deliveryNamespace = uuid.MustParse("5b0e8a52-4c1d-4f3e-9a77-2d6c1f0e9b41")

// DeliveryID is the id of the dispatched delivery of an event to an
// endpoint: the same on every pass of every Dispatcher.
func DeliveryID(eventID, endpointID uuid.UUID) uuid.UUID {
	return uuid.NewHash(sha256.New(), deliveryNamespace, append(eventID[:], endpointID[:]...), 8)
}

// Started names a delivery a test ping or a redelivery started.
type Started struct {
	DeliveryID uuid.UUID `json:"delivery_id"`
	EndpointID uuid.UUID `json:"endpoint_id"`
}

// Sent answers a test ping or a redelivery.
type Sent struct {
	EventID    uuid.UUID `json:"event_id"`
	Deliveries []Started `json:"deliveries"`
}

// Test sends a test.ping event to one endpoint (enabled or not).
func (s *Service) Test(ctx context.Context, who *model.Principal, projectID, endpointID uuid.UUID) (*Sent, error) {
	var out *Sent
	var starts []DeliveryInput
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		pr, e, err := s.endpoint(ctx, tx, who, projectID, endpointID, access.Write)
		if err != nil {
			return err
		}
		at := now(s.cfg)
		ping := map[string]any{"object": "webhook_endpoint_test", "endpoint_id": e.ID, "project_id": pr.ID, "message": "test ping from einvoice"}
		ev, err := events.AppendEvent(ctx, tx, events.Source{ProjectID: pr.ID, OrganizationID: pr.OrganizationID}, model.EventTestPing, ping, at)
		if err != nil {
			return err
		}
		// A ping goes to this endpoint only: it is never in the outbox.
		if err := tx.Events().MarkDispatched(ctx, ev.ID, at); err != nil {
			return err
		}
		d := &model.WebhookDelivery{ID: model.NewID(), EventID: ev.ID, EndpointID: e.ID, ProjectID: pr.ID, Status: model.DeliveryPending, CreatedAt: at}
		if _, err := tx.Webhooks().CreateDelivery(ctx, d); err != nil {
			return err
		}
		starts = append(starts, s.input(d.ID, pr.OrganizationID))
		out = &Sent{EventID: ev.ID, Deliveries: []Started{{DeliveryID: d.ID, EndpointID: e.ID}}}
		return s.cfg.Trail.Record(ctx, tx, &pr.OrganizationID, who.Actor(), model.ActionWebhookTest, "webhook_endpoint", e.ID.String())
	})
	if err != nil {
		return nil, err
	}
	s.start(ctx, starts)
	return out, nil
}

// RedeliverInput names the endpoint an event is sent to again; none means
// every enabled endpoint of the project that subscribes to its type.
type RedeliverInput struct {
	EndpointID *string `json:"endpoint_id"`
}

// Validate records every problem of the input.
func (in *RedeliverInput) Validate(p *model.Problems) {
	if in.EndpointID != nil {
		p.CheckUUID(*in.EndpointID, "endpoint_id")
	}
}

// Redeliver sends an event again: a new delivery per endpoint, with the
// event's id unchanged (receivers deduplicate on it).
func (s *Service) Redeliver(ctx context.Context, who *model.Principal, eventID uuid.UUID, in RedeliverInput) (*Sent, error) {
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	if who == nil || who.IsKey() {
		return nil, model.NotFound("event")
	}
	var out *Sent
	var starts []DeliveryInput
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		ev, err := events.Find(ctx, tx, who, "", eventID, access.Write)
		if err != nil {
			return err
		}
		var targets []model.WebhookEndpoint
		if in.EndpointID != nil {
			id, _ := model.ParseUUID(*in.EndpointID)
			e, err := tx.Webhooks().Endpoint(ctx, ev.ProjectID, id)
			if err != nil {
				return err
			}
			if !e.Enabled {
				return model.Errorf(model.CodeConflict, "webhook endpoint %s is disabled; enable it first", e.ID)
			}
			targets = append(targets, *e)
		} else {
			all, err := tx.Webhooks().EnabledEndpoints(ctx, ev.ProjectID)
			if err != nil {
				return err
			}
			for _, e := range all {
				if events.Matches(typesOf(&e), ev.Type) {
					targets = append(targets, e)
				}
			}
		}
		at := now(s.cfg)
		out = &Sent{EventID: ev.ID, Deliveries: []Started{}}
		for _, e := range targets {
			d := &model.WebhookDelivery{ID: model.NewID(), EventID: ev.ID, EndpointID: e.ID, ProjectID: ev.ProjectID, Status: model.DeliveryPending, CreatedAt: at}
			if _, err := tx.Webhooks().CreateDelivery(ctx, d); err != nil {
				return err
			}
			starts = append(starts, s.input(d.ID, ev.OrganizationID))
			out.Deliveries = append(out.Deliveries, Started{DeliveryID: d.ID, EndpointID: e.ID})
		}
		return s.cfg.Trail.Record(ctx, tx, &ev.OrganizationID, who.Actor(), model.ActionEventRedeliver, "event", ev.ID.String())
	})
	if err != nil {
		return nil, err
	}
	s.start(ctx, starts)
	return out, nil
}

func (s *Service) input(deliveryID, orgID uuid.UUID) DeliveryInput {
	return DeliveryInput{DeliveryID: deliveryID, OrganizationID: orgID, Retry: s.cfg.Retry}
}

// start starts committed deliveries' workflows; one that cannot start now
// is left to the Dispatcher's sweep.
func (s *Service) start(ctx context.Context, in []DeliveryInput) {
	if s.cfg.Engine == nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	for _, d := range in {
		if err := s.cfg.Engine.StartWebhookDelivery(ctx, d); err != nil {
			s.cfg.Logger.WarnContext(ctx, "webhook delivery not started; the dispatcher will", "delivery_id", d.DeliveryID.String(), "error", err.Error())
			continue
		}
		if err := s.st.Webhooks().MarkStarted(ctx, d.DeliveryID, now(s.cfg)); err != nil {
			s.cfg.Logger.WarnContext(ctx, "webhook delivery start not recorded", "delivery_id", d.DeliveryID.String(), "error", err.Error())
		}
	}
}

func typesOf(e *model.WebhookEndpoint) []string { return splitFields(e.EventTypes) }

// AttemptView is one attempt of a delivery, as the delivery log shows it.
type AttemptView struct {
	ID           uuid.UUID `json:"id"`
	DeliveryID   uuid.UUID `json:"delivery_id"`
	EventID      uuid.UUID `json:"event_id"`
	EventType    string    `json:"event_type"`
	Attempt      int       `json:"attempt"`
	Status       string    `json:"status"`
	HTTPStatus   *int      `json:"http_status"`
	LatencyMS    int64     `json:"latency_ms"`
	ResponseBody string    `json:"response_body"`
	Error        string    `json:"error"`
	CreatedAt    time.Time `json:"created_at"`
}

func attemptView(a *model.WebhookAttempt) AttemptView {
	st := model.DeliveryFailed
	if a.Succeeded {
		st = model.DeliverySucceeded
	}
	return AttemptView{
		ID: a.ID, DeliveryID: a.DeliveryID, EventID: a.EventID, EventType: a.EventType, Attempt: a.Attempt, Status: st,
		HTTPStatus: a.HTTPStatus, LatencyMS: a.LatencyMS, ResponseBody: a.ResponseBody, Error: a.Error, CreatedAt: a.CreatedAt.UTC(),
	}
}

// AttemptsInput asks for one page of an endpoint's delivery log.
type AttemptsInput struct {
	model.PageInput
	// EventID, when set, keeps the attempts of one event.
	EventID string
}

// Attempts lists the delivery attempts of an endpoint, newest first.
func (s *Service) Attempts(ctx context.Context, who *model.Principal, projectID, endpointID uuid.UUID, in AttemptsInput) (*model.List[AttemptView], error) {
	var p model.Problems
	page := in.Validate(&p)
	var eventID uuid.UUID
	if in.EventID != "" {
		eventID = p.CheckUUID(in.EventID, "event_id")
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	_, e, err := s.endpoint(ctx, s.st, who, projectID, endpointID, access.Read)
	if err != nil {
		return nil, err
	}
	rows, more, err := s.st.Webhooks().Attempts(ctx, e.ID, eventID, page)
	if err != nil {
		return nil, err
	}
	return model.ListOf(rows, more, func(a *model.WebhookAttempt) uuid.UUID { return a.ID }, attemptView), nil
}

// body is what a delivery POSTs: the event as GET /api/v2/events/{id}
// shows it.
func body(e *model.Event) ([]byte, error) {
	return json.Marshal(events.ViewOf(e))
}
