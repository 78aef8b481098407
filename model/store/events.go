package store

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// Events is the repository of events: the record of every state change,
// and the outbox the webhook dispatcher drains.
type Events struct{ s *Store }

// Events returns the repository of events, in s's connection or
// transaction.
func (s *Store) Events() Events { return Events{s} }

// Append inserts an event.
func (rp Events) Append(ctx context.Context, e *model.Event) error {
	args := []any{e.ID, e.ProjectID, e.OrganizationID, textArg(e.Type), textArg(string(e.Data)),
		rp.s.timeArg(e.CreatedAt), rp.s.nullTimeArg(e.DispatchedAt)}
	if p := rp.s.pending; p != nil {
		p.events = append(p.events, args)
		return nil
	}
	_, err := rp.s.stmts.event.Exec(ctx, rp.s.conn(), args...)
	return rp.s.wrap(err, "event")
}

// buildEventInsert is Append's statement; its arguments in the order of
// its columns.
func buildEventInsert(_ *bun.DB, _ string, ph func(int) string) string {
	return eventsInsert(ph, 1)
}

// eventsInsert inserts rows events.
func eventsInsert(ph func(int) string, rows int) string {
	return `INSERT INTO events (id, project_id, organization_id, type, data, created_at, dispatched_at) VALUES ` + valuesOf(ph, rows, 7)
}

// EventFilter narrows a listing of events.
type EventFilter struct {
	// Types, when not empty, are the only types listed.
	Types []string
	// From and Until, when set, bound created_at: From <= created_at < Until.
	From, Until *time.Time
}

// List lists a project's events, newest first, one page.
func (rp Events) List(ctx context.Context, projectID uuid.UUID, f EventFilter, p model.Page) ([]model.Event, bool, error) {
	var out []model.Event
	q := rp.s.idb.NewSelect().Model(&out).Where("project_id = ?", projectID).OrderExpr("id DESC").Limit(p.Limit + 1)
	if len(f.Types) > 0 {
		q = q.Where("type IN (?)", bun.List(f.Types))
	}
	if f.From != nil {
		q = q.Where("created_at >= ?", *f.From)
	}
	if f.Until != nil {
		q = q.Where("created_at < ?", *f.Until)
	}
	if p.After != uuid.Nil {
		q = q.Where("id < ?", p.After)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, rp.s.wrap(err, "event")
	}
	return trim(out, p.Limit)
}

// Get finds an event of a project.
func (rp Events) Get(ctx context.Context, projectID, id uuid.UUID) (*model.Event, error) {
	e := new(model.Event)
	err := rp.s.idb.NewSelect().Model(e).Where("id = ? AND project_id = ?", id, projectID).Scan(ctx)
	return e, rp.s.wrap(err, "event")
}

// ByID finds an event without a tenant check, for the delivery workflows
// that hold its id.
func (rp Events) ByID(ctx context.Context, id uuid.UUID) (*model.Event, error) {
	e := new(model.Event)
	err := rp.s.stmts.eventByID.ScanOne(ctx, rp.s.conn(), e, id)
	return e, rp.s.wrap(err, "event")
}

// Undispatched lists the oldest events not dispatched yet, at most limit.
func (rp Events) Undispatched(ctx context.Context, limit int) ([]model.Event, error) {
	var out []model.Event
	err := rp.s.idb.NewSelect().Model(&out).Where("dispatched_at IS NULL").OrderExpr("id ASC").Limit(limit).Scan(ctx)
	return out, rp.s.wrap(err, "event")
}

// ClaimUndispatched is Undispatched for a dispatcher's transaction that
// marks them dispatched before it commits: on PostgreSQL the events are
// locked, and events another dispatcher's transaction holds are skipped,
// so that dispatchers running at once take different events (SQLite
// writes one transaction at a time).
func (rp Events) ClaimUndispatched(ctx context.Context, limit int) ([]model.Event, error) {
	var out []model.Event
	q := rp.s.idb.NewSelect().Model(&out).Where("dispatched_at IS NULL").OrderExpr("id ASC").Limit(limit)
	if rp.s.dialect == "postgres" {
		q = q.For("UPDATE SKIP LOCKED")
	}
	err := q.Scan(ctx)
	return out, rp.s.wrap(err, "event")
}

// MarkAllDispatched marks events dispatched, in one statement.
func (rp Events) MarkAllDispatched(ctx context.Context, ids []uuid.UUID, at time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := rp.s.idb.NewUpdate().Model((*model.Event)(nil)).Set("dispatched_at = ?", at).
		Where("id IN (?)", bun.List(ids)).Where("dispatched_at IS NULL").Exec(ctx)
	return rp.s.wrap(err, "event")
}

// MarkDispatched marks an event dispatched.
func (rp Events) MarkDispatched(ctx context.Context, id uuid.UUID, at time.Time) error {
	_, err := rp.s.idb.NewUpdate().Model((*model.Event)(nil)).Set("dispatched_at = ?", at).
		Where("id = ?", id).Where("dispatched_at IS NULL").Exec(ctx)
	return rp.s.wrap(err, "event")
}
