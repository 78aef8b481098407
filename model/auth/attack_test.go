package auth_test

// Replays of the attacks of the security review against the application
// layer (run them all with `make security`). Each asserts the defence,
// never a duration.

import (
	"context"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// TestAttackPasswordHashingUnbounded: 60 requests of 50 login aliases took
// the process from 366 MiB to 2.7 GiB (argon2id memory per attempt, all at
// once). Hashing takes a slot; attempts past the slots wait in a bounded
// queue, with their request's context, and the rest are refused at once.
func TestAttackPasswordHashingUnbounded(t *testing.T) {
	svc := apptest.New(t, storetest.SQLite(t), func(c *app.Config) {
		c.Auth = auth.Limits{Hashing: 1, HashQueue: 1, HashWait: time.Minute}
	})
	ctx := context.Background()
	if _, err := svc.Auth.Signup(ctx, auth.SignupInput{Email: "ada@example.com", Password: "correct horse battery",
		OrganizationName: "Ada", OrganizationSlug: "ada"}); err != nil {
		t.Fatal(err)
	}
	login := auth.LoginInput{Email: "ada@example.com", Password: "correct horse battery"}
	release, err := svc.Auth.TakeHashSlot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// One attempt waits for the slot, with its request's context.
	wctx, cancel := context.WithCancel(ctx)
	waited := make(chan error, 1)
	go func() {
		_, err := svc.Auth.Login(wctx, login)
		waited <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); svc.Auth.HashWaiting() != 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the attempt never queued")
		}
	}
	// The queue is full: the next attempt is refused at once, known e-mail
	// or not, with a delay to retry after.
	for _, email := range []string{"ada@example.com", "nobody@example.com"} {
		_, err := svc.Auth.Login(ctx, auth.LoginInput{Email: email, Password: "anything at all"})
		if e := model.AsError(err); e.Code != model.CodeUnavailable || e.RetryAfter <= 0 {
			t.Fatalf("%s with the queue full: %v", email, err)
		}
		_, err = svc.Auth.Signup(ctx, auth.SignupInput{Email: "new-" + email, Password: "correct horse battery", OrganizationName: "New", OrganizationSlug: "new"})
		if model.ErrorCodeOf(err) != model.CodeUnavailable {
			t.Fatalf("signup with the queue full: %v", err)
		}
	}
	// The waiting attempt ends with its request.
	cancel()
	if err := <-waited; model.ErrorCodeOf(err) != model.CodeUnavailable {
		t.Fatalf("cancelled while waiting: %v", err)
	}
	// Once the slot is free, attempts run again.
	release()
	if _, err := svc.Auth.Login(ctx, login); err != nil {
		t.Fatalf("with a free slot: %v", err)
	}
	if svc.Auth.HashWaiting() != 0 {
		t.Fatalf("%d still waiting", svc.Auth.HashWaiting())
	}
}
