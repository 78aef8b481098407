package store

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// Runs is the repository of certification runs and the evidence of their steps.
type Runs struct{ s *Store }

// Runs returns the repository of runs, in s's connection or transaction.
func (s *Store) Runs() Runs { return Runs{s} }

// ListForProjects lists one page of runs, newest first,
// of each of several projects of the user's organizations, in one query.
func (rp Runs) ListForProjects(ctx context.Context, userID uuid.UUID, projectIDs []uuid.UUID, p model.Page) ([]model.CertificationRun, error) {
	out := []model.CertificationRun{}
	if len(projectIDs) == 0 {
		return out, nil
	}
	inner := rp.s.idb.NewSelect().Model((*model.CertificationRun)(nil)).
		ExcludeColumn("invoice_payload", "payload").
		ColumnExpr("ROW_NUMBER() OVER (PARTITION BY certification_run.project_id ORDER BY certification_run.id DESC) AS rn").
		Where("certification_run.project_id IN (?)", bun.List(projectIDs)).
		Where("certification_run.project_id IN (?)", rp.s.memberProjectIDs(userID))
	if p.After != uuid.Nil {
		inner = inner.Where("certification_run.id < ?", p.After)
	}
	err := rp.s.idb.NewSelect().Model(&out).
		ExcludeColumn("invoice_payload", "payload").
		ModelTableExpr("(?) AS certification_run", inner).
		Where("certification_run.rn <= ?", p.Limit+1).
		OrderExpr("certification_run.project_id ASC, certification_run.id DESC").
		Scan(ctx)
	return out, rp.s.wrap(err, "certification run")
}

// Create inserts a run.
func (rp Runs) Create(ctx context.Context, r *model.CertificationRun) error {
	_, err := rp.s.idb.NewInsert().Model(r).Exec(ctx)
	return rp.s.wrap(err, "certification run")
}

// SetTemporalID records the Temporal run id of a run's
// workflow execution.
func (rp Runs) SetTemporalID(ctx context.Context, id uuid.UUID, temporalRunID string) error {
	res, err := rp.s.idb.NewUpdate().Model((*model.CertificationRun)(nil)).
		Set("temporal_run_id = ?", temporalRunID).
		Where("id = ?", id).Exec(ctx)
	return rp.s.affected(res, err, "certification run")
}

// ByID finds a run without a tenant check, for callers that
// already hold its id legitimately (the run's own activities).
func (rp Runs) ByID(ctx context.Context, id uuid.UUID) (*model.CertificationRun, error) {
	r := new(model.CertificationRun)
	err := rp.s.idb.NewSelect().Model(r).Where("id = ?", id).Scan(ctx)
	return r, rp.s.wrap(err, "certification run")
}

// Get finds a run of one project; a run of any other
// project is not found.
func (rp Runs) Get(ctx context.Context, projectID, id uuid.UUID) (*model.CertificationRun, error) {
	r := new(model.CertificationRun)
	err := rp.s.idb.NewSelect().Model(r).Where("id = ?", id).Where("project_id = ?", projectID).Scan(ctx)
	return r, rp.s.wrap(err, "certification run")
}

// GetForUser finds a run of a project of the user's
// organizations; any other run is not found.
func (rp Runs) GetForUser(ctx context.Context, userID, id uuid.UUID) (*model.CertificationRun, error) {
	r := new(model.CertificationRun)
	err := rp.s.idb.NewSelect().Model(r).
		Where("id = ?", id).
		Where("project_id IN (?)", rp.s.memberProjectIDs(userID)).
		Scan(ctx)
	return r, rp.s.wrap(err, "certification run")
}

// List lists a project's runs, newest first, one page.
func (rp Runs) List(ctx context.Context, projectID uuid.UUID, p model.Page) ([]model.CertificationRun, bool, error) {
	var out []model.CertificationRun
	q := rp.s.idb.NewSelect().Model(&out).
		ExcludeColumn("invoice_payload", "payload").
		Where("project_id = ?", projectID).
		OrderExpr("id DESC").Limit(p.Limit + 1)
	if p.After != uuid.Nil {
		q = q.Where("id < ?", p.After)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, rp.s.wrap(err, "certification run")
	}
	return trim(out, p.Limit)
}

