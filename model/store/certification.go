package store

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// CreateCertificationRun inserts a run.
func (s *Store) CreateCertificationRun(ctx context.Context, r *model.CertificationRun) error {
	_, err := s.idb.NewInsert().Model(r).Exec(ctx)
	return s.wrap(err, "certification run")
}

// SetCertificationRunTemporalID records the Temporal run id of a run's
// workflow execution.
func (s *Store) SetCertificationRunTemporalID(ctx context.Context, id uuid.UUID, temporalRunID string) error {
	res, err := s.idb.NewUpdate().Model((*model.CertificationRun)(nil)).
		Set("temporal_run_id = ?", temporalRunID).
		Where("id = ?", id).Exec(ctx)
	return s.affected(res, err, "certification run")
}

// CertificationRunByID finds a run without a tenant check, for callers that
// already hold its id legitimately (the run's own activities).
func (s *Store) CertificationRunByID(ctx context.Context, id uuid.UUID) (*model.CertificationRun, error) {
	r := new(model.CertificationRun)
	err := s.idb.NewSelect().Model(r).Where("id = ?", id).Scan(ctx)
	return r, s.wrap(err, "certification run")
}

// CertificationRunForProject finds a run of one project; a run of any other
// project is not found.
func (s *Store) CertificationRunForProject(ctx context.Context, projectID, id uuid.UUID) (*model.CertificationRun, error) {
	r := new(model.CertificationRun)
	err := s.idb.NewSelect().Model(r).Where("id = ?", id).Where("project_id = ?", projectID).Scan(ctx)
	return r, s.wrap(err, "certification run")
}

// CertificationRunForUser finds a run of a project of the user's
// organizations; any other run is not found.
func (s *Store) CertificationRunForUser(ctx context.Context, userID, id uuid.UUID) (*model.CertificationRun, error) {
	r := new(model.CertificationRun)
	err := s.idb.NewSelect().Model(r).
		Where("id = ?", id).
		Where("project_id IN (?)", s.memberProjectIDs(userID)).
		Scan(ctx)
	return r, s.wrap(err, "certification run")
}

// CertificationRunsForProject lists a project's runs, newest first, one page.
func (s *Store) CertificationRunsForProject(ctx context.Context, projectID uuid.UUID, p model.Page) ([]model.CertificationRun, bool, error) {
	var out []model.CertificationRun
	q := s.idb.NewSelect().Model(&out).
		ExcludeColumn("invoice_payload", "payload").
		Where("project_id = ?", projectID).
		OrderExpr("id DESC").Limit(p.Limit + 1)
	if p.After != uuid.Nil {
		q = q.Where("id < ?", p.After)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, s.wrap(err, "certification run")
	}
	return trim(out, p.Limit)
}

// MarkCertificationRunRunning moves a queued run to running. It is a no-op
// for a run that is already running or over, and not_found for a run that
// does not exist (yet: the row commits just after its workflow starts).
func (s *Store) MarkCertificationRunRunning(ctx context.Context, id uuid.UUID, at time.Time) error {
	return s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
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
		_, err = tx.CertificationRunByID(ctx, id)
		return err
	})
}

// SetCertificationRunPayload records the payload a run sends and its IRN.
func (s *Store) SetCertificationRunPayload(ctx context.Context, id uuid.UUID, payload, irn string) error {
	res, err := s.idb.NewUpdate().Model((*model.CertificationRun)(nil)).
		Set("payload = ?", payload).
		Set("irn = ?", irn).
		Where("id = ?", id).Exec(ctx)
	return s.affected(res, err, "certification run")
}

