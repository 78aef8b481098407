package audit_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/audit"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// Every change leaves its entry, newest first, filtered by action; the
// chain verifies until an entry is edited in the database behind the
// application's back, and then names the entry at fault.
func TestTrailAndChain(t *testing.T) {
	ctx := context.Background()
	st := storetest.SQLite(t)
	svc := apptest.New(t, st, nil)
	a := apptest.NewTenant(t, svc, "sandbox")
	b := apptest.NewTenant(t, svc, "sandbox")

	list, err := svc.Audit.List(ctx, a.User, audit.Input{OrganizationID: a.Org.ID.String()})
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, e := range list.Items {
		if e.OrganizationID == nil || *e.OrganizationID != a.Org.ID {
			t.Fatalf("entry %s of another organization listed", e.ID)
		}
		actions = append(actions, e.Action)
	}
	want := []string{model.ActionKeyCreate, model.ActionProjectCreate}
	if len(actions) < 2 || actions[0] != want[0] || actions[1] != want[1] {
		t.Fatalf("actions = %q, want %q first (newest first)", actions, want)
	}
	keyOnly, err := svc.Audit.List(ctx, a.User, audit.Input{OrganizationID: a.Org.ID.String(), Action: model.ActionKeyCreate})
	if err != nil {
		t.Fatal(err)
	}
	if len(keyOnly.Items) != 1 || keyOnly.Items[0].Target.ID != a.Secret.ID.String() {
		t.Fatalf("key.create entries = %+v, want the one naming the key", keyOnly.Items)
	}
	if _, err := svc.Audit.List(ctx, a.User, audit.Input{OrganizationID: a.Org.ID.String(), Action: "drop.tables"}); model.ErrorCodeOf(err) != model.CodeInvalid {
		t.Fatalf("unknown action: %v, want invalid", err)
	}
	if _, err := svc.Audit.List(ctx, b.User, audit.Input{OrganizationID: a.Org.ID.String()}); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("b listing a's trail: %v, want not_found", err)
	}

	ch, err := svc.Audit.Chain(ctx, b.User, b.Org.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !ch.Valid || ch.Entries < 2 || ch.HeadSeq != ch.Entries {
		t.Fatalf("b's chain = %+v, want valid with its entries", ch)
	}

	// Edit one of a's entries as someone with the database but not the
	// audit key would.
	victim := list.Items[len(list.Items)-1].ID
	if _, err := st.DB().NewUpdate().Table("audit_logs").Set("action = ?", model.ActionLogin).Where("id = ?", victim).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	ch, err = svc.Audit.Chain(ctx, a.User, a.Org.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Valid || ch.Problem == nil || ch.BrokenEntryID == nil || *ch.BrokenEntryID != victim {
		t.Fatalf("a's chain after the edit = %+v, want invalid at %s", ch, victim)
	}
	if _, err := svc.Audit.Chain(ctx, b.User, a.Org.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("b verifying a's chain: %v, want not_found", err)
	}
}

// An entry names its user actor by e-mail only while that user is a member
// of the entry's organization: a user of another organization (an entry
// edited behind the application's back, or a member who left) stays an id.
func TestActorEmails(t *testing.T) {
	ctx := context.Background()
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			svc := apptest.New(t, st, nil)
			a := apptest.NewTenant(t, svc, "sandbox")
			b := apptest.NewTenant(t, svc, "sandbox")
			aEmail, bEmail := emailOf(t, st, a.User.UserID), emailOf(t, st, b.User.UserID)

			list, err := svc.Audit.List(ctx, a.User, audit.Input{OrganizationID: a.Org.ID.String()})
			if err != nil {
				t.Fatal(err)
			}
			if len(list.Items) < 2 {
				t.Fatalf("a's entries: %d", len(list.Items))
			}
			for _, e := range list.Items {
				if e.Actor.Type != "user" || e.ActorEmail == nil || *e.ActorEmail != aEmail {
					t.Fatalf("entry %s (%s by %s %s) names its actor %v, want %s", e.ID, e.Action, e.Actor.Type, e.Actor.ID, e.ActorEmail, aEmail)
				}
			}
			moved := list.Items[0].ID
			if _, err := st.DB().NewUpdate().Table("audit_logs").Set("actor_id = ?", b.User.UserID.String()).Where("id = ?", moved).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			list, err = svc.Audit.List(ctx, a.User, audit.Input{OrganizationID: a.Org.ID.String()})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range list.Items {
				switch {
				case e.ID == moved && e.ActorEmail != nil:
					t.Fatalf("b, no member of a's organization, resolved in a's log as %q (b is %s)", *e.ActorEmail, bEmail)
				case e.ID == moved && e.Actor.ID != b.User.UserID.String():
					t.Fatalf("the edited entry's actor: %+v", e.Actor)
				case e.ID != moved && (e.ActorEmail == nil || *e.ActorEmail != aEmail):
					t.Fatalf("entry %s names its actor %v, want %s", e.ID, e.ActorEmail, aEmail)
				}
			}
			// b's own log names b.
			own, err := svc.Audit.List(ctx, b.User, audit.Input{})
			if err != nil {
				t.Fatal(err)
			}
			if len(own.Items) == 0 || own.Items[0].ActorEmail == nil || *own.Items[0].ActorEmail != bEmail {
				t.Fatalf("b's newest entry: %+v", own.Items)
			}
		})
	}
}

func emailOf(t *testing.T, st *store.Store, id uuid.UUID) string {
	t.Helper()
	u, err := st.Users().ByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return u.Email
}
