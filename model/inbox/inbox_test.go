package inbox_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/app/apptest"
	"github.com/einvoice-ng/einvoice/model/events"
	"github.com/einvoice-ng/einvoice/model/inbox"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

const received = `{"irn": "INV001-94ND90NR-20261128", "invoice_type_code": "396", "issue_date": "2026-11-28",
 "document_currency_code": "NGN", "accounting_supplier_party": {"tin": "12345678-0001", "party_name": "Supplier Ltd"},
 "accounting_customer_party": {"tin": "87654321-0001"}, "legal_monetary_total": {"payable_amount": 1075.5}}`

// countEvents counts the project's events of typ.
func countEvents(t *testing.T, svc interface {
	List(context.Context, *model.Principal, events.ListInput) (*model.List[events.View], error)
}, who *model.Principal, project uuid.UUID, typ string) int {
	t.Helper()
	l, err := svc.List(context.Background(), who, events.ListInput{ProjectID: project.String(), Types: []string{typ}})
	if err != nil {
		t.Fatal(err)
	}
	return len(l.Items)
}

// A downloaded invoice is stored once by IRN with its event, whatever the
// number of pulls that find it; one addressed to another buyer or holding
// another IRN is refused; its receipt is confirmed once; its buyer decides
// on it (not sent to NRS) through the API, which only its own project
// sees.
func TestInboxStoresOnceConfirmsOnceAndDecides(t *testing.T) {
	ctx := context.Background()
	svc := apptest.New(t, storetest.SQLite(t), nil)
	a := apptest.NewTenant(t, svc, "sandbox")
	b := apptest.NewTenant(t, svc, "sandbox")
	irn := "INV001-94ND90NR-20261128"

	v, stored, err := svc.InboxSteps.Store(ctx, a.Project.ID, irn, []byte(received), false, "87654321-0001")
	if err != nil || !stored {
		t.Fatalf("first store: %v stored=%v", err, stored)
	}
	if v.SupplierName != "Supplier Ltd" || v.PayableAmount != "1075.5" || v.Currency != "NGN" || v.Confirmed {
		t.Fatalf("stored view %+v", v)
	}
	again, stored, err := svc.InboxSteps.Store(ctx, a.Project.ID, irn, []byte(received), false, "")
	if err != nil || stored || again.ID != v.ID {
		t.Fatalf("second store: %v stored=%v id %s, want the first %s", err, stored, again.ID, v.ID)
	}
	if _, _, err := svc.InboxSteps.Store(ctx, a.Project.ID, irn, []byte(received), false, "11111111-0001"); !errors.Is(err, inbox.ErrForeign) {
		t.Fatalf("another buyer's invoice: %v, want ErrForeign", err)
	}
	if _, _, err := svc.InboxSteps.Store(ctx, a.Project.ID, "INV002-94ND90NR-20261128", []byte(received), false, ""); model.ErrorCodeOf(err) != model.CodeInvalid {
		t.Fatalf("a download holding another IRN: %v, want invalid", err)
	}
	if has, err := svc.InboxSteps.Has(ctx, a.Project.ID, irn); err != nil || !has {
		t.Fatalf("has: %v %v", has, err)
	}
	if has, err := svc.InboxSteps.Has(ctx, b.Project.ID, irn); err != nil || has {
		t.Fatalf("another project has it: %v %v", has, err)
	}
	if n := countEvents(t, svc.Events, a.User, a.Project.ID, model.EventReceivedInvoiceReceived); n != 1 {
		t.Fatalf("%d received events, want 1", n)
	}

	open, err := svc.InboxSteps.Unconfirmed(ctx, a.Project.ID, 10)
	if err != nil || len(open) != 1 || open[0] != irn {
		t.Fatalf("unconfirmed: %q %v", open, err)
	}
	for range 2 {
		if err := svc.InboxSteps.Confirmed(ctx, a.Project.ID, irn); err != nil {
			t.Fatal(err)
		}
	}
	if open, _ := svc.InboxSteps.Unconfirmed(ctx, a.Project.ID, 10); len(open) != 0 {
		t.Fatalf("still unconfirmed: %q", open)
	}
	if n := countEvents(t, svc.Events, a.User, a.Project.ID, model.EventReceivedInvoiceConfirmed); n != 1 {
		t.Fatalf("%d confirmed events, want 1", n)
	}

	list, err := svc.Inbox.List(ctx, a.Key, inbox.ListInput{})
	if err != nil || len(list.Items) != 1 || list.Items[0].ID != v.ID || !list.Items[0].Confirmed {
		t.Fatalf("list: %+v %v", list, err)
	}
	if list, err := svc.Inbox.List(ctx, b.Key, inbox.ListInput{}); err != nil || len(list.Items) != 0 {
		t.Fatalf("another project lists %+v %v", list, err)
	}
	if _, err := svc.Inbox.Get(ctx, b.Key, v.ID); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("another project reads it: %v, want not_found", err)
	}
	got, err := svc.Inbox.Get(ctx, a.Key, v.ID)
	if err != nil || len(got.Document) == 0 {
		t.Fatalf("get: %+v %v", got, err)
	}
	if _, err := svc.Inbox.Decide(ctx, a.Key, v.ID, inbox.DecideInput{Decision: "maybe"}); model.ErrorCodeOf(err) != model.CodeInvalid {
		t.Fatalf("an unknown decision: %v, want invalid", err)
	}
	if _, err := svc.Inbox.Decide(ctx, b.Key, v.ID, inbox.DecideInput{Decision: "accepted"}); model.ErrorCodeOf(err) != model.CodeNotFound {
		t.Fatalf("another project decides: %v, want not_found", err)
	}
	for range 2 {
		d, err := svc.Inbox.Decide(ctx, a.Key, v.ID, inbox.DecideInput{Decision: "Accepted", Reason: "goods received"})
		if err != nil || d.Decision == nil || *d.Decision != model.DecisionAccepted || d.DecidedAt == nil {
			t.Fatalf("decide: %+v %v", d, err)
		}
	}
	if n := countEvents(t, svc.Events, a.User, a.Project.ID, model.EventReceivedInvoiceAccepted); n != 1 {
		t.Fatalf("%d accepted events, want 1 (the same decision again changes nothing)", n)
	}
	if _, err := svc.Inbox.Decide(ctx, a.Key, v.ID, inbox.DecideInput{Decision: "rejected", Reason: "wrong quantity"}); err != nil {
		t.Fatal(err)
	}
	if n := countEvents(t, svc.Events, a.User, a.Project.ID, model.EventReceivedInvoiceRejected); n != 1 {
		t.Fatalf("%d rejected events, want 1", n)
	}
}
