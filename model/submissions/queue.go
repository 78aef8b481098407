package submissions

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// QueueView is a project's queue as the API shows it: the invoices
// accepted and not yet sent to NRS (queued), how old the oldest is, how
// many are at risk of missing their deadline, how many unfinished
// invoices missed it, the earliest deadline, the pace at which the queue
// is sent once NRS answers, and how NRS answers in the project's
// environment.
type QueueView struct {
	Depth            int        `json:"depth"`
	OldestAgeSeconds int        `json:"oldest_age_seconds"`
	AtRisk           int        `json:"at_risk"`
	Missed           int        `json:"missed"`
	NextDeadlineAt   *time.Time `json:"next_deadline_at"`
	RatePerMinute    int        `json:"rate_per_minute"`
	NRSStatus        string     `json:"nrs_status"`
}

// Queue reads the project's queue (invoices:read).
func (s *Service) Queue(ctx context.Context, who *model.Principal) (*QueueView, error) {
	if err := requireRead(who); err != nil {
		return nil, err
	}
	q, err := s.st.Submissions().Queue(ctx, who.ProjectID)
	if err != nil {
		return nil, err
	}
	rate, err := s.queueRate(ctx, who.ProjectID)
	if err != nil {
		return nil, err
	}
	out := &QueueView{Depth: q.Depth, AtRisk: q.AtRisk, Missed: q.Missed, RatePerMinute: rate,
		NRSStatus: s.cfg.Health(who.Environment), NextDeadlineAt: model.UTC(q.NextDeadlineAt)}
	if q.OldestAt != nil {
		out.OldestAgeSeconds = max(0, int(s.cfg.Now().Sub(*q.OldestAt)/time.Second))
	}
	return out, nil
}

// MarkUnsent takes back the count of a sign or transmit request that
// MarkSent counted but that was never sent: the client refused it before
// sending (an open circuit breaker, a 429's pace) or could not connect.
// The next attempt then sends it without asking NRS first.
func (s *Steps) MarkUnsent(ctx context.Context, id uuid.UUID, call string) (*model.SubmittedInvoice, error) {
	var out *model.SubmittedInvoice
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		inv, err := tx.Submissions().Lock(ctx, id)
		if err != nil {
			return err
		}
		switch {
		case call == model.CallSign && inv.SignSent > 0:
			inv.SignSent--
		case call == model.CallTransmit && inv.TransmitSent > 0:
			inv.TransmitSent--
		}
		inv.UpdatedAt = s.now()
		out = inv
		return tx.Submissions().Save(ctx, inv)
	})
	return out, err
}

// QueuedBatch is the next invoices of a project's queue to send, in
// deadline order after a cursor, and the queue's depth.
type QueuedBatch struct {
	Depth int `json:"depth"`
	// IRNs are the invoices to release, earliest deadline first, and
	// WorkflowIDs their workflows' ids (each as the invoice's row keeps
	// it: keyed, or legacy for a workflow started before ids were keyed).
	IRNs        []string `json:"irns"`
	WorkflowIDs []string `json:"workflow_ids,omitempty"`
	// AfterDeadline and AfterID are the cursor past the last of IRNs.
	AfterDeadline *time.Time `json:"after_deadline"`
	AfterID       uuid.UUID  `json:"after_id"`
}

// NextQueued reads up to limit queued invoices of a project after the
// cursor (afterDeadline nil: from the start) in deadline order.
func (s *Steps) NextQueued(ctx context.Context, projectID uuid.UUID, afterDeadline *time.Time, afterID uuid.UUID, limit int) (*QueuedBatch, error) {
	q, err := s.st.Submissions().Queue(ctx, projectID)
	if err != nil {
		return nil, err
	}
	out := &QueuedBatch{Depth: q.Depth, AfterDeadline: afterDeadline, AfterID: afterID}
	if q.Depth == 0 || limit <= 0 {
		return out, nil
	}
	rows, err := s.st.Submissions().Queued(ctx, projectID, afterDeadline, afterID, limit)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		out.IRNs = append(out.IRNs, r.IRN)
		id := r.WorkflowID
		if id == "" {
			id = LegacyWorkflowID(projectID, r.IRN)
		}
		out.WorkflowIDs = append(out.WorkflowIDs, id)
		d := r.DeadlineAt
		out.AfterDeadline, out.AfterID = &d, r.ID
	}
	return out, nil
}

// EarliestQueued is the queued invoice of a project with the earliest
// deadline (not found when the queue is empty), for a probe of NRS.
func (s *Steps) EarliestQueued(ctx context.Context, projectID uuid.UUID) (*model.SubmittedInvoice, error) {
	rows, err := s.st.Submissions().Queued(ctx, projectID, nil, uuid.Nil, 1)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, model.NotFound("invoice")
	}
	return &rows[0], nil
}

// QueueTotals is every project's queue summed up by environment, for
// metrics: queued invoices and the age of the oldest.
type QueueTotals struct {
	Depth        int
	OldestSecond float64
}

// QueueByEnvironment sums the queues of every project by environment
// (sandbox, production, both always present), in one query.
func (s *Service) QueueByEnvironment(ctx context.Context) (map[model.Environment]QueueTotals, error) {
	rows, err := s.st.Submissions().QueuedByEnvironment(ctx)
	if err != nil {
		return nil, err
	}
	now := s.cfg.Now()
	out := map[model.Environment]QueueTotals{model.EnvironmentSandbox: {}, model.EnvironmentProduction: {}}
	for env, r := range rows {
		t := QueueTotals{Depth: r.Depth}
		if r.OldestAt != nil {
			t.OldestSecond = max(0, now.Sub(*r.OldestAt).Seconds())
		}
		out[env] = t
	}
	return out, nil
}
