package keys_test

import (
	"context"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/keys"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// A key's secret is shown once and authenticates as its project; a wrong
// secret, a rotated-away secret and a revoked key do not.
func TestKeyLifecycle(t *testing.T) {
	ctx := context.Background()
	svc := apptest.New(t, storetest.SQLite(t), nil)
	tn := apptest.NewTenant(t, svc, "sandbox")

	if tn.Key.ProjectID != tn.Project.ID {
		t.Fatalf("key principal's project = %v, want %s", tn.Key.ProjectID, tn.Project.ID)
	}
	if got := tn.Secret.SecretLast4; got != tn.Secret.ClientSecret[len(tn.Secret.ClientSecret)-4:] {
		t.Fatalf("secret_last4 = %q, not the secret's last four", got)
	}
	if _, err := svc.Keys.Authenticate(ctx, tn.Secret.ClientID, tn.Secret.ClientSecret+"x"); model.ErrorCodeOf(err) != model.CodeUnauthenticated {
		t.Fatalf("wrong secret: %v, want unauthenticated", err)
	}
	list, err := svc.Keys.List(ctx, tn.User, tn.Project.ID, model.PageInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].ID != tn.Secret.ID {
		t.Fatalf("list = %+v, want the one key", list.Items)
	}

	// Rotation without grace: the new secret works, the old one stops at once.
	rot, err := svc.Keys.Rotate(ctx, tn.User, tn.Project.ID, tn.Secret.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rot.ClientSecret == tn.Secret.ClientSecret {
		t.Fatal("rotation kept the secret")
	}
	if _, err := svc.Keys.Authenticate(ctx, rot.ClientID, rot.ClientSecret); err != nil {
		t.Fatalf("rotated secret: %v", err)
	}
	if _, err := svc.Keys.Authenticate(ctx, tn.Secret.ClientID, tn.Secret.ClientSecret); model.ErrorCodeOf(err) != model.CodeUnauthenticated {
		t.Fatalf("old secret after rotation without grace: %v, want unauthenticated", err)
	}
	if _, err := svc.Keys.Rotate(ctx, tn.User, tn.Project.ID, tn.Secret.ID, keys.MaxGraceSeconds+1); model.ErrorCodeOf(err) != model.CodeInvalid {
		t.Fatalf("grace over the bound: %v, want invalid", err)
	}

	rev, err := svc.Keys.Revoke(ctx, tn.User, tn.Project.ID, rot.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rev.Status != model.KeyRevoked {
		t.Fatalf("status = %q, want revoked", rev.Status)
	}
	if _, err := svc.Keys.Authenticate(ctx, rot.ClientID, rot.ClientSecret); model.ErrorCodeOf(err) != model.CodeUnauthenticated {
		t.Fatalf("revoked key: %v, want unauthenticated", err)
	}
}

// Another tenant's keys are not found, never told apart from missing ones,
// whether asked by a user or by another project's key.
func TestKeysTenantIsolation(t *testing.T) {
	ctx := context.Background()
	svc := apptest.New(t, storetest.SQLite(t), nil)
	a := apptest.NewTenant(t, svc, "sandbox")
	b := apptest.NewTenant(t, svc, "sandbox")

	if _, err := svc.Keys.Revoke(ctx, b.User, a.Project.ID, a.Secret.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("revoke another tenant's key: %v, want not_found", err)
	}
	if _, err := svc.Keys.Create(ctx, b.User, a.Project.ID, keys.Input{KeyName: "intruder"}); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("create in another tenant's project: %v, want not_found", err)
	}
	if _, err := svc.Keys.List(ctx, a.Key, b.Project.ID, model.PageInput{}); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("a key listing another project's keys: %v, want not_found", err)
	}
	if _, err := svc.Keys.Authenticate(ctx, a.Secret.ClientID, a.Secret.ClientSecret); err != nil {
		t.Fatalf("a's key after b's attempts: %v", err)
	}
}
