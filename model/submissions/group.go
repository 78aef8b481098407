package submissions

import (
	"bytes"
	"context"
	"slices"
	"sync"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Group commit of a clearing shard's writes.
//
// A clearing shard clears many invoices at once, and each of their steps
// writes its invoice in a transaction of its own (Apply): the invoice's
// lock, its events, its row, and a commit, which on PostgreSQL waits for
// the write-ahead log to reach the disk, and, for a confirmation, the
// project's archive lock, which serializes the project's confirmations.
// Within a Group, the Apply calls of the shard's invoices that arrive
// while its lane's transactions are under way (the confirmations' one,
// the other writes' groupParallel) wait for one to end and are then
// written together, in one transaction with one commit: each exactly as
// on its own (its invoice locked, its changes, its row); the
// confirmations of a transaction take the archive's lock once, and hold
// it for their entries and the commit. No call waits for others to
// arrive: a call that finds its lane with a transaction to spare starts
// one at once. Apply answers each
// call once the transaction that wrote it committed, so a sign or
// transmit request counted by MarkSent is still sent only after its
// count is durable. When a shared transaction fails, its calls are
// written again one by one, each with its own transaction, so that one
// invoice's failure (a conflict) is answered to that invoice only.

// maxGroup bounds the calls written in one shared transaction.
const maxGroup = 32

// groupCommitted, when set (tests), learns the size of every shared
// transaction that committed.
var groupCommitted func(n int)

type groupKey struct{}

// group gathers Apply calls into shared transactions, in two lanes:
// confirmations, written one transaction at a time (the project's archive
// lock serializes them anyway), and the other writes, up to
// groupParallel transactions at once (their invoices' rows are distinct,
// and PostgreSQL writes them side by side).
type group struct {
	s   *Steps
	ctx context.Context

	mu     sync.Mutex
	lanes  [2]lane
	closed bool
	wg     sync.WaitGroup
}

// lane is one lane's calls waiting, and its transactions under way.
type lane struct {
	pending []*groupCall
	running int
	max     int
}

// groupParallel is how many transactions of writes other than
// confirmations a group runs at once on PostgreSQL (on SQLite, one):
// as many as a shard clears invoices at once, so that their statements'
// round trips go side by side and a transaction is shared only by
// writes that would otherwise wait.
const groupParallel = 16

// groupCall is one Apply call waiting in a group.
type groupCall struct {
	id      uuid.UUID
	changes []Change
	call    string
	out     *model.SubmittedInvoice
	err     error
	done    chan struct{}
}

// Group returns a context whose Apply calls (Record, MarkSent, Begin's
// move) are written in shared transactions, and the function that ends
// the group: calls made after it run on their own. The group's
// transactions run with ctx (the clearing shard's).
func (s *Steps) Group(ctx context.Context) (context.Context, func()) {
	g := &group{s: s, ctx: ctx}
	g.lanes[0].max, g.lanes[1].max = groupParallel, 1
	if s.st.Dialect() == "sqlite" {
		// One writer at a time: writes side by side would only wait
		// for each other's turn.
		g.lanes[0].max = 1
	}
	return context.WithValue(ctx, groupKey{}, g), g.close
}

// close ends the group once its transactions are over.
func (g *group) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.wg.Wait()
}

// apply queues one call and waits for its transaction; ok is false when
// the group is closed (the caller writes it on its own).
func (g *group) apply(id uuid.UUID, changes []Change, call string) (*model.SubmittedInvoice, error, bool) {
	c := &groupCall{id: id, changes: changes, call: call, done: make(chan struct{})}
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil, nil, false
	}
	l := &g.lanes[0]
	if confirms(c) {
		l = &g.lanes[1]
	}
	l.pending = append(l.pending, c)
	if l.running < l.max {
		l.running++
		g.wg.Add(1)
		go g.run(l)
	}
	g.mu.Unlock()
	<-c.done
	return c.out, c.err, true
}

// run writes a lane's pending calls, up to maxGroup per transaction,
// until none is left.
func (g *group) run(l *lane) {
	defer g.wg.Done()
	for {
		g.mu.Lock()
		n := min(len(l.pending), maxGroup)
		if n == 0 {
			l.running--
			g.mu.Unlock()
			return
		}
		batch := slices.Clone(l.pending[:n])
		l.pending = slices.Delete(l.pending, 0, n)
		g.mu.Unlock()
		g.write(batch)
		for _, c := range batch {
			close(c.done)
		}
	}
}

// write writes a batch in one transaction, or each call on its own when
// that transaction fails (or holds one call).
func (g *group) write(batch []*groupCall) {
	if len(batch) > 1 {
		order(batch)
		err := g.s.st.RunInTx(g.ctx, func(ctx context.Context, tx *store.Store) error {
			later := &archiveLater{}
			ctx = context.WithValue(ctx, archiveLaterKey{}, later)
			for _, c := range batch {
				out, err := g.s.applyIn(ctx, tx, c.id, c.changes, c.call, false)
				if err != nil {
					return err
				}
				c.out = out
			}
			return g.s.archiveAll(ctx, tx, later.invs)
		})
		if err == nil {
			if groupCommitted != nil {
				groupCommitted(len(batch))
			}
			return
		}
		g.s.cfg.Logger.WarnContext(g.ctx, "a shared transaction of invoice writes failed; writing them one by one",
			"writes", len(batch), "error", err.Error())
	}
	for _, c := range batch {
		c.out, c.err = nil, nil
		c.err = g.s.st.RunInTx(g.ctx, func(ctx context.Context, tx *store.Store) error {
			out, err := g.s.applyIn(ctx, tx, c.id, c.changes, c.call, true)
			c.out = out
			return err
		})
		if c.err != nil {
			c.out = nil
		}
	}
}

// order puts a batch's confirmations last (they take the project's
// archive lock, which is then held only for the chain's entries and the
// commit), each part by invoice id (one order of the invoices' locks).
func order(batch []*groupCall) {
	slices.SortStableFunc(batch, func(a, b *groupCall) int {
		if ca, cb := confirms(a), confirms(b); ca != cb {
			if ca {
				return 1
			}
			return -1
		}
		return bytes.Compare(a.id[:], b.id[:])
	})
}

// confirms reports whether a call moves its invoice to confirmed.
func confirms(c *groupCall) bool {
	for _, ch := range c.changes {
		if ch.To == model.InvoiceConfirmed {
			return true
		}
	}
	return false
}
