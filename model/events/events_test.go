package events_test

import (
	"context"
	"testing"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/events"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// Each state change appends one event in its own transaction: a key's
// creation, rotation and revocation are listed newest first, filtered by
// type or prefix, and read back one by one; another tenant sees none.
func TestEventsOfAKey(t *testing.T) {
	ctx := context.Background()
	svc := apptest.New(t, storetest.SQLite(t), nil)
	a := apptest.NewTenant(t, svc, "sandbox")
	b := apptest.NewTenant(t, svc, "sandbox")

	if _, err := svc.Keys.Rotate(ctx, a.User, a.Project.ID, a.Secret.ID, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Keys.Revoke(ctx, a.User, a.Project.ID, a.Secret.ID); err != nil {
		t.Fatal(err)
	}

	list, err := svc.Events.List(ctx, a.User, events.ListInput{ProjectID: a.Project.ID.String()})
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, e := range list.Items {
		if e.ProjectID != a.Project.ID {
			t.Fatalf("event %s of project %s listed for %s", e.ID, e.ProjectID, a.Project.ID)
		}
		types = append(types, e.Type)
	}
	want := []string{model.EventAPIKeyRevoked, model.EventAPIKeyRotated, model.EventAPIKeyCreated}
	if len(types) != len(want) {
		t.Fatalf("types = %q, want %q", types, want)
	}
	for i := range want {
		if types[i] != want[i] {
			t.Fatalf("types = %q, want %q (newest first)", types, want)
		}
	}

	only, err := svc.Events.List(ctx, a.User, events.ListInput{ProjectID: a.Project.ID.String(), Types: []string{model.EventAPIKeyRotated}})
	if err != nil {
		t.Fatal(err)
	}
	if len(only.Items) != 1 || only.Items[0].Type != model.EventAPIKeyRotated {
		t.Fatalf("filtered by type = %+v", only.Items)
	}
	prefix, err := svc.Events.List(ctx, a.User, events.ListInput{ProjectID: a.Project.ID.String(), Types: []string{"api_key.*"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(prefix.Items) != 3 {
		t.Fatalf("filtered by prefix: %d events, want 3", len(prefix.Items))
	}
	if _, err := svc.Events.List(ctx, a.User, events.ListInput{ProjectID: a.Project.ID.String(), Types: []string{"nope"}}); model.ErrorCodeOf(err) != model.CodeInvalid {
		t.Fatalf("unknown type filter: %v, want invalid", err)
	}

	one, err := svc.Events.Get(ctx, a.User, a.Project.ID.String(), list.Items[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if one.Type != model.EventAPIKeyRevoked {
		t.Fatalf("read back %q", one.Type)
	}
	// The project's key reads its own project's events without naming it.
	byKey, err := svc.Events.List(ctx, b.Key, events.ListInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(byKey.Items) != 1 || byKey.Items[0].ProjectID != b.Project.ID {
		t.Fatalf("b's key lists %+v, want b's one key.created", byKey.Items)
	}
	if _, err := svc.Events.Get(ctx, b.User, a.Project.ID.String(), one.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("b reading a's event: %v, want not_found", err)
	}
	if _, err := svc.Events.Get(ctx, b.Key, b.Project.ID.String(), one.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("b's key reading a's event through its own project: %v, want not_found", err)
	}
}

func TestFilters(t *testing.T) {
	for _, tc := range []struct {
		filters []string
		typ     string
		want    bool
	}{
		{nil, model.EventAPIKeyCreated, false},
		{[]string{"*"}, model.EventAPIKeyCreated, true},
		{[]string{"api_key.*"}, model.EventAPIKeyRevoked, true},
		{[]string{"invoice.*"}, model.EventAPIKeyRevoked, false},
		{[]string{model.EventAPIKeyCreated}, model.EventAPIKeyRotated, false},
	} {
		if got := events.Matches(tc.filters, tc.typ); got != tc.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", tc.filters, tc.typ, got, tc.want)
		}
	}
	if events.ValidFilter("no.such") || !events.ValidFilter("api_key.*") || !events.ValidFilter(model.EventAPIKeyCreated) {
		t.Error("ValidFilter does not tell the known types and prefixes from the rest")
	}
}
