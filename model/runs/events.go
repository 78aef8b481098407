package runs

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/events"
	"github.com/einvoice-ng/einvoice/model/store"
)

// A run's transitions each record one event in their own transaction:
// queued → running records certification_run.started; the final statuses
// record certification_run.passed, .failed or .cancelled. The event's
// resource is the run as GET /certification/runs/{run_id} shows it from the
// database.

// begin moves a queued run to running and records its started event.
func begin(ctx context.Context, st *store.Store, runID uuid.UUID, at time.Time) error {
	return st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if err := tx.Runs().Lock(ctx, runID); err != nil {
			return err
		}
		before, err := tx.Runs().ByID(ctx, runID)
		if err != nil {
			return err
		}
		if err := tx.Runs().MarkRunning(ctx, runID, at); err != nil {
			return err
		}
		if before.Status != model.RunQueued {
			return nil
		}
		return runEvent(ctx, tx, runID, model.EventCertificationRunStarted, at)
	})
}

// finish ends a run with a final status and records its event; it reports
// whether this call ended the run (the first final status wins).
func finish(ctx context.Context, st *store.Store, runID uuid.UUID, status model.RunStatus, reason string, at time.Time) (bool, error) {
	ended := false
	err := st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		var err error
		if ended, err = tx.Runs().Finish(ctx, runID, status, reason, at); err != nil || !ended {
			return err
		}
		typ := model.EventCertificationRunFailed
		switch status {
		case model.RunPassed:
			typ = model.EventCertificationRunPassed
		case model.RunCancelled:
			typ = model.EventCertificationRunCancelled
		}
		return runEvent(ctx, tx, runID, typ, at)
	})
	return ended, err
}

func runEvent(ctx context.Context, tx *store.Store, runID uuid.UUID, typ string, at time.Time) error {
	run, err := tx.Runs().ByID(ctx, runID)
	if err != nil {
		return err
	}
	steps, err := tx.Runs().Steps(ctx, runID)
	if err != nil {
		return err
	}
	pr, err := tx.Projects().ByID(ctx, run.ProjectID)
	if err != nil {
		return err
	}
	return events.Append(ctx, tx, events.Source{ProjectID: pr.ID, OrganizationID: pr.OrganizationID}, typ, view(run, steps), at)
}
