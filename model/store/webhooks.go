package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/migrations"
	"github.com/einvoice-ng/einvoice/model"
)

// Webhooks is the repository of webhook endpoints, their deliveries and
// the attempts of each delivery.
type Webhooks struct{ s *Store }

// Webhooks returns the repository of webhooks, in s's connection or
// transaction.
func (s *Store) Webhooks() Webhooks { return Webhooks{s} }

// CreateEndpoint inserts an endpoint.
func (rp Webhooks) CreateEndpoint(ctx context.Context, e *model.WebhookEndpoint) error {
	if err := refuseNUL("url", e.URL, "description", e.Description); err != nil {
		return err
	}
	_, err := rp.s.idb.NewInsert().Model(e).Exec(ctx)
	return rp.s.wrap(err, "webhook endpoint")
}

// Endpoint finds a project's endpoint that is not deleted.
func (rp Webhooks) Endpoint(ctx context.Context, projectID, id uuid.UUID) (*model.WebhookEndpoint, error) {
	e := new(model.WebhookEndpoint)
	err := rp.s.idb.NewSelect().Model(e).Where("id = ? AND project_id = ? AND deleted_at IS NULL", id, projectID).Scan(ctx)
	return e, rp.s.wrap(err, "webhook endpoint")
}

// EndpointByID finds an endpoint, deleted or not, without a tenant check,
// for the delivery workflows that hold its id.
func (rp Webhooks) EndpointByID(ctx context.Context, id uuid.UUID) (*model.WebhookEndpoint, error) {
	e := new(model.WebhookEndpoint)
	err := rp.s.stmts.endpointByID.ScanOne(ctx, rp.s.conn(), e, id)
	return e, rp.s.wrap(err, "webhook endpoint")
}

// ListEndpoints lists a project's endpoints (not deleted), one page.
func (rp Webhooks) ListEndpoints(ctx context.Context, projectID uuid.UUID, p model.Page) ([]model.WebhookEndpoint, bool, error) {
	var out []model.WebhookEndpoint
	q := rp.s.idb.NewSelect().Model(&out).Where("project_id = ? AND deleted_at IS NULL", projectID).OrderExpr("id ASC").Limit(p.Limit + 1)
	if p.After != uuid.Nil {
		q = q.Where("id > ?", p.After)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, rp.s.wrap(err, "webhook endpoint")
	}
	return trim(out, p.Limit)
}

// EnabledEndpoints lists every enabled endpoint of a project, for
// dispatching its events (a project holds few: see the quota).
func (rp Webhooks) EnabledEndpoints(ctx context.Context, projectID uuid.UUID) ([]model.WebhookEndpoint, error) {
	var out []model.WebhookEndpoint
	err := rp.s.idb.NewSelect().Model(&out).
		Where("project_id = ? AND deleted_at IS NULL AND enabled = ?", projectID, true).OrderExpr("id ASC").Scan(ctx)
	return out, rp.s.wrap(err, "webhook endpoint")
}

// CountEndpoints counts a project's endpoints that are not deleted.
func (rp Webhooks) CountEndpoints(ctx context.Context, projectID uuid.UUID) (int, error) {
	n, err := rp.s.idb.NewSelect().Model((*model.WebhookEndpoint)(nil)).
		Where("project_id = ? AND deleted_at IS NULL", projectID).Count(ctx)
	return n, rp.s.wrap(err, "webhook endpoint")
}

// UpdateEndpoint writes the named columns of an endpoint (and updated_at).
func (rp Webhooks) UpdateEndpoint(ctx context.Context, e *model.WebhookEndpoint, columns ...string) error {
	if err := refuseNUL("url", e.URL, "description", e.Description); err != nil {
		return err
	}
	res, err := rp.s.idb.NewUpdate().Model(e).Column(append(columns, "updated_at")...).WherePK().Exec(ctx)
	return rp.s.affected(res, err, "webhook endpoint")
}

