package service_test

// Replays of the attacks of the security review against the application
// layer (run them all with `make security`). Each asserts the defence,
// never a duration.

import (
	"context"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/service"
	"github.com/einvoice-ng/einvoice/model/service/servicetest"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/workflows/certtest"
)

// TestAttackPasswordHashingUnbounded: 60 requests of 50 login aliases took
// the process from 366 MiB to 2.7 GiB (argon2id memory per attempt, all at
// once). Hashing takes a slot; attempts past the slots wait in a bounded
// queue, with their request's context, and the rest are refused at once.
func TestAttackPasswordHashingUnbounded(t *testing.T) {
	svc := servicetest.New(t, storetest.SQLite(t), func(c *service.Config) {
		c.Auth = service.AuthLimits{Hashing: 1, HashQueue: 1, HashWait: time.Minute}
	})
	ctx := context.Background()
	if _, err := svc.Signup(ctx, service.SignupInput{Email: "ada@example.com", Password: "correct horse battery",
		OrganizationName: "Ada", OrganizationSlug: "ada"}); err != nil {
		t.Fatal(err)
	}
	login := service.LoginInput{Email: "ada@example.com", Password: "correct horse battery"}
	release, err := svc.TakeHashSlot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// One attempt waits for the slot, with its request's context.
	wctx, cancel := context.WithCancel(ctx)
	waited := make(chan error, 1)
	go func() {
		_, err := svc.Login(wctx, login)
		waited <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); svc.HashWaiting() != 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the attempt never queued")
		}
	}
	// The queue is full: the next attempt is refused at once, known e-mail
	// or not, with a delay to retry after.
	for _, email := range []string{"ada@example.com", "nobody@example.com"} {
		_, err := svc.Login(ctx, service.LoginInput{Email: email, Password: "anything at all"})
		if e := model.AsError(err); e.Code != model.CodeUnavailable || e.RetryAfter <= 0 {
			t.Fatalf("%s with the queue full: %v", email, err)
		}
		_, err = svc.Signup(ctx, service.SignupInput{Email: "new-" + email, Password: "correct horse battery", OrganizationName: "New", OrganizationSlug: "new"})
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
	if _, err := svc.Login(ctx, login); err != nil {
		t.Fatalf("with a free slot: %v", err)
	}
	if svc.HashWaiting() != 0 {
		t.Fatalf("%d still waiting", svc.HashWaiting())
	}
}

// TestAttackRunStartRoleChecks: the portal's start of a run lacked the
// owner/admin check. The application layer decides for every transport:
// a member is forbidden, an outsider does not see the project, a key needs
// the certification:run scope; owners and scoped keys start runs.
func TestAttackRunStartRoleChecks(t *testing.T) {
	runs := &fakeRuns{}
	e := certtest.New(t, certtest.Options{Runs: runs})
	ctx := context.Background()
	owner := e.Tenant
	member, outsider := e.NewTenant(t), e.NewTenant(t)
	_, err := e.Store.DB().NewInsert().Model(&model.Membership{
		OrganizationID: owner.Project.OrganizationID, UserID: member.User.UserID, Role: model.RoleMember,
		CreatedAt: time.Now().UTC().Truncate(time.Microsecond),
	}).Exec(ctx)
	if err != nil {
		t.Fatal(err)
	}
	in := service.CertificationInput{InvoiceType: "B2C", IssueDate: "2026-03-15"}
	for name, c := range map[string]struct {
		u    *service.UserPrincipal
		want model.ErrorCode
	}{
		"member":   {member.User, model.CodeForbidden},
		"outsider": {outsider.User, model.CodeNotFound},
		"owner":    {owner.User, ""},
	} {
		_, err := e.Service.StartProjectCertificationRun(ctx, c.u, owner.Project.ID, in)
		if model.ErrorCodeOf(err) != c.want {
			t.Fatalf("%s: %v, want %q", name, err, c.want)
		}
	}
	readOnly := *owner.Key
	readOnly.Scopes = model.Scopes{model.ScopeCertificationRd}
	if _, err := e.Service.StartCertificationRun(ctx, &readOnly, in); model.ErrorCodeOf(err) != model.CodeForbidden {
		t.Fatalf("key without certification:run: %v", err)
	}
	if _, err := e.Service.StartCertificationRun(ctx, owner.Key, in); err != nil {
		t.Fatalf("key with every scope: %v", err)
	}
	if len(runs.started) != 2 {
		t.Fatalf("%d runs started, want the owner's and the scoped key's", len(runs.started))
	}
}
