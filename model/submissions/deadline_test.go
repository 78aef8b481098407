package submissions_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// TestFlagDeadlinesProjected: a queued invoice is flagged at risk when its
// deadline falls before its projected send time (its place in the queue
// at the project's rate, after the breaker's wait) or within the margin;
// one early in the queue with a later deadline is not.
func TestFlagDeadlinesProjected(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
			rate := 60 // a minute: the k-th invoice goes k seconds from now
			pr := seedProject(t, st, &rate)
			steps := submissions.NewSteps(st, submissions.Config{Now: func() time.Time { return now }, AtRiskMargin: time.Minute}, nil)

			// Place 0: due in 30 s, within the margin. Places 1..200: due
			// 90 s from now plus half a second a place, so that from place
			// 180 on (due at 179.5 s) the deadline comes before the send.
			ids := []uuid.UUID{insertQueued(t, st, pr, 0, now.Add(30*time.Second), model.InvoiceQueued)}
			for k := 1; k <= 200; k++ {
				ids = append(ids, insertQueued(t, st, pr, k, now.Add(90*time.Second+time.Duration(k-1)*500*time.Millisecond), model.InvoiceQueued))
			}
			// Not waiting: never at risk, whatever its deadline.
			sending := insertQueued(t, st, pr, 999, now.Add(10*time.Second), model.InvoiceSubmitting)

			flagged := func(want func(k int) bool) {
				t.Helper()
				for k, id := range ids {
					inv, err := st.Submissions().Get(ctx, pr.ID, id)
					if err != nil {
						t.Fatal(err)
					}
					if inv.DeadlineAtRisk != want(k) {
						t.Fatalf("place %d (deadline %s): at risk %v, want %v", k, inv.DeadlineAt.Sub(now), inv.DeadlineAtRisk, want(k))
					}
				}
				inv, err := st.Submissions().Get(ctx, pr.ID, sending)
				if err != nil {
					t.Fatal(err)
				}
				if inv.DeadlineAtRisk {
					t.Fatal("an invoice being sent was flagged at risk")
				}
			}
			n, err := steps.FlagDeadlines(ctx, pr.ID, submissions.Pace{})
			if err != nil {
				t.Fatal(err)
			}
			if n != 1+21 {
				t.Fatalf("flagged %d, want 22", n)
			}
			flagged(func(k int) bool { return k == 0 || k >= 180 })

			// NRS does not answer: nothing is sent before the breaker's probe
			// in 30 s, which moves every send 30 s later (places 120 on).
			if n, err = steps.FlagDeadlines(ctx, pr.ID, submissions.Pace{Wait: 30 * time.Second}); err != nil || n != 60 {
				t.Fatalf("flagged %d (%v), want 60", n, err)
			}
			flagged(func(k int) bool { return k == 0 || k >= 120 })
			// Flagged once: a pass finds nothing more.
			if n, err = steps.FlagDeadlines(ctx, pr.ID, submissions.Pace{Wait: 30 * time.Second}); err != nil || n != 0 {
				t.Fatalf("flagged %d again (%v)", n, err)
			}
			// Each flag is an entry of the invoice's log.
			evs, _, err := st.Submissions().Events(ctx, ids[150], 0, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != 1 || evs[0].Message == "" || evs[0].FromStatus != model.InvoiceQueued || evs[0].ToStatus != model.InvoiceQueued {
				t.Fatalf("events of a flagged invoice: %+v", evs)
			}
		})
	}
}

func seedProject(t *testing.T, st *store.Store, rate *int) *model.Project {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	u := &model.User{ID: uuid.Must(uuid.NewV7()), Email: "owner@example.com", PasswordHash: "x", CreatedAt: now}
	if err := st.Users().Create(ctx, u); err != nil {
		t.Fatal(err)
	}
	o := &model.Organization{ID: uuid.Must(uuid.NewV7()), Name: "acme", Slug: "acme", CreatedAt: now}
	if err := st.Organizations().Create(ctx, o, &model.Membership{OrganizationID: o.ID, UserID: u.ID, Role: model.RoleOwner, CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	p := &model.Project{ID: uuid.Must(uuid.NewV7()), OrganizationID: o.ID, Name: "p", Environment: model.EnvironmentSandbox,
		CreatedAt: now, UpdatedAt: now, TaxAuthorityCode: "NRS", QREncryption: model.QREncryptionPKCS1v15, QueueRatePerMinute: rate}
	if err := st.Projects().Create(ctx, p); err != nil {
		t.Fatal(err)
	}
	return p
}

func insertQueued(t *testing.T, st *store.Store, pr *model.Project, i int, deadline time.Time, status model.InvoiceStatus) uuid.UUID {
	t.Helper()
	irn := fmt.Sprintf("INV%05d-94ND90NR-20261124", i)
	created := deadline.Add(-time.Hour)
	inv := &model.SubmittedInvoice{ID: uuid.Must(uuid.NewV7()), ProjectID: pr.ID, OrganizationID: pr.OrganizationID,
		Environment: pr.Environment, IRN: irn, InvoiceType: model.InvoiceKindB2B, InvoiceTypeCode: "396",
		Payload: `{}`, PayloadHash: "x", Status: status, IssueDate: "2026-11-24", WorkflowID: "invoice-" + irn,
		DeadlineAt: model.StoredTime(deadline), CreatedAt: created, UpdatedAt: created}
	if err := st.Submissions().Create(context.Background(), inv); err != nil {
		t.Fatal(err)
	}
	return inv.ID
}
