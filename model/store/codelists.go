package store

import (
	"context"

	"github.com/einvoice-ng/einvoice/model"
)

// SaveCodeLists stores code lists, each replacing the stored list of the
// same authority, environment and name.
func (s *Store) SaveCodeLists(ctx context.Context, lists []model.AuthorityCodeList) error {
	if len(lists) == 0 {
		return nil
	}
	_, err := s.idb.NewInsert().Model(&lists).
		On("CONFLICT (tax_authority_code, environment, name) DO UPDATE").
		Set("data = EXCLUDED.data").
		Set("sha256 = EXCLUDED.sha256").
		Set("entries = EXCLUDED.entries").
		Set("fetched_at = EXCLUDED.fetched_at").
		Exec(ctx)
	return s.wrap(err, "code list")
}

// CodeListVersions lists every stored code list without its data: enough
// to tell whether another process refreshed one.
func (s *Store) CodeListVersions(ctx context.Context) ([]model.AuthorityCodeList, error) {
	var out []model.AuthorityCodeList
	err := s.idb.NewSelect().Model(&out).
		Column("tax_authority_code", "environment", "name", "sha256", "entries", "fetched_at").
		OrderExpr("tax_authority_code, environment, name").
		Scan(ctx)
	return out, s.wrap(err, "code list")
}

// CodeLists returns the stored code lists of an authority in an
// environment, with their data.
func (s *Store) CodeLists(ctx context.Context, authority string, env model.Environment) ([]model.AuthorityCodeList, error) {
	var out []model.AuthorityCodeList
	err := s.idb.NewSelect().Model(&out).
		Where("tax_authority_code = ?", authority).
		Where("environment = ?", env).
		OrderExpr("name").
		Scan(ctx)
	return out, s.wrap(err, "code list")
}

// UpdateProjectValidationProfile saves a project's validation profile.
func (s *Store) UpdateProjectValidationProfile(ctx context.Context, p *model.Project) error {
	res, err := s.idb.NewUpdate().Model(p).Column("updated_at", "validation_profile").WherePK().Exec(ctx)
	if err != nil {
		return s.wrap(err, "project")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return model.NotFound("project")
	}
	return nil
}