// CreateDelivery inserts a delivery; one that exists already (the same
// id, derived from its event and endpoint) is left as it is. It reports
// whether the row is new.
func (rp Webhooks) CreateDelivery(ctx context.Context, d *model.WebhookDelivery) (bool, error) {
	res, err := rp.s.idb.NewInsert().Model(d).On("CONFLICT (id) DO NOTHING").Exec(ctx)
	if err != nil {
		return false, rp.s.wrap(err, "webhook delivery")
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// CreateDeliveries inserts deliveries in one statement; those that exist
// already (the same id) are left as they are. It returns the ids of the
// rows that are new.
func (rp Webhooks) CreateDeliveries(ctx context.Context, ds []model.WebhookDelivery) (map[uuid.UUID]bool, error) {
	created := map[uuid.UUID]bool{}
	if len(ds) == 0 {
		return created, nil
	}
	var ids []uuid.UUID
	err := rp.s.idb.NewInsert().Model(&ds).On("CONFLICT (id) DO NOTHING").Returning("id").Scan(ctx, &ids)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, rp.s.wrap(err, "webhook delivery")
	}
	for _, id := range ids {
		created[id] = true
	}
	return created, nil
}

// Delivery finds a delivery without a tenant check, for its workflow.
func (rp Webhooks) Delivery(ctx context.Context, id uuid.UUID) (*model.WebhookDelivery, error) {
	d := new(model.WebhookDelivery)
	err := rp.s.stmts.deliveryByID.ScanOne(ctx, rp.s.conn(), d, id)
	return d, rp.s.wrap(err, "webhook delivery")
}

// FinishDelivery records a delivery's outcome; a delivery that is over
// already keeps its first.
func (rp Webhooks) FinishDelivery(ctx context.Context, id uuid.UUID, status string, at time.Time) error {
	_, err := rp.s.idb.NewUpdate().Model((*model.WebhookDelivery)(nil)).
		Set("status = ?", status).Set("finished_at = ?", at).
		Where("id = ? AND status = ?", id, model.DeliveryPending).Exec(ctx)
	return rp.s.wrap(err, "webhook delivery")
}

// AddAttempt records an attempt and counts it on its delivery.
func (rp Webhooks) AddAttempt(ctx context.Context, a *model.WebhookAttempt) error {
	if _, err := rp.s.idb.NewInsert().Model(a).Exec(ctx); err != nil {
		return rp.s.wrap(err, "webhook attempt")
	}
	_, err := rp.s.idb.NewUpdate().Model((*model.WebhookDelivery)(nil)).
		Set("attempts = attempts + 1").Where("id = ?", a.DeliveryID).Exec(ctx)
	return rp.s.wrap(err, "webhook delivery")
}

// AddSuccess records a successful attempt and, all at once, counts it on
// its delivery, ends the delivery succeeded (a delivery over already keeps
// its first outcome) and records it started at at, for a delivery that
// needs no workflow. On PostgreSQL it is one statement (the attempt's
// insert inside a WITH), which needs no transaction; on SQLite two, in
// the caller's transaction or one of their own.
func (rp Webhooks) AddSuccess(ctx context.Context, a *model.WebhookAttempt, at time.Time) error {
	finish := func(q *bun.UpdateQuery) *bun.UpdateQuery {
		return q.Model((*model.WebhookDelivery)(nil)).
			Set("attempts = attempts + 1").
			Set("status = CASE WHEN status = ? THEN ? ELSE status END", model.DeliveryPending, model.DeliverySucceeded).
			Set("finished_at = CASE WHEN status = ? THEN ? ELSE finished_at END", model.DeliveryPending, at).
			Set("started_at = COALESCE(started_at, ?)", at).
			Where("id = ?", a.DeliveryID)
	}
	if rp.s.dialect == migrations.Postgres {
		_, err := finish(rp.s.idb.NewUpdate().With("attempt", rp.s.idb.NewInsert().Model(a))).Exec(ctx)
		if failedTable(err) == "webhook_attempts" {
			return rp.s.wrap(err, "webhook attempt")
		}
		return rp.s.wrap(err, "webhook delivery")
	}
	return rp.s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		if _, err := tx.idb.NewInsert().Model(a).Exec(ctx); err != nil {
			return tx.wrap(err, "webhook attempt")
		}
		_, err := finish(tx.idb.NewUpdate()).Exec(ctx)
		return tx.wrap(err, "webhook delivery")
	})
}

