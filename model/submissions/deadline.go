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

// Kind of the invoice log's deadline entries.
const eventDeadline = "deadline"

// flagMissed flags inv (locked in tx) deadline_missed when its deadline
// is before now, with its log entry and event.
func (c *core) flagMissed(ctx context.Context, tx *store.Store, inv *model.SubmittedInvoice, now time.Time) error {
	if inv.DeadlineMissed || inv.DeadlineAt.IsZero() || !now.After(inv.DeadlineAt) {
		return nil
	}
	inv.DeadlineMissed = true
	if err := c.appendEvent(ctx, tx, inv, &model.InvoiceEvent{Kind: eventDeadline,
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
	if err := c.appendEvent(ctx, tx, inv, &model.InvoiceEvent{Kind: eventDeadline,
		Message: "deadline at risk: still waiting for NRS, deadline " + inv.DeadlineAt.UTC().Format(time.RFC3339)}); err != nil {
		return err
	}
	return publish(ctx, tx, inv, model.EventInvoiceDeadlineAtRisk, now)
}

// flagBatch bounds the invoices FlagDeadlines flags in one transaction.
const flagBatch = 200

// FlagDeadlines flags a project's waiting invoices: queued ones within
// the at-risk margin of their deadline deadline_at_risk, unfinished ones
// past it deadline_missed. It answers how many it flagged.
func (s *Steps) FlagDeadlines(ctx context.Context, projectID uuid.UUID) (int, error) {
	n := 0
	for _, f := range []struct {
		flag string
		by   func(now time.Time) time.Time
		do   func(context.Context, *store.Store, *model.SubmittedInvoice, time.Time) error
	}{
		{"deadline_at_risk", func(now time.Time) time.Time { return now.Add(s.cfg.AtRiskMargin) }, s.flagAtRisk},
		{"deadline_missed", func(now time.Time) time.Time { return now }, s.flagMissed},
	} {
		for {
			now := s.now()
			rows, err := s.st.Submissions().Unflagged(ctx, projectID, f.flag, f.by(now), flagBatch)
			if err != nil {
				return n, err
			}
			if len(rows) == 0 {
				break
			}
			err = s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
				for _, r := range rows {
					inv, err := tx.Submissions().Lock(ctx, r.ID)
					if err != nil {
						return err
					}
					if inv.Status.Final() {
						continue
					}
					if err := f.do(ctx, tx, inv, now); err != nil {
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
	}
	return n, nil
}
