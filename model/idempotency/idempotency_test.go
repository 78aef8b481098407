package idempotency_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/idempotency"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// A key runs its request once: the kept answer is replayed to the same
// request, a different request under the key is refused, a second caller
// while the first runs is told to retry, and a server error frees the key.
func TestReplayOnce(t *testing.T) {
	ctx := context.Background()
	svc := apptest.New(t, storetest.SQLite(t), nil)
	cred := idempotency.KeyCredential(uuid.New())
	req := idempotency.Request{Credential: cred, Key: "order-1", Method: "POST", Target: "/api/v2/invoices", Body: []byte(`{"a":1}`)}

	claim, replay, err := svc.Idempotency.Acquire(ctx, req)
	if err != nil || claim == nil || replay != nil {
		t.Fatalf("first Acquire = %v, %v, %v; want a claim", claim, replay, err)
	}
	if _, _, err := svc.Idempotency.Acquire(ctx, req); model.ErrorCodeOf(err) != model.CodeConflict {
		t.Fatalf("same request while the first runs: %v, want conflict", err)
	}
	if err := claim.Finish(ctx, &idempotency.StoredResponse{Status: 201, Header: map[string]string{"Content-Type": "application/json"}, Body: []byte(`{"id":"x"}`)}); err != nil {
		t.Fatal(err)
	}
	claim, replay, err = svc.Idempotency.Acquire(ctx, req)
	if err != nil || claim != nil || replay == nil || replay.Status != 201 || !bytes.Equal(replay.Body, []byte(`{"id":"x"}`)) {
		t.Fatalf("retry = %v, %+v, %v; want the kept 201 replayed", claim, replay, err)
	}
	other := req
	other.Body = []byte(`{"a":2}`)
	if _, _, err := svc.Idempotency.Acquire(ctx, other); model.ErrorCodeOf(err) != model.CodeIdempotencyKeyReuse {
		t.Fatalf("another body under the key: %v, want idempotency_key_reuse", err)
	}
	// Keys are per credential: another key's same Idempotency-Key is its own.
	mine := req
	mine.Credential = idempotency.KeyCredential(uuid.New())
	if c, _, err := svc.Idempotency.Acquire(ctx, mine); err != nil || c == nil {
		t.Fatalf("another credential's key: %v, %v; want a claim of its own", c, err)
	}

	// A server error is not kept: the retry runs again.
	failing := req
	failing.Key = "order-2"
	c, _, err := svc.Idempotency.Acquire(ctx, failing)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Finish(ctx, &idempotency.StoredResponse{Status: 503}); err != nil {
		t.Fatal(err)
	}
	if c, replay, err := svc.Idempotency.Acquire(ctx, failing); err != nil || c == nil || replay != nil {
		t.Fatalf("retry after a 503 = %v, %v, %v; want a new claim", c, replay, err)
	}
}

func TestKeysAndStatuses(t *testing.T) {
	for key, ok := range map[string]bool{
		"a": true, "order-1": true, strings.Repeat("k", 255): true,
		"": false, strings.Repeat("k", 256): false, "tab\there": false, "naïve": false,
	} {
		if err := idempotency.CheckKey(key); (err == nil) != ok {
			t.Errorf("CheckKey(%q) = %v, want ok=%v", key, err, ok)
		} else if err != nil && model.ErrorCodeOf(err) != model.CodeInvalid {
			t.Errorf("CheckKey(%q) = %v, want invalid", key, err)
		}
	}
	for status, keep := range map[int]bool{200: true, 201: true, 400: true, 422: true, 409: false, 429: false, 500: false, 503: false} {
		if idempotency.ShouldStore(status) != keep {
			t.Errorf("ShouldStore(%d) = %v, want %v", status, !keep, keep)
		}
	}
}
