package store

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// Projects is the repository of projects and their tax authority settings.
type Projects struct{ s *Store }

// Projects returns the repository of projects, in s's connection or
// transaction.
func (s *Store) Projects() Projects { return Projects{s} }

// ListForOrganizations lists one page of projects of each of several
// organizations of the user, in one query.
func (rp Projects) ListForOrganizations(ctx context.Context, userID uuid.UUID, orgIDs []uuid.UUID, p model.Page) ([]model.Project, error) {
	out := []model.Project{}
	if len(orgIDs) == 0 {
		return out, nil
	}
	inner := rp.s.idb.NewSelect().Model((*model.Project)(nil)).
		ColumnExpr("project.*").
		ColumnExpr("ROW_NUMBER() OVER (PARTITION BY project.organization_id ORDER BY project.id) AS rn").
		Where("project.organization_id IN (?)", bun.List(orgIDs)).
		Where("project.organization_id IN (?)", rp.s.memberOrgIDs(userID))
	if p.After != uuid.Nil {
		inner = inner.Where("project.id > ?", p.After)
	}
	err := rp.s.idb.NewSelect().Model(&out).
		ModelTableExpr("(?) AS project", inner).
		Where("project.rn <= ?", p.Limit+1).
		OrderExpr("project.organization_id ASC, project.id ASC").
		Scan(ctx)
	return out, rp.s.wrap(err, "project")
}

// IDs returns which of ids are projects of the user's
// organizations.
func (rp Projects) IDs(ctx context.Context, userID uuid.UUID, ids []uuid.UUID) ([]uuid.UUID, error) {
	out := []uuid.UUID{}
	if len(ids) == 0 {
		return out, nil
	}
	err := rp.s.memberProjectIDs(userID).Where("id IN (?)", bun.List(ids)).OrderExpr("id ASC").Scan(ctx, &out)
	return out, rp.s.wrap(err, "project")
}

// Sandbox lists configured sandbox projects of every tenant, in id
// order, one page of at most limit after the id after, for re-registering
// them with the NRS sandbox stand-in.
func (rp Projects) Sandbox(ctx context.Context, after uuid.UUID, limit int) ([]model.Project, error) {
	var out []model.Project
	err := rp.s.idb.NewSelect().Model(&out).
		Where("environment = ?", model.EnvironmentSandbox).
		Where("configured = ?", true).
		Where("id > ?", after).
		OrderExpr("id ASC").Limit(limit).Scan(ctx)
	return out, rp.s.wrap(err, "project")
}

// Configured lists configured projects of every tenant with a business at
// their authority, in id order, one page of at most limit after the id
// after, for the inbox's scheduled pulls.
func (rp Projects) Configured(ctx context.Context, after uuid.UUID, limit int) ([]model.Project, error) {
	var out []model.Project
	err := rp.s.idb.NewSelect().Model(&out).
		Where("configured = ?", true).
		Where("business_id IS NOT NULL AND business_id <> ''").
		Where("id > ?", after).
		OrderExpr("id ASC").Limit(limit).Scan(ctx)
	return out, rp.s.wrap(err, "project")
}

// QueueRate reads a project's queue_rate_per_minute alone (nil: the
// operator's default).
func (rp Projects) QueueRate(ctx context.Context, id uuid.UUID) (*int, error) {
	var rate *int
	err := rp.s.idb.NewSelect().Model((*model.Project)(nil)).Column("queue_rate_per_minute").
		Where("id = ?", id).Scan(ctx, &rate)
	return rate, rp.s.wrap(err, "project")
}

// UpdateSettings saves a project's settings: its validation profile and
// clearance deadline, queue rate and post-payment report setting.
func (rp Projects) UpdateSettings(ctx context.Context, p *model.Project) error {
	res, err := rp.s.idb.NewUpdate().Model(p).Column("updated_at", "validation_profile", "clearance_deadline_minutes", "queue_rate_per_minute", "post_payment_report").WherePK().Exec(ctx)
	if err != nil {
		return rp.s.wrap(err, "project")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return model.NotFound("project")
	}
	return nil
}

// Create inserts a project.
func (rp Projects) Create(ctx context.Context, p *model.Project) error {
	if err := refuseNUL("name", p.Name); err != nil {
		return err
	}
	_, err := rp.s.idb.NewInsert().Model(p).Exec(ctx)
	return rp.s.wrap(err, "project")
}

// List lists projects of the user's organizations, optionally of
// one organization only.
func (rp Projects) List(ctx context.Context, userID uuid.UUID, orgID uuid.UUID, p model.Page) ([]model.Project, bool, error) {
	var out []model.Project
	q := rp.s.idb.NewSelect().Model(&out).
		Where("organization_id IN (?)", rp.s.idb.NewSelect().Model((*model.Membership)(nil)).Column("organization_id").Where("user_id = ?", userID)).
		OrderExpr("id ASC").Limit(p.Limit + 1)
	if orgID != uuid.Nil {
		q = q.Where("organization_id = ?", orgID)
	}
	if p.After != uuid.Nil {
		q = q.Where("id > ?", p.After)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, rp.s.wrap(err, "project")
	}
	return trim(out, p.Limit)
}

// Get finds a project in one of the user's organizations; any
// other project is not found.
func (rp Projects) Get(ctx context.Context, projectID, userID uuid.UUID) (*model.Project, error) {
	p := new(model.Project)
	err := rp.s.idb.NewSelect().Model(p).
		Where("id = ?", projectID).
		Where("organization_id IN (?)", rp.s.idb.NewSelect().Model((*model.Membership)(nil)).Column("organization_id").Where("user_id = ?", userID)).
		Scan(ctx)
	return p, rp.s.wrap(err, "project")
}

// ByID finds a project without a tenant check, for callers that
// already authorized (an API key's own project).
func (rp Projects) ByID(ctx context.Context, id uuid.UUID) (*model.Project, error) {
	p := new(model.Project)
	err := rp.s.stmts.projectByID.ScanOne(ctx, rp.s.conn(), p, id)
	return p, rp.s.wrap(err, "project")
}

// UpdateAuthority saves a project's authority settings.
func (rp Projects) UpdateAuthority(ctx context.Context, p *model.Project) error {
	res, err := rp.s.idb.NewUpdate().Model(p).
		Column("updated_at", "tax_authority_code", "business_id", "service_id", "public_key",
			"certificate_enc", "private_key_enc", "api_key_enc", "api_secret_enc", "base_url",
			"qr_encryption", "configured").
		WherePK().Exec(ctx)
	if err != nil {
		return rp.s.wrap(err, "project")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return model.NotFound("project")
	}
	return nil
}

// Lock serializes quota checks on a project's keys and runs.
func (rp Projects) Lock(ctx context.Context, id uuid.UUID) error {
	return rp.s.lockRow(ctx, "projects", id)
}

// Count counts an organization's projects.
func (rp Projects) Count(ctx context.Context, orgID uuid.UUID) (int, error) {
	n, err := rp.s.idb.NewSelect().Model((*model.Project)(nil)).Where("organization_id = ?", orgID).Count(ctx)
	return n, rp.s.wrap(err, "project")
}