// FinishCertificationRun ends a run with a final status. The first final
// status wins: finishing a run that is already over changes nothing, so the
// call is safe to repeat. Steps still running or retrying are marked
// failed. It reports whether this call ended the run.
func (s *Store) FinishCertificationRun(ctx context.Context, id uuid.UUID, status model.RunStatus, reason string, at time.Time) (bool, error) {
	ended := false
	err := s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		q := tx.idb.NewUpdate().Model((*model.CertificationRun)(nil)).
			Set("status = ?", status).
			Set("finished_at = ?", at).
			Where("id = ?", id).
			Where("status IN (?)", bun.In([]model.RunStatus{model.RunQueued, model.RunRunning}))
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
			Where("status IN (?)", bun.In([]model.StepStatus{model.StepRunning, model.StepRetrying})).
			Exec(ctx)
		return tx.wrap(err, "certification step")
	})
	return ended, err
}

// CertificationStep finds the evidence of one step of a run.
func (s *Store) CertificationStep(ctx context.Context, runID uuid.UUID, name string) (*model.CertificationStep, error) {
	st := new(model.CertificationStep)
	err := s.idb.NewSelect().Model(st).Where("run_id = ?", runID).Where("name = ?", name).Scan(ctx)
	return st, s.wrap(err, "certification step")
}

// CertificationSteps lists a run's evidence in step order.
func (s *Store) CertificationSteps(ctx context.Context, runID uuid.UUID) ([]model.CertificationStep, error) {
	out := []model.CertificationStep{}
	err := s.idb.NewSelect().Model(&out).Where("run_id = ?", runID).OrderExpr("seq ASC, name ASC").Scan(ctx)
	return out, s.wrap(err, "certification step")
}

// SaveCertificationStep writes the evidence of a step: one row per run and
// step name, so a retried activity rewrites its row instead of adding one.
// A step that already passed keeps its evidence.
func (s *Store) SaveCertificationStep(ctx context.Context, st *model.CertificationStep) error {
	_, err := s.idb.NewInsert().Model(st).
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
	return s.wrap(err, "certification step")
}

// SandboxProjects lists configured sandbox projects of every tenant, in id
// order, one page of at most limit after the id after, for re-registering
// them with the NRS sandbox stand-in.
func (s *Store) SandboxProjects(ctx context.Context, after uuid.UUID, limit int) ([]model.Project, error) {
	var out []model.Project
	err := s.idb.NewSelect().Model(&out).
		Where("environment = ?", model.EnvironmentSandbox).
		Where("configured = ?", true).
		Where("id > ?", after).
		OrderExpr("id ASC").Limit(limit).Scan(ctx)
	return out, s.wrap(err, "project")
}

// affected turns an update that matched no row into not_found.
func (s *Store) affected(res interface{ RowsAffected() (int64, error) }, err error, what string) error {
	if err != nil {
		return s.wrap(err, what)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return model.NotFound(what)
	}
	return nil
}

// CountCertificationRunsByStatus counts every run by status.
func (s *Store) CountCertificationRunsByStatus(ctx context.Context) (map[model.RunStatus]int64, error) {
	var rows []struct {
		Status model.RunStatus `bun:"status"`
		Count  int64           `bun:"count"`
	}
	err := s.idb.NewSelect().Model((*model.CertificationRun)(nil)).
		ColumnExpr("status, COUNT(*) AS count").GroupExpr("status").Scan(ctx, &rows)
	if err != nil {
		return nil, s.wrap(err, "certification run")
	}
	out := make(map[model.RunStatus]int64, len(rows))
	for _, r := range rows {
		out[r.Status] = r.Count
	}
	return out, nil
}

// CountActiveCertificationRuns counts a project's runs that are queued or
// running and were created after since (older ones have outlived any
// workflow and only wait to be settled). Run ids are UUIDv7, so the
// project's index bounds the scan to runs created after since.
func (s *Store) CountActiveCertificationRuns(ctx context.Context, projectID uuid.UUID, since time.Time) (int, error) {
	n, err := s.idb.NewSelect().Model((*model.CertificationRun)(nil)).
		Where("project_id = ? AND id >= ?", projectID, uuidV7Floor(since)).
		Where("created_at >= ?", since).
		Where("status IN (?)", bun.In([]model.RunStatus{model.RunQueued, model.RunRunning})).
		Count(ctx)
	return n, s.wrap(err, "certification run")
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
