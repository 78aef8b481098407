package submissions_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// TestConfirmationsBesideDeadlineFlags confirms a project's invoices, all
// past their deadlines, all at once, while its queue's deadlines are
// flagged: every confirmation and every flagging pass succeeds. (On
// PostgreSQL a confirmation takes the project's row lock for the archive;
// one that held the weaker lock that its deadline event's insert takes on
// the same row before asking for it, or a flagging pass that held it
// while it waited for an invoice being confirmed, deadlocked.)
func TestConfirmationsBesideDeadlineFlags(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			now := time.Now().UTC()
			pr := seedProject(t, st, nil)
			steps := submissions.NewSteps(st, submissions.Config{ArchiveKey: []byte("test-archive-key-of-32-bytes-xyz")}, nil)
			const n = 24
			var signed, queued []uuid.UUID
			for i := range n {
				signed = append(signed, insertQueued(t, st, pr, i, now.Add(-time.Hour), model.InvoiceSigned))
				queued = append(queued, insertQueued(t, st, pr, 1000+i, now.Add(-time.Hour), model.InvoiceQueued))
			}
			start := make(chan struct{})
			errs := make(chan error, 2*n)
			var wg sync.WaitGroup
			for _, id := range signed {
				wg.Go(func() {
					<-start
					_, err := steps.Record(ctx, id, nil, model.InvoiceConfirmed, submissions.Detail{Message: "confirmed"})
					errs <- err
				})
			}
			for range 2 {
				wg.Go(func() {
					<-start
					_, err := steps.FlagDeadlines(ctx, pr.ID, submissions.Pace{})
					errs <- err
				})
			}
			close(start)
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, id := range append(signed, queued...) {
				inv, err := st.Submissions().Get(ctx, pr.ID, id)
				if err != nil {
					t.Fatal(err)
				}
				if !inv.DeadlineMissed || inv.Status == model.InvoiceSigned || inv.Status == model.InvoiceQueued && !inv.DeadlineAtRisk {
					t.Fatalf("invoice %s: %s, missed %v, at risk %v", inv.IRN, inv.Status, inv.DeadlineMissed, inv.DeadlineAtRisk)
				}
				if inv.Status == model.InvoiceConfirmed && (inv.ArchiveSeq == nil || *inv.ArchiveSeq < 1 || *inv.ArchiveSeq > n) {
					t.Fatalf("invoice %s archived at %v", inv.IRN, inv.ArchiveSeq)
				}
			}
		})
	}
}
