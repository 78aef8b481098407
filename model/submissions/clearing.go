package submissions

import (
	"context"
	"encoding/binary"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Clearing in shards.
//
// With Config.ClearingShards above zero, an accepted invoice is not given
// a workflow of its own: its row names one of its project's clearing
// shards (clearing_shard, chosen from the invoice's id), and the shard's
// workflow takes the shard's invoices from the database in acceptance
// order and clears them, many at once, each exactly as an invoice's own
// workflow would (the same steps, the same writes, the same settling of a
// lost answer with NRS). Submit commits the row and then wakes the shard
// (Clearer.WakeClearing: a signal-with-start, at most a few a second per
// shard and process, the last one always after the last commit); a wake
// that is lost (the engine unreachable, the process stopped) is made up
// by the worker's sweep of shards owning invoices older than a few
// seconds (StaleClearing). An invoice that cannot be cleared at once (NRS
// not answering, a failure to retry) is handed to a workflow of its own,
// with the id its row keeps, which waits in the project's queue as every
// invoice did before; the shard then gives the row up (ClearingDone). An
// invoice stays queued, with its deadline and its place in the queue's
// view, until the shard begins it.

// Clearer wakes a project's clearing shard: the engine runs the shard's
// workflow (starting it when none runs) and the workflow reads the
// shard's invoices again. It must not block: wakes are sent in the
// background and coalesced, and one is always sent after the last call.
type Clearer interface {
	WakeClearing(projectID, organizationID uuid.UUID, shard int)
}

// MaxClearingShards bounds Config.ClearingShards.
const MaxClearingShards = 64

// DefaultClearingBacklog is how many invoices a project's clearing shards
// may own before a submission is refused (Config.ClearingBacklog):
// about 40 s of clearing at the rate one project's two shards reach on
// two cores (docs/performance.md).
const DefaultClearingBacklog = 2000

// clearingRetryAfter is the Retry-After of a submission refused for the
// backlog: a few seconds of clearing.
const clearingRetryAfter = 5 * time.Second

// checkBacklog refuses a submission of n invoices while the project's
// clearing shards own more than Config.ClearingBacklog: above what the
// deployment clears, submissions are refused at once (429 with
// Retry-After) instead of waiting longer and longer. The backlog is read
// from the database (at most the bound's worth of index entries) unless a
// reading of the last second, plus what this process accepted since, is
// at most half the bound (backlogCache).
func (c *core) checkBacklog(ctx context.Context, projectID uuid.UUID, n int) error {
	limit := c.cfg.ClearingBacklog
	if c.backlog.below(projectID, n, limit/2, c.cfg.Now()) {
		return nil
	}
	owned, err := c.st.Submissions().Clearing().Owned(ctx, projectID, limit+1)
	if err != nil {
		return err
	}
	if owned > limit {
		c.backlog.forget(projectID)
		e := model.Errorf(model.CodeRateLimited,
			"the project has more than %d invoices accepted and not yet sent to NRS; retry after the Retry-After delay", limit)
		e.RetryAfter = clearingRetryAfter
		return e
	}
	c.backlog.set(projectID, owned, n, c.cfg.Now())
	return nil
}

// backlogFresh is how long a reading of a project's backlog stands for
// the checks of its submissions in one process.
const backlogFresh = time.Second

// backlogCache keeps, per project, a recent count of the invoices its
// shards own (read up to half the bound) and how many this process
// accepted since: while the two together stay at most half the bound, a
// submission needs no read (at 100 a second, one read a second instead of
// one per submission, which read as many index entries as the backlog
// held). Near the bound every submission reads the backlog again, so the
// bound holds as before within one process; processes that each accept
// up to half the bound in the second after their reading can together
// pass it by what they accepted in that second.
type backlogCache struct {
	mu sync.Mutex
	m  map[uuid.UUID]backlogReading
}

type backlogReading struct {
	owned, since int
	at           time.Time
}

func (bc *backlogCache) below(p uuid.UUID, n, half int, now time.Time) bool {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	r, ok := bc.m[p]
	if !ok || now.Sub(r.at) >= backlogFresh || now.Before(r.at) || r.owned+r.since+n > half {
		return false
	}
	r.since += n
	bc.m[p] = r
	return true
}

func (bc *backlogCache) set(p uuid.UUID, owned, since int, now time.Time) {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	if bc.m == nil {
		bc.m = map[uuid.UUID]backlogReading{}
	}
	if len(bc.m) >= maxBacklogReadings {
		clear(bc.m)
	}
	bc.m[p] = backlogReading{owned: owned, since: since, at: now}
}

func (bc *backlogCache) forget(p uuid.UUID) {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	delete(bc.m, p)
}

// maxBacklogReadings bounds the projects whose readings a process keeps.
const maxBacklogReadings = 10000

// shardOf is the clearing shard of a new invoice: nil without shards.
func (c *core) shardOf(inv *model.SubmittedInvoice) *int {
	if c.cfg.ClearingShards <= 0 || c.clearer() == nil {
		return nil
	}
	k := int(binary.BigEndian.Uint32(inv.ID[12:]) % uint32(c.cfg.ClearingShards))
	return &k
}

// clearer is the engine's Clearer, if it is one.
func (c *core) clearer() Clearer {
	cl, _ := c.cfg.Engine.(Clearer)
	return cl
}

// wake wakes the clearing shards of the invoices recorded.
func (c *core) wake(invs ...*model.SubmittedInvoice) {
	cl := c.clearer()
	if cl == nil {
		return
	}
	type key struct {
		p uuid.UUID
		k int
	}
	seen := map[key]bool{}
	for _, inv := range invs {
		if inv == nil || inv.ClearingShard == nil || seen[key{inv.ProjectID, *inv.ClearingShard}] {
			continue
		}
		seen[key{inv.ProjectID, *inv.ClearingShard}] = true
		cl.WakeClearing(inv.ProjectID, inv.OrganizationID, *inv.ClearingShard)
	}
}

// ClearingRows lists up to limit invoices a project's clearing shard
// owns, in acceptance order, but those of skip (being cleared).
func (s *Steps) ClearingRows(ctx context.Context, projectID uuid.UUID, shard int, skip []uuid.UUID, limit int) ([]model.SubmittedInvoice, error) {
	return s.st.Submissions().Clearing().Rows(ctx, projectID, shard, skip, limit)
}

// ClearingDone gives invoices back from their clearing shard: cleared,
// or handed to workflows of their own.
func (s *Steps) ClearingDone(ctx context.Context, ids []uuid.UUID) error {
	return s.st.Submissions().Clearing().Done(ctx, ids)
}

// StaleClearing lists the clearing shards owning an invoice accepted
// more than age ago (a wake that never arrived), at most limit.
func (s *Steps) StaleClearing(ctx context.Context, age time.Duration, limit int) ([]store.ClearingShard, error) {
	return s.st.Submissions().Clearing().Stale(ctx, s.now().Add(-age), limit)
}

// HandOff is the input of the workflow of its own that an invoice the
// shard could not clear at once is given.
func HandOff(inv *model.SubmittedInvoice) WorkflowInput { return workflowInput(inv) }