// MarkRunning moves a queued run to running. It is a no-op
// for a run that is already running or over, and not_found for a run that
// does not exist (yet: the row commits just after its workflow starts).
func (rp Runs) MarkRunning(ctx context.Context, id uuid.UUID, at time.Time) error {
	return rp.s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		res, err := tx.idb.NewUpdate().Model((*model.CertificationRun)(nil)).
			Set("status = ?", model.RunRunning).
			Set("started_at = ?", at).
			Where("id = ?", id).
			Where("status = ?", model.RunQueued).
			Exec(ctx)
		if err != nil {
			return tx.wrap(err, "certification run")
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
		_, err = tx.Runs().ByID(ctx, id)
		return err
	})
}

// Lock takes a run's row lock inside a transaction (PostgreSQL), so that
// a transition checked under it is not raced.
func (rp Runs) Lock(ctx context.Context, id uuid.UUID) error {
	return rp.s.lockRow(ctx, "certification_runs", id)
}

// SetPayload records the payload a run sends and its IRN. A run that is
// over is not changed: the write is refused with model.RunOver.
func (rp Runs) SetPayload(ctx context.Context, id uuid.UUID, payload, irn string) error {
	return rp.s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		if err := tx.Runs().requireOpen(ctx, id); err != nil {
			return err
		}
		res, err := tx.idb.NewUpdate().Model((*model.CertificationRun)(nil)).
			Set("payload = ?", payload).
			Set("irn = ?", irn).
			Where("id = ?", id).
			Where("status IN (?)", bun.List(openRunStatuses)).
			Exec(ctx)
		return tx.affected(res, err, "certification run")
	})
}

// openRunStatuses are the statuses of a run that has not ended.
var openRunStatuses = []model.RunStatus{model.RunQueued, model.RunRunning}

// requireOpen locks the run's row (PostgreSQL; SQLite transactions hold the
// database's one write lock) and fails with model.RunOver when the run has
// ended, not_found when it does not exist. Called first in a transaction,
// it orders the write after any Finish in flight: a write that follows the
// run's end is refused, and a write that precedes it is settled by it.
func (rp Runs) requireOpen(ctx context.Context, id uuid.UUID) error {
	if err := rp.s.lockRow(ctx, "certification_runs", id); err != nil {
		return err
	}
	var status model.RunStatus
	err := rp.s.idb.NewSelect().Model((*model.CertificationRun)(nil)).Column("status").Where("id = ?", id).Scan(ctx, &status)
	if err != nil {
		return rp.s.wrap(err, "certification run")
	}
	if status.Final() {
		return model.RunOver(status)
	}
	return nil
}

// Finish ends a run with a final status. The first final
// status wins: finishing a run that is already over changes nothing, so the
// call is safe to repeat. Steps still running or retrying are marked
// failed. It reports whether this call ended the run.
func (rp Runs) Finish(ctx context.Context, id uuid.UUID, status model.RunStatus, reason string, at time.Time) (bool, error) {
	ended := false
	err := rp.s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		q := tx.idb.NewUpdate().Model((*model.CertificationRun)(nil)).
			Set("status = ?", status).
			Set("finished_at = ?", at).
			Where("id = ?", id).
			Where("status IN (?)", bun.List(openRunStatuses))
		if reason != "" {
			q = q.Set("failure_reason = ?", reason)
		}
		res, err := q.Exec(ctx)
		if err != nil {
			return tx.wrap(err, "certification run")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		ended = true
		_, err = tx.idb.NewUpdate().Model((*model.CertificationStep)(nil)).
			Set("status = ?", model.StepFailed).
			Set("finished_at = COALESCE(finished_at, ?)", at).
			Where("run_id = ?", id).
			Where("status IN (?)", bun.List([]model.StepStatus{model.StepRunning, model.StepRetrying})).
			Exec(ctx)
		return tx.wrap(err, "certification step")
	})
	return ended, err
}

// Step finds the evidence of one step of a run.
func (rp Runs) Step(ctx context.Context, runID uuid.UUID, name string) (*model.CertificationStep, error) {
	st := new(model.CertificationStep)
	err := rp.s.idb.NewSelect().Model(st).Where("run_id = ?", runID).Where("name = ?", name).Scan(ctx)
	return st, rp.s.wrap(err, "certification step")
}

