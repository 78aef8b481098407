package store_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// A direct delivery is created claimed, and its success ends it, counts
// its attempt and records it started in one statement; a delivery over
// already keeps its first outcome.
func TestDeliveryCreatedClaimedEndsWithItsSuccess(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			st := d.Open(t)
			_, _, p := seed(t, st, "deliveries-"+d.Name)
			at := model.StoredTime(time.Now())
			ep, evs := endpointAndEvents(t, st, p, at, 1)
			ev := evs[0]
			for i, status := range []string{model.DeliveryPending, model.DeliveryFailed} {
				del := &model.WebhookDelivery{ID: newID(t), EventID: ev.ID, EndpointID: ep.ID, ProjectID: p.ID,
					Status: status, CreatedAt: at, ClaimedAt: &at}
				if created, err := st.Webhooks().CreateDelivery(ctx, del); err != nil || !created {
					t.Fatalf("created %v, %v", created, err)
				}
				later := at.Add(time.Second)
				code := 204
				a := &model.WebhookAttempt{ID: newID(t), DeliveryID: del.ID, EndpointID: ep.ID, EventID: ev.ID,
					EventType: ev.Type, Attempt: 1, Succeeded: true, HTTPStatus: &code, CreatedAt: later}
				if err := st.Webhooks().AddSuccess(ctx, a, later); err != nil {
					t.Fatal(err)
				}
				got, err := st.Webhooks().Delivery(ctx, del.ID)
				if err != nil {
					t.Fatal(err)
				}
				if got.ClaimedAt == nil || !got.ClaimedAt.Equal(at) || got.StartedAt == nil || !got.StartedAt.Equal(later) || got.Attempts != 1 {
					t.Fatalf("delivery %d: %+v", i, got)
				}
				if status == model.DeliveryPending && (got.Status != model.DeliverySucceeded || got.FinishedAt == nil || !got.FinishedAt.Equal(later)) {
					t.Fatalf("a pending delivery did not end succeeded: %+v", got)
				}
				if status == model.DeliveryFailed && (got.Status != model.DeliveryFailed || got.FinishedAt != nil) {
					t.Fatalf("a delivery over changed its outcome: %+v", got)
				}
				atts, _, err := st.Webhooks().Attempts(ctx, ep.ID, ev.ID, model.Page{Limit: 10})
				if err != nil || len(atts) != i+1 || atts[0].ID != a.ID && atts[len(atts)-1].ID != a.ID {
					t.Fatalf("attempts recorded: %+v, %v", atts, err)
				}
				// The same attempt again conflicts as the attempt's, and
				// counts nothing on its delivery.
				again := *a
				if err := st.Webhooks().AddSuccess(ctx, &again, later); model.ErrorCodeOf(err) != model.CodeConflict ||
					!strings.Contains(model.AsError(err).Message, "webhook attempt") {
					t.Fatalf("a repeated attempt: %v", err)
				}
				if got, err := st.Webhooks().Delivery(ctx, del.ID); err != nil || got.Attempts != 1 {
					t.Fatalf("a repeated attempt counted: %+v, %v", got, err)
				}
			}
		})
	}
}

// Deliveries created in one statement: the new ones are told apart from
// those that existed; the events a dispatcher claims are the undispatched
// ones.
func TestCreateDeliveriesAndClaimEvents(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			ctx := context.Background()
			st := d.Open(t)
			_, _, p := seed(t, st, "bulk-"+d.Name)
			at := model.StoredTime(time.Now())
			ep, evs := endpointAndEvents(t, st, p, at, 3)
			if err := st.Events().MarkAllDispatched(ctx, []uuid.UUID{evs[0].ID}, at); err != nil {
				t.Fatal(err)
			}
			var claimed []model.Event
			if err := st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
				var err error
				claimed, err = tx.Events().ClaimUndispatched(ctx, 10)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if len(claimed) != 2 || claimed[0].ID != evs[1].ID || claimed[1].ID != evs[2].ID {
				t.Fatalf("claimed %+v", claimed)
			}
			del := func(ev *model.Event) model.WebhookDelivery {
				return model.WebhookDelivery{ID: newID(t), EventID: ev.ID, EndpointID: ep.ID, ProjectID: p.ID,
					Status: model.DeliveryPending, CreatedAt: at, ClaimedAt: &at}
			}
			first := []model.WebhookDelivery{del(evs[0]), del(evs[1])}
			created, err := st.Webhooks().CreateDeliveries(ctx, first)
			if err != nil || len(created) != 2 || !created[first[0].ID] || !created[first[1].ID] {
				t.Fatalf("created %v, %v", created, err)
			}
			second := []model.WebhookDelivery{first[1], del(evs[2])}
			created, err = st.Webhooks().CreateDeliveries(ctx, second)
			if err != nil || len(created) != 1 || !created[second[1].ID] {
				t.Fatalf("created again %v, %v", created, err)
			}
			if created, err = st.Webhooks().CreateDeliveries(ctx, first); err != nil || len(created) != 0 {
				t.Fatalf("created none %v, %v", created, err)
			}
		})
	}
}

// endpointAndEvents creates an endpoint of p taking every event, and n
// events of p.
func endpointAndEvents(t *testing.T, st *store.Store, p *model.Project, at time.Time, n int) (*model.WebhookEndpoint, []*model.Event) {
	t.Helper()
	ctx := context.Background()
	ep := &model.WebhookEndpoint{ID: newID(t), ProjectID: p.ID, URL: "https://hooks.example.invalid/x", EventTypes: "*",
		Enabled: true, SecretEnc: []byte("sealed"), SecretLast4: "abcd", CreatedAt: at, UpdatedAt: at}
	if err := st.Webhooks().CreateEndpoint(ctx, ep); err != nil {
		t.Fatal(err)
	}
	var evs []*model.Event
	for range n {
		ev := &model.Event{ID: newID(t), ProjectID: p.ID, OrganizationID: p.OrganizationID, Type: model.EventInvoiceConfirmed,
			Data: json.RawMessage(`{}`), CreatedAt: at}
		if err := st.Events().Append(ctx, ev); err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	return ep, evs
}
