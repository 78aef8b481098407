package submissions

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Deadlines.
//
// Every submitted invoice carries deadline_at, fixed when it is accepted:
//
//   - B2C: Config.B2CWindow (default 24 hours, EINVOICE_B2C_DEADLINE) after
//     the invoice's issue: its issue_date at its issue_time (HH:MM:SS) when
//     the payload has one, else at the start of its issue_date, both read
//     in Nigerian time (Africa/Lagos, UTC+1, no daylight saving).
//   - B2B and B2G: the project's clearance_deadline_minutes (default 60,
//     1..4320) after the invoice was accepted (its created_at).
//
// An invoice still waiting (queued) within Config.AtRiskMargin (default 30
// minutes) of its deadline, or whose send time in the queue's order and
// pace falls past it, is flagged deadline_at_risk; one whose deadline
// passes before NRS confirms it is flagged deadline_missed. Both are
// fields of the invoice and events (invoice.deadline_at_risk,
// invoice.deadline_missed), and neither stops it from being sent.

// DefaultB2CWindow is how long after its issue a B2C invoice must be
// reported: 24 hours.
const DefaultB2CWindow = 24 * time.Hour

// DefaultAtRiskMargin is how close to its deadline a waiting invoice is
// flagged at risk.
const DefaultAtRiskMargin = 30 * time.Minute

// DefaultQueueRate is how many waiting invoices of a project are sent a
// minute once NRS answers again.
const DefaultQueueRate = 600

// lagos is Nigerian time: UTC+1 all year (West Africa Time).
var lagos = time.FixedZone("WAT", 3600)

// IssuedAt is when an invoice was issued, from its payload's issue_date
// (YYYY-MM-DD) and issue_time (HH:MM:SS, optional) in Nigerian time; false
// when issue_date cannot be read.
func IssuedAt(issueDate, issueTime string) (time.Time, bool) {
	d, err := time.ParseInLocation("2006-01-02", issueDate, lagos)
	if err != nil {
		return time.Time{}, false
	}
	if issueTime != "" {
		if t, err := time.ParseInLocation("2006-01-02 15:04:05", issueDate+" "+issueTime, lagos); err == nil {
			return t.UTC(), true
		}
	}
	return d.UTC(), true
}

// DeadlineOf is the deadline of an invoice of kind issued as the payload
// says (issueDate, issueTime) and accepted at accepted, in a project whose
// clearance deadline is clearanceMinutes (default when zero), with the B2C
// window b2c (default when zero). A B2C invoice whose issue date cannot be
// read takes its acceptance as its issue.
func DeadlineOf(kind model.InvoiceKind, issueDate, issueTime string, accepted time.Time, clearanceMinutes int, b2c time.Duration) time.Time {
	if kind == model.InvoiceKindB2C {
		if b2c <= 0 {
			b2c = DefaultB2CWindow
		}
		issued, ok := IssuedAt(issueDate, issueTime)
		if !ok {
			issued = accepted
		}
		return model.StoredTime(issued.Add(b2c))
	}
	if clearanceMinutes <= 0 {
		clearanceMinutes = model.DefaultClearanceDeadlineMinutes
	}
	return model.StoredTime(accepted.Add(time.Duration(clearanceMinutes) * time.Minute))
}

// The invoice log records a deadline flag as a state entry that keeps
// the invoice's state (from and to the same), its message naming the flag.
const eventDeadline = model.EventState

// flagMissed flags inv (locked in tx) deadline_missed when its deadline
// is before now, with its log entry and event.
func (c *core) flagMissed(ctx context.Context, tx *store.Store, inv *model.SubmittedInvoice, now time.Time) error {
	if inv.DeadlineMissed || inv.DeadlineAt.IsZero() || !now.After(inv.DeadlineAt) {
		return nil
	}
	inv.DeadlineMissed = true
	if err := c.appendEvent(ctx, tx, inv, &model.InvoiceEvent{Kind: eventDeadline, FromStatus: inv.Status, ToStatus: inv.Status,
		Message: "deadline missed: " + inv.DeadlineAt.UTC().Format(time.RFC3339) + " passed before NRS confirmed the invoice"}); err != nil {
		return err
	}
	return publish(ctx, tx, inv, model.EventInvoiceDeadlineMissed, now)
}

// flagAtRisk flags inv (locked in tx) deadline_at_risk, with its log
// entry and event.
func (c *core) flagAtRisk(ctx context.Context, tx *store.Store, inv *model.SubmittedInvoice, now time.Time) error {
	if inv.DeadlineAtRisk {
		return nil
	}
	inv.DeadlineAtRisk = true
	if err := c.appendEvent(ctx, tx, inv, &model.InvoiceEvent{Kind: eventDeadline, FromStatus: inv.Status, ToStatus: inv.Status,
		Message: "deadline at risk: still waiting for NRS, deadline " + inv.DeadlineAt.UTC().Format(time.RFC3339)}); err != nil {
		return err
	}
	return publish(ctx, tx, inv, model.EventInvoiceDeadlineAtRisk, now)
}

