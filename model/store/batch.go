package store

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// Batch queries load the children of many parents in one statement, for
// GraphQL dataloaders. Each applies the same tenant check as its one-parent
// counterpart: rows outside the user's organizations are never returned.
// Paged batches return at most p.Limit+1 rows per parent (ordered by parent,
// then id), so the caller can tell whether each parent has another page.

// memberOrgIDs selects the ids of the user's organizations.
func (s *Store) memberOrgIDs(userID uuid.UUID) *bun.SelectQuery {
	return s.idb.NewSelect().Model((*model.Membership)(nil)).Column("organization_id").Where("user_id = ?", userID)
}

// memberProjectIDs selects the ids of the projects of the user's organizations.
func (s *Store) memberProjectIDs(userID uuid.UUID) *bun.SelectQuery {
	return s.idb.NewSelect().Model((*model.Project)(nil)).Column("id").Where("organization_id IN (?)", s.memberOrgIDs(userID))
}

// OrganizationsForUserByIDs finds several organizations of the user, with
// the user's role; ids of other organizations are left out.
func (s *Store) OrganizationsForUserByIDs(ctx context.Context, userID uuid.UUID, ids []uuid.UUID) ([]model.Organization, error) {
	out := []model.Organization{}
	if len(ids) == 0 {
		return out, nil
	}
	err := s.orgsForUser(userID).Where("o.id IN (?)", bun.In(ids)).OrderExpr("o.id ASC").Scan(ctx, &out)
	return out, s.wrap(err, "organization")
}

// ProjectsForOrganizations lists one page of projects of each of several
// organizations of the user, in one query.
func (s *Store) ProjectsForOrganizations(ctx context.Context, userID uuid.UUID, orgIDs []uuid.UUID, p model.Page) ([]model.Project, error) {
	out := []model.Project{}
	if len(orgIDs) == 0 {
		return out, nil
	}
	inner := s.idb.NewSelect().Model((*model.Project)(nil)).
		ColumnExpr("project.*").
		ColumnExpr("ROW_NUMBER() OVER (PARTITION BY project.organization_id ORDER BY project.id) AS rn").
		Where("project.organization_id IN (?)", bun.In(orgIDs)).
		Where("project.organization_id IN (?)", s.memberOrgIDs(userID))
	if p.After != uuid.Nil {
		inner = inner.Where("project.id > ?", p.After)
	}
	err := s.idb.NewSelect().Model(&out).
		ModelTableExpr("(?) AS project", inner).
		Where("project.rn <= ?", p.Limit+1).
		OrderExpr("project.organization_id ASC, project.id ASC").
		Scan(ctx)
	return out, s.wrap(err, "project")
}

// ProjectIDsForUser returns which of ids are projects of the user's
// organizations.
func (s *Store) ProjectIDsForUser(ctx context.Context, userID uuid.UUID, ids []uuid.UUID) ([]uuid.UUID, error) {
	out := []uuid.UUID{}
	if len(ids) == 0 {
		return out, nil
	}
	err := s.memberProjectIDs(userID).Where("id IN (?)", bun.In(ids)).OrderExpr("id ASC").Scan(ctx, &out)
	return out, s.wrap(err, "project")
}

// KeysForProjectsOfUser lists one page of keys of each of several projects
// of the user's organizations, in one query.
func (s *Store) KeysForProjectsOfUser(ctx context.Context, userID uuid.UUID, projectIDs []uuid.UUID, p model.Page) ([]model.APIKey, error) {
	out := []model.APIKey{}
	if len(projectIDs) == 0 {
		return out, nil
	}
	inner := s.idb.NewSelect().Model((*model.APIKey)(nil)).
		ColumnExpr("api_key.*").
		ColumnExpr("ROW_NUMBER() OVER (PARTITION BY api_key.project_id ORDER BY api_key.id) AS rn").
		Where("api_key.project_id IN (?)", bun.In(projectIDs)).
		Where("api_key.project_id IN (?)", s.memberProjectIDs(userID))
	if p.After != uuid.Nil {
		inner = inner.Where("api_key.id > ?", p.After)
	}
	err := s.idb.NewSelect().Model(&out).
		ModelTableExpr("(?) AS api_key", inner).
		Where("api_key.rn <= ?", p.Limit+1).
		OrderExpr("api_key.project_id ASC, api_key.id ASC").
		Scan(ctx)
	return out, s.wrap(err, "API key")
}

// UsageForProjectsOfUser returns the counters of several projects of the
// user's organizations between two days (inclusive, YYYY-MM-DD), optionally
// of one key, in one query.
func (s *Store) UsageForProjectsOfUser(ctx context.Context, userID uuid.UUID, projectIDs []uuid.UUID, keyID uuid.UUID, from, to string) ([]model.UsageCounter, error) {
	out := []model.UsageCounter{}
	if len(projectIDs) == 0 {
		return out, nil
	}
	q := s.idb.NewSelect().Model(&out).
		Where("project_id IN (?)", bun.In(projectIDs)).
		Where("project_id IN (?)", s.memberProjectIDs(userID)).
		Where("day >= ? AND day <= ?", from, to).
		OrderExpr("project_id ASC, day ASC, operation ASC, key_id ASC")
	if keyID != uuid.Nil {
		q = q.Where("key_id = ?", keyID)
	}
	err := q.Scan(ctx)
	return out, s.wrap(err, "usage")
}

// CertificationRunsForProjectsOfUser lists one page of runs, newest first,
// of each of several projects of the user's organizations, in one query.
func (s *Store) CertificationRunsForProjectsOfUser(ctx context.Context, userID uuid.UUID, projectIDs []uuid.UUID, p model.Page) ([]model.CertificationRun, error) {
	out := []model.CertificationRun{}
	if len(projectIDs) == 0 {
		return out, nil
	}
	inner := s.idb.NewSelect().Model((*model.CertificationRun)(nil)).
		ExcludeColumn("invoice_payload", "payload").
		ColumnExpr("ROW_NUMBER() OVER (PARTITION BY certification_run.project_id ORDER BY certification_run.id DESC) AS rn").
		Where("certification_run.project_id IN (?)", bun.In(projectIDs)).
		Where("certification_run.project_id IN (?)", s.memberProjectIDs(userID))
	if p.After != uuid.Nil {
		inner = inner.Where("certification_run.id < ?", p.After)
	}
	err := s.idb.NewSelect().Model(&out).
		ExcludeColumn("invoice_payload", "payload").
		ModelTableExpr("(?) AS certification_run", inner).
		Where("certification_run.rn <= ?", p.Limit+1).
		OrderExpr("certification_run.project_id ASC, certification_run.id DESC").
		Scan(ctx)
	return out, s.wrap(err, "certification run")
}
