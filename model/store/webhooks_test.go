package store_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
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
			ep := &model.WebhookEndpoint{ID: newID(t), ProjectID: p.ID, URL: "https://hooks.example.invalid/x", EventTypes: "*",
				Enabled: true, SecretEnc: []byte("sealed"), SecretLast4: "abcd", CreatedAt: at, UpdatedAt: at}
			if err := st.Webhooks().CreateEndpoint(ctx, ep); err != nil {
				t.Fatal(err)
			}
			ev := &model.Event{ID: newID(t), ProjectID: p.ID, OrganizationID: p.OrganizationID, Type: model.EventInvoiceConfirmed,
				Data: json.RawMessage(`{}`), CreatedAt: at}
			if err := st.Events().Append(ctx, ev); err != nil {
				t.Fatal(err)
			}
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
			}
		})
	}
}