// Attempts lists the attempts of an endpoint's deliveries, newest first,
// one page; eventID, when set, keeps those of one event.
func (rp Webhooks) Attempts(ctx context.Context, endpointID, eventID uuid.UUID, p model.Page) ([]model.WebhookAttempt, bool, error) {
	var out []model.WebhookAttempt
	q := rp.s.idb.NewSelect().Model(&out).Where("endpoint_id = ?", endpointID).OrderExpr("id DESC").Limit(p.Limit + 1)
	if eventID != uuid.Nil {
		q = q.Where("event_id = ?", eventID)
	}
	if p.After != uuid.Nil {
		q = q.Where("id < ?", p.After)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, rp.s.wrap(err, "webhook attempt")
	}
	return trim(out, p.Limit)
}

// SetFailing records since when an endpoint fails (nil: it answered).
func (rp Webhooks) SetFailing(ctx context.Context, id uuid.UUID, since *time.Time) error {
	q := rp.s.idb.NewUpdate().Model((*model.WebhookEndpoint)(nil)).Where("id = ?", id)
	if since == nil {
		q = q.Set("failing_since = NULL").Where("failing_since IS NOT NULL")
	} else {
		q = q.Set("failing_since = ?", *since).Where("failing_since IS NULL")
	}
	_, err := q.Exec(ctx)
	return rp.s.wrap(err, "webhook endpoint")
}

// Disable disables an enabled endpoint; it reports whether it did (false:
// disabled or deleted already).
func (rp Webhooks) Disable(ctx context.Context, id uuid.UUID, reason string, at time.Time) (bool, error) {
	res, err := rp.s.idb.NewUpdate().Model((*model.WebhookEndpoint)(nil)).
		Set("enabled = ?", false).Set("disabled_reason = ?", reason).Set("updated_at = ?", at).
		Where("id = ? AND enabled = ? AND deleted_at IS NULL", id, true).Exec(ctx)
	if err != nil {
		return false, rp.s.wrap(err, "webhook endpoint")
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// MarkStarted records that a delivery's workflow is started.
func (rp Webhooks) MarkStarted(ctx context.Context, id uuid.UUID, at time.Time) error {
	_, err := rp.s.idb.NewUpdate().Model((*model.WebhookDelivery)(nil)).Set("started_at = ?", at).
		Where("id = ? AND started_at IS NULL", id).Exec(ctx)
	return rp.s.wrap(err, "webhook delivery")
}

// Claim takes on a pending delivery's first attempt: it reports whether
// the delivery was free (no workflow started, no claim since
// expiredBefore) and is now claimed at at.
func (rp Webhooks) Claim(ctx context.Context, id uuid.UUID, at, expiredBefore time.Time) (bool, error) {
	res, err := rp.s.idb.NewUpdate().Model((*model.WebhookDelivery)(nil)).Set("claimed_at = ?", at).
		Where("id = ? AND started_at IS NULL AND status = ?", id, model.DeliveryPending).
		Where("(claimed_at IS NULL OR claimed_at < ?)", expiredBefore).Exec(ctx)
	if err != nil {
		return false, rp.s.wrap(err, "webhook delivery")
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// Unstarted lists pending deliveries created before before whose workflow
// was never recorded started and that no dispatcher claimed since
// claimedBefore, oldest first, at most limit.
func (rp Webhooks) Unstarted(ctx context.Context, before, claimedBefore time.Time, limit int) ([]model.WebhookDelivery, error) {
	var out []model.WebhookDelivery
	err := rp.s.idb.NewSelect().Model(&out).
		Where("started_at IS NULL AND status = ? AND created_at < ?", model.DeliveryPending, before).
		Where("(claimed_at IS NULL OR claimed_at < ?)", claimedBefore).
		OrderExpr("created_at ASC").Limit(limit).Scan(ctx)
	return out, rp.s.wrap(err, "webhook delivery")
}
