package main

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/auth"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// TestBackgroundPurgesEndedSignIns: the API process's background jobs
// delete the refresh tokens of portal sign-ins that have ended (and keep
// those of sign-ins still running), with the other purges.
func TestBackgroundPurgesEndedSignIns(t *testing.T) {
	st := storetest.SQLite(t)
	svc := apptest.New(t, st, nil)
	ctx := context.Background()
	su, err := svc.Auth.Signup(ctx, auth.SignupInput{Email: "ada@example.com", Password: "correct horse battery",
		OrganizationName: "Ada", OrganizationSlug: "ada"})
	if err != nil {
		t.Fatal(err)
	}
	live, err := svc.Auth.StartSession(ctx, su.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	past := time.Now().UTC().Add(-time.Hour).Truncate(time.Microsecond)
	if err := st.Sessions().Create(ctx, &model.PortalSession{ID: model.NewID(), FamilyID: model.NewID(), UserID: su.User.ID,
		TokenHash: "ended", CreatedAt: past.Add(-time.Hour), ExpiresAt: past, FamilyExpiresAt: past}); err != nil {
		t.Fatal(err)
	}
	stop := background(ctx, svc, slog.New(slog.DiscardHandler))
	t.Cleanup(stop)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		_, err := st.Sessions().ByHash(ctx, "ended")
		if model.ErrorCodeOf(err) == model.CodeNotFound {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the ended sign-in was not purged: %v", err)
		}
	}
	if _, _, err := svc.Auth.RefreshSession(ctx, live.Value); err != nil {
		t.Fatalf("the running sign-in was purged too: %v", err)
	}
}
