package invoices

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// fakeIRNs stands in for the irns table: claimAll stores new records, keeps
// old ones, and waits on gate (when set) or fails (when fail says so)
// before anything is stored.
type fakeIRNs struct {
	mu      sync.Mutex
	rows    map[string]model.IssuedIRN
	batches [][]string // the references of each transaction
	gate    chan struct{}
	entered chan struct{}
	fail    func(batch int) error
}

func (f *fakeIRNs) claimAll(_ context.Context, recs []*model.IssuedIRN) ([]*model.IssuedIRN, error) {
	f.mu.Lock()
	n := len(f.batches)
	refs := make([]string, len(recs))
	for i, r := range recs {
		refs[i] = r.InvoiceReference
	}
	f.batches = append(f.batches, refs)
	gate, entered := f.gate, f.entered
	f.mu.Unlock()
	if entered != nil {
		entered <- struct{}{}
	}
	if gate != nil {
		<-gate
	}
	if f.fail != nil {
		if err := f.fail(n); err != nil {
			return nil, err
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	got := make([]*model.IssuedIRN, len(recs))
	for i, r := range recs {
		k := r.ProjectID.String() + "/" + r.InvoiceReference
		old, ok := f.rows[k]
		if !ok {
			f.rows[k] = *r
			old = *r
		}
		got[i] = &old
	}
	return got, nil
}

func issued(project uuid.UUID, ref, irn string) *model.IssuedIRN {
	return &model.IssuedIRN{ProjectID: project, InvoiceReference: ref, IssueDate: "2026-03-15", IRN: irn}
}

// Claims that arrive while a transaction is under way go together in the
// next one, and when that commit fails, every claim of the batch fails and
// none is stored; the batch after it commits normally.
func TestIRNBatchFailsTogether(t *testing.T) {
	project := uuid.New()
	f := &fakeIRNs{rows: map[string]model.IssuedIRN{}, gate: make(chan struct{}), entered: make(chan struct{}, 8)}
	injected := errors.New("commit failed")
	f.fail = func(batch int) error {
		if batch == 1 {
			return injected
		}
		return nil
	}
	b := &irnBatcher{claimAll: f.claimAll}
	ctx := context.Background()

	type answer struct {
		rec *model.IssuedIRN
		err error
	}
	first := make(chan answer, 1)
	go func() {
		rec, err := b.claim(ctx, issued(project, "FIRST", "FIRST-1"))
		first <- answer{rec, err}
	}()
	<-f.entered // the first transaction is under way, held at the gate

	const n = 10
	answers := make([]answer, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			ref := fmt.Sprintf("WAIT%d", i%5) // two claims per reference
			rec, err := b.claim(ctx, issued(project, ref, ref+"-1"))
			answers[i] = answer{rec, err}
		})
	}
	// Wait until all ten are queued behind the first transaction.
	for deadline := time.Now().Add(10 * time.Second); ; {
		b.mu.Lock()
		queued := len(b.pending)
		b.mu.Unlock()
		if queued == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d claims queued, want %d", queued, n)
		}
		time.Sleep(time.Millisecond)
	}
	f.gate <- struct{}{} // the first commits
	if a := <-first; a.err != nil || a.rec.IRN != "FIRST-1" {
		t.Fatalf("first claim: %+v, %v", a.rec, a.err)
	}
	<-f.entered
	f.gate <- struct{}{} // the second, all ten claims in one transaction, fails
	wg.Wait()

	if len(f.batches) != 2 || len(f.batches[1]) != 5 {
		t.Fatalf("transactions %v, want the first claim's, then the five references of the ten queued claims together", f.batches)
	}
	for i, a := range answers {
		if !errors.Is(a.err, injected) || a.rec != nil {
			t.Errorf("claim %d of the failed batch: %+v, %v; want the commit's error and no record", i, a.rec, a.err)
		}
	}
	if len(f.rows) != 1 {
		t.Errorf("stored %v, want only FIRST", f.rows)
	}

	// The batcher is idle again: the next claim leads its own transaction.
	close(f.gate)
	go func() {
		for range f.entered {
		}
	}()
	rec, err := b.claim(ctx, issued(project, "WAIT0", "WAIT0-2"))
	if err != nil || rec.IRN != "WAIT0-2" {
		t.Fatalf("claim after the failed batch: %+v, %v", rec, err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.running || len(b.pending) != 0 {
		t.Errorf("batcher not idle: running %v, %d pending", b.running, len(b.pending))
	}
}

// A claim whose request goes away stops waiting; the others of its batch
// still get their answers.
func TestIRNBatchCallerGoesAway(t *testing.T) {
	project := uuid.New()
	f := &fakeIRNs{rows: map[string]model.IssuedIRN{}, gate: make(chan struct{}), entered: make(chan struct{}, 8)}
	b := &irnBatcher{claimAll: f.claimAll}
	go func() { _, _ = b.claim(context.Background(), issued(project, "LEAD", "LEAD-1")) }()
	<-f.entered
	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan error, 1)
	go func() {
		_, err := b.claim(ctx, issued(project, "GONE", "GONE-1"))
		gone <- err
	}()
	stay := make(chan *model.IssuedIRN, 1)
	go func() {
		rec, _ := b.claim(context.Background(), issued(project, "STAY", "STAY-1"))
		stay <- rec
	}()
	for {
		b.mu.Lock()
		queued := len(b.pending)
		b.mu.Unlock()
		if queued == 2 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-gone; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled claim: %v", err)
	}
	close(f.gate)
	go func() {
		for range f.entered {
		}
	}()
	if rec := <-stay; rec == nil || rec.IRN != "STAY-1" {
		t.Fatalf("claim beside a cancelled one: %+v", rec)
	}
}

// A panic in the store fails the batch instead of leaving its claims
// waiting.
func TestIRNBatchPanic(t *testing.T) {
	b := &irnBatcher{claimAll: func(context.Context, []*model.IssuedIRN) ([]*model.IssuedIRN, error) { panic("boom") }}
	rec, err := b.claim(context.Background(), issued(uuid.New(), "P", "P-1"))
	if err == nil || rec != nil {
		t.Fatalf("claim: %+v, %v; want an error", rec, err)
	}
}
