package store

import (
	"context"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// CreateProject inserts a project.
func (s *Store) CreateProject(ctx context.Context, p *model.Project) error {
	if err := refuseNUL("name", p.Name); err != nil {
		return err
	}
	_, err := s.idb.NewInsert().Model(p).Exec(ctx)
	return s.wrap(err, "project")
}

// ProjectsForUser lists projects of the user's organizations, optionally of
// one organization only.
func (s *Store) ProjectsForUser(ctx context.Context, userID uuid.UUID, orgID uuid.UUID, p model.Page) ([]model.Project, bool, error) {
	var out []model.Project
	q := s.idb.NewSelect().Model(&out).
		Where("organization_id IN (?)", s.idb.NewSelect().Model((*model.Membership)(nil)).Column("organization_id").Where("user_id = ?", userID)).
		OrderExpr("id ASC").Limit(p.Limit + 1)
	if orgID != uuid.Nil {
		q = q.Where("organization_id = ?", orgID)
	}
	if p.After != uuid.Nil {
		q = q.Where("id > ?", p.After)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, s.wrap(err, "project")
	}
	return trim(out, p.Limit)
}

// ProjectForUser finds a project in one of the user's organizations; any
// other project is not found.
func (s *Store) ProjectForUser(ctx context.Context, projectID, userID uuid.UUID) (*model.Project, error) {
	p := new(model.Project)
	err := s.idb.NewSelect().Model(p).
		Where("id = ?", projectID).
		Where("organization_id IN (?)", s.idb.NewSelect().Model((*model.Membership)(nil)).Column("organization_id").Where("user_id = ?", userID)).
		Scan(ctx)
	return p, s.wrap(err, "project")
}

// ProjectByID finds a project without a tenant check, for callers that
// already authorized (an API key's own project).
func (s *Store) ProjectByID(ctx context.Context, id uuid.UUID) (*model.Project, error) {
	p := new(model.Project)
	err := s.idb.NewSelect().Model(p).Where("id = ?", id).Scan(ctx)
	return p, s.wrap(err, "project")
}

// UpdateProjectAuthority saves a project's authority settings.
func (s *Store) UpdateProjectAuthority(ctx context.Context, p *model.Project) error {
	res, err := s.idb.NewUpdate().Model(p).
		Column("updated_at", "tax_authority_code", "business_id", "service_id", "public_key",
			"certificate_enc", "private_key_enc", "api_key_enc", "api_secret_enc", "base_url",
			"qr_encryption", "configured").
		WherePK().Exec(ctx)
	if err != nil {
		return s.wrap(err, "project")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return model.NotFound("project")
	}
	return nil
}