// lockAll locks the invoices ids in tx, in that order, before anything is
// written, so that a pass holds no other lock while it waits for an
// invoice that a confirmation holds.
func lockAll(ctx context.Context, tx *store.Store, ids []uuid.UUID) ([]*model.SubmittedInvoice, error) {
	out := make([]*model.SubmittedInvoice, 0, len(ids))
	for _, id := range ids {
		inv, err := tx.Submissions().Lock(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, inv)
	}
	return out, nil
}

// flagBatch bounds the invoices FlagDeadlines flags in one transaction.
const flagBatch = 200

// Pace is how a project's queue is expected to be sent: the wait before
// its first invoice goes (the time until the circuit breaker's next probe
// while NRS does not answer; zero while it does) and how many go a minute
// (RatePerMinute; the project's queue rate when zero).
type Pace struct {
	Wait          time.Duration
	RatePerMinute int
}

// QueueRate is how many of a project's waiting invoices are sent a minute:
// its queue_rate_per_minute, else Config.RatePerMinute.
func (s *Steps) QueueRate(ctx context.Context, projectID uuid.UUID) (int, error) {
	return s.queueRate(ctx, projectID)
}

func (c *core) queueRate(ctx context.Context, projectID uuid.UUID) (int, error) {
	r, err := c.st.Projects().QueueRate(ctx, projectID)
	if err != nil {
		return 0, err
	}
	if r != nil && *r > 0 {
		return *r, nil
	}
	return c.cfg.RatePerMinute, nil
}

// SendsAt is when the queued invoice with ahead invoices before it in the
// queue's order is expected to be sent at pace p: now + p.Wait + ahead
// minutes / p.RatePerMinute.
func (p Pace) SendsAt(now time.Time, ahead int) time.Time {
	return now.Add(p.Wait + time.Duration(ahead)*time.Minute/time.Duration(max(1, p.RatePerMinute)))
}

// FlagDeadlines flags a project's waiting invoices: a queued one
// deadline_at_risk when its deadline is before its projected send time at
// pace p (Pace.SendsAt, from its place in the queue's order: deadline,
// then id) or within the at-risk margin (the floor); an unfinished one
// past its deadline deadline_missed. It answers how many it flagged.
//
// It reads only the queued invoices that could be at risk: with depth
// queued invoices, none sends later than SendsAt(now, depth-1), so those
// whose deadline is before that (or before the margin) are a prefix of the
// queue, read in one ordered query of their ids, deadlines and flags.
func (s *Steps) FlagDeadlines(ctx context.Context, projectID uuid.UUID, p Pace) (int, error) {
	if p.RatePerMinute <= 0 {
		r, err := s.queueRate(ctx, projectID)
		if err != nil {
			return 0, err
		}
		p.RatePerMinute = r
	}
	now := s.now()
	depth, err := s.st.Submissions().QueuedDepth(ctx, projectID)
	if err != nil {
		return 0, err
	}
	var risky []uuid.UUID
	if depth > 0 {
		floor := now.Add(s.cfg.AtRiskMargin)
		horizon := p.SendsAt(now, depth-1)
		if horizon.Before(floor) {
			horizon = floor
		}
		rows, err := s.st.Submissions().QueuedBefore(ctx, projectID, horizon, depth)
		if err != nil {
			return 0, err
		}
		for k, r := range rows {
			if !r.DeadlineAtRisk && (r.DeadlineAt.Before(floor) || r.DeadlineAt.Before(p.SendsAt(now, k))) {
				risky = append(risky, r.ID)
			}
		}
	}
	n := 0
	for len(risky) > 0 {
		batch := risky[:min(len(risky), flagBatch)]
		risky = risky[len(batch):]
		err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
			invs, err := lockAll(ctx, tx, batch)
			if err != nil {
				return err
			}
			for _, inv := range invs {
				if inv.Status != model.InvoiceQueued || inv.DeadlineAtRisk {
					continue
				}
				if err := s.flagAtRisk(ctx, tx, inv, now); err != nil {
					return err
				}
				inv.UpdatedAt = now
				if err := tx.Submissions().Save(ctx, inv); err != nil {
					return err
				}
				n++
			}
			return nil
		})
		if err != nil {
			return n, err
		}
	}
	for {
		rows, err := s.st.Submissions().Unflagged(ctx, projectID, "deadline_missed", now, flagBatch)
		if err != nil {
			return n, err
		}
		if len(rows) == 0 {
			break
		}
		err = s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
			ids := make([]uuid.UUID, len(rows))
			for i, r := range rows {
				ids[i] = r.ID
			}
			invs, err := lockAll(ctx, tx, ids)
			if err != nil {
				return err
			}
			for _, inv := range invs {
				if inv.Status.Final() {
					continue
				}
				if err := s.flagMissed(ctx, tx, inv, now); err != nil {
					return err
				}
				inv.UpdatedAt = now
				if err := tx.Submissions().Save(ctx, inv); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return n, err
		}
		n += len(rows)
		if len(rows) < flagBatch {
			break
		}
	}
	return n, nil
}
