package submissions_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
	"github.com/einvoice-ng/einvoice/model/submissions"
)

// TestGroupedWrites writes many invoices' steps at once within a Group,
// beside a deadline pass, as a clearing shard does: calls are written
// together (some shared transaction held more than one), each exactly as
// on its own (every signed invoice confirmed once, the archive one unbroken
// chain), a call that cannot be written (a queued invoice cannot be
// confirmed) is refused to its caller only, and calls made once the group
// ended are written on their own.
func TestGroupedWrites(t *testing.T) {
	for _, d := range storetest.Dialects(t) {
		t.Run(d.Name, func(t *testing.T) {
			st := d.Open(t)
			ctx := context.Background()
			now := time.Now().UTC()
			pr := seedProject(t, st, nil)
			key := []byte("test-archive-key-of-32-bytes-xyz")
			steps := submissions.NewSteps(st, submissions.Config{ArchiveKey: key}, nil)
			var shared, largest atomic.Int64
			submissions.OnGroupCommit(func(n int) {
				shared.Add(1)
				for m := largest.Load(); int64(n) > m && !largest.CompareAndSwap(m, int64(n)); m = largest.Load() {
				}
			})
			t.Cleanup(func() { submissions.OnGroupCommit(nil) })
			const n = 40
			var signed, queued []uuid.UUID
			for i := range n {
				signed = append(signed, insertQueued(t, st, pr, i, now.Add(-time.Hour), model.InvoiceSigned))
			}
			for i := range 4 {
				queued = append(queued, insertQueued(t, st, pr, 1000+i, now.Add(time.Hour), model.InvoiceQueued))
			}
			gctx, end := steps.Group(ctx)
			start := make(chan struct{})
			var wg sync.WaitGroup
			errs := make([]error, len(signed)+len(queued))
			for i, id := range append(append([]uuid.UUID{}, signed...), queued...) {
				wg.Go(func() {
					<-start
					// Two writes per invoice, one after the other, as a
					// step's MarkSent and its record are.
					if _, err := steps.MarkSent(gctx, id, model.CallTransmit); err != nil && i < n {
						errs[i] = err
						return
					}
					inv, err := steps.Record(gctx, id, nil, model.InvoiceConfirmed, submissions.Detail{Message: "confirmed"})
					if err == nil && (inv == nil || inv.ID != id || inv.Status != model.InvoiceConfirmed) {
						t.Errorf("invoice %s answered %+v", id, inv)
					}
					errs[i] = err
				})
			}
			wg.Go(func() {
				<-start
				if _, err := steps.FlagDeadlines(ctx, pr.ID, submissions.Pace{}); err != nil {
					t.Error(err)
				}
			})
			close(start)
			wg.Wait()
			end()
			for i, err := range errs {
				switch {
				case i < n && err != nil:
					t.Fatalf("signed invoice %d: %v", i, err)
				case i >= n && model.ErrorCodeOf(err) != model.CodeConflict:
					t.Fatalf("queued invoice %d confirmed: %v", i-n, err)
				}
			}
			if shared.Load() == 0 || largest.Load() < 2 {
				t.Fatalf("no shared transaction: %d committed, largest %d", shared.Load(), largest.Load())
			}
			// The chain: one entry per confirmed invoice, each after the one
			// before.
			bySeq := map[int64]*model.SubmittedInvoice{}
			for _, id := range signed {
				inv, err := st.Submissions().Get(ctx, pr.ID, id)
				if err != nil {
					t.Fatal(err)
				}
				if inv.Status != model.InvoiceConfirmed || inv.TransmitSent != 1 || inv.ArchiveSeq == nil {
					t.Fatalf("invoice %s: %s, transmit sent %d, archived %v", inv.IRN, inv.Status, inv.TransmitSent, inv.ArchiveSeq)
				}
				if bySeq[*inv.ArchiveSeq] != nil {
					t.Fatalf("archive entry %d twice", *inv.ArchiveSeq)
				}
				bySeq[*inv.ArchiveSeq] = inv
			}
			for seq := int64(1); seq <= n; seq++ {
				inv := bySeq[seq]
				if inv == nil {
					t.Fatalf("archive entry %d missing", seq)
				}
				if prev := bySeq[seq-1]; prev != nil && inv.ArchivePrevHash != prev.ArchiveHash || seq == 1 && inv.ArchivePrevHash != "" {
					t.Fatalf("archive entry %d does not follow %d", seq, seq-1)
				}
				if h, err := submissions.ArchiveHashOf(ctx, st, key, inv); err != nil || h != inv.ArchiveHash {
					t.Fatalf("archive entry %d does not verify (%v)", seq, err)
				}
			}
			for _, id := range queued {
				inv, err := st.Submissions().Get(ctx, pr.ID, id)
				if err != nil {
					t.Fatal(err)
				}
				if inv.Status != model.InvoiceQueued {
					t.Fatalf("queued invoice %s: %s", inv.IRN, inv.Status)
				}
			}
			// Once ended, calls are written on their own.
			before := shared.Load()
			if _, err := steps.Record(gctx, queued[0], nil, model.InvoiceSubmitting, submissions.Detail{}); err != nil {
				t.Fatal(err)
			}
			if shared.Load() != before {
				t.Fatal("a call after the group ended was written in a shared transaction")
			}
		})
	}
}
