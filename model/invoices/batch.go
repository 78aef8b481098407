package invoices

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// irnBatcher records the IRNs of concurrent requests in one transaction
// (group commit): a request that finds no transaction under way commits its
// own claim at once, and the claims that arrive meanwhile wait and go
// together in the next transaction. One writer at a time is what SQLite
// wants (concurrent writers wait on its lock, and their waits are sleeps),
// and one commit for many requests is cheaper on either database.
//
// Nothing is answered before its transaction has committed: a failed commit
// fails every claim of its batch, and none of them is stored.
type irnBatcher struct {
	// claimAll stores recs in one transaction (store.IRNs.ClaimAll): got[i]
	// is the stored record of recs[i], all or nothing.
	claimAll func(ctx context.Context, recs []*model.IssuedIRN) ([]*model.IssuedIRN, error)

	mu      sync.Mutex
	pending []*irnClaim
	running bool // a batch is being committed
}

// irnClaim is one request's claim, waiting for its batch.
type irnClaim struct {
	rec  *model.IssuedIRN
	got  *model.IssuedIRN
	err  error
	done chan struct{}
}

const (
	// maxIRNBatch bounds the claims of one transaction.
	maxIRNBatch = 256
	// irnCommitTimeout bounds one batch's transaction. The batch is not
	// cancelled by one of its requests going away: the others wait on it.
	irnCommitTimeout = 15 * time.Second
)

// claim records rec unless its project already issued an IRN for the same
// invoice reference, and returns the stored record, once committed. When
// ctx ends first, claim returns ctx's error; the claim may still be
// committed later, as a request whose answer was lost may be.
func (b *irnBatcher) claim(ctx context.Context, rec *model.IssuedIRN) (*model.IssuedIRN, error) {
	c := &irnClaim{rec: rec, done: make(chan struct{})}
	b.mu.Lock()
	b.pending = append(b.pending, c)
	lead := !b.running
	b.running = true
	b.mu.Unlock()
	if lead {
		// Nothing under way: this request commits what is pending (its own
		// claim, and any that came in since) itself. It first lets the
		// goroutines ready to run (other requests being read and checked)
		// go ahead, so that the claims they are about to make join this
		// transaction instead of waiting for the next: under load that
		// makes batches several times larger, at the cost of one
		// scheduler pass; idle, it costs nothing.
		runtime.Gosched()
		b.commit(ctx)
	}
	select {
	case <-c.done:
		return c.got, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// commit takes up to maxIRNBatch pending claims, stores them in one
// transaction and answers them; then, if more are pending, it hands them to
// a new goroutine, so that the request that led returns with its answer.
func (b *irnBatcher) commit(ctx context.Context) {
	b.mu.Lock()
	n := min(len(b.pending), maxIRNBatch)
	batch := b.pending[:n:n]
	b.pending = b.pending[n:]
	if len(b.pending) == 0 {
		b.pending = nil
	}
	b.mu.Unlock()

	b.store(ctx, batch)

	b.mu.Lock()
	more := len(b.pending) > 0
	b.running = more
	b.mu.Unlock()
	if more {
		go b.commit(context.WithoutCancel(ctx))
	}
}

// store runs one transaction for batch and answers each claim. Claims of
// the same (project, reference) share one record.
func (b *irnBatcher) store(ctx context.Context, batch []*irnClaim) {
	type key struct {
		project uuid.UUID
		ref     string
	}
	recs := make([]*model.IssuedIRN, 0, len(batch))
	slot := make(map[key]int, len(batch))
	of := make([]int, len(batch))
	for i, c := range batch {
		k := key{c.rec.ProjectID, c.rec.InvoiceReference}
		j, ok := slot[k]
		if !ok {
			j = len(recs)
			slot[k] = j
			recs = append(recs, c.rec)
		}
		of[i] = j
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), irnCommitTimeout)
	defer cancel()
	got, err := b.run(ctx, recs)
	for i, c := range batch {
		if err != nil {
			c.err = err
		} else {
			// Each request gets its own copy of the shared record.
			rec := *got[of[i]]
			c.got = &rec
		}
		close(c.done)
	}
}

// run calls claimAll, turning a panic into the batch's error so that no
// claim waits forever.
func (b *irnBatcher) run(ctx context.Context, recs []*model.IssuedIRN) (got []*model.IssuedIRN, err error) {
	defer func() {
		if r := recover(); r != nil {
			got, err = nil, fmt.Errorf("record IRNs: panic: %v", r)
		}
	}()
	got, err = b.claimAll(ctx, recs)
	if err == nil && len(got) != len(recs) {
		err = fmt.Errorf("record IRNs: %d records stored for %d claims", len(got), len(recs))
	}
	return got, err
}