// Steps lists a run's evidence in step order.
func (rp Runs) Steps(ctx context.Context, runID uuid.UUID) ([]model.CertificationStep, error) {
	out := []model.CertificationStep{}
	err := rp.s.idb.NewSelect().Model(&out).Where("run_id = ?", runID).OrderExpr("seq ASC, name ASC").Scan(ctx)
	return out, rp.s.wrap(err, "certification step")
}

// SaveStep writes the evidence of a step: one row per run and
// step name, so a retried activity rewrites its row instead of adding one.
// A step that already passed keeps its evidence. The evidence of a run that
// is over does not change: the write is refused with model.RunOver, in the
// same transaction that reads the run's status under its row lock.
func (rp Runs) SaveStep(ctx context.Context, st *model.CertificationStep) error {
	return rp.s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		if err := tx.Runs().requireOpen(ctx, st.RunID); err != nil {
			return err
		}
		return tx.Runs().upsertStep(ctx, st)
	})
}

// upsertStep inserts or rewrites a step's row unless it passed.
func (rp Runs) upsertStep(ctx context.Context, st *model.CertificationStep) error {
	_, err := rp.s.idb.NewInsert().Model(st).
		On("CONFLICT (run_id, name) DO UPDATE").
		Set("seq = EXCLUDED.seq").
		Set("status = EXCLUDED.status").
		Set("attempts = EXCLUDED.attempts").
		Set("started_at = EXCLUDED.started_at").
		Set("finished_at = EXCLUDED.finished_at").
		Set("duration_ms = EXCLUDED.duration_ms").
		Set("http_status = EXCLUDED.http_status").
		Set("nrs_error_id = EXCLUDED.nrs_error_id").
		Set("message = EXCLUDED.message").
		Where("?TableAlias.status <> ?", model.StepPassed).
		Exec(ctx)
	return rp.s.wrap(err, "certification step")
}

// CountByStatus counts every run by status.
func (rp Runs) CountByStatus(ctx context.Context) (map[model.RunStatus]int64, error) {
	var rows []struct {
		Status model.RunStatus `bun:"status"`
		Count  int64           `bun:"count"`
	}
	err := rp.s.idb.NewSelect().Model((*model.CertificationRun)(nil)).
		ColumnExpr("status, COUNT(*) AS count").GroupExpr("status").Scan(ctx, &rows)
	if err != nil {
		return nil, rp.s.wrap(err, "certification run")
	}
	out := make(map[model.RunStatus]int64, len(rows))
	for _, r := range rows {
		out[r.Status] = r.Count
	}
	return out, nil
}

// CountActive counts a project's runs that are queued or
// running and were created after since (older ones have outlived any
// workflow and only wait to be settled). Run ids are UUIDv7, so the
// project's index bounds the scan to runs created after since.
func (rp Runs) CountActive(ctx context.Context, projectID uuid.UUID, since time.Time) (int, error) {
	n, err := rp.s.idb.NewSelect().Model((*model.CertificationRun)(nil)).
		Where("project_id = ? AND id >= ?", projectID, uuidV7Floor(since)).
		Where("created_at >= ?", since).
		Where("status IN (?)", bun.List([]model.RunStatus{model.RunQueued, model.RunRunning})).
		Count(ctx)
	return n, rp.s.wrap(err, "certification run")
}

// uuidV7Floor is the smallest UUIDv7 of the millisecond of t.
func uuidV7Floor(t time.Time) uuid.UUID {
	var u uuid.UUID
	ms := uint64(t.UnixMilli())
	for i := 0; i < 6; i++ {
		u[i] = byte(ms >> (40 - 8*i))
	}
	u[6] = 0x70
	return u
}

// Unfinished lists, in id order, one page of at most limit runs of every
// project that are queued or running and were created before before, after
// the run id after: the runs whose workflow may have ended without
// recording it.
func (rp Runs) Unfinished(ctx context.Context, before time.Time, after uuid.UUID, limit int) ([]model.CertificationRun, error) {
	var out []model.CertificationRun
	err := rp.s.idb.NewSelect().Model(&out).
		ExcludeColumn("invoice_payload", "payload").
		Where("status IN (?)", bun.List([]model.RunStatus{model.RunQueued, model.RunRunning})).
		Where("created_at < ?", before).
		Where("id > ?", after).
		OrderExpr("id ASC").Limit(limit).Scan(ctx)
	return out, rp.s.wrap(err, "certification run")
}
