package store

import (
	"context"

	"github.com/einvoice-ng/einvoice/model"
)

// CodeLists is the repository of tax authorities' code lists as fetched, per
// authority and environment.
type CodeLists struct{ s *Store }

// CodeLists returns the repository of codelists, in s's connection or
// transaction.
func (s *Store) CodeLists() CodeLists { return CodeLists{s} }

// Save stores code lists, each replacing the stored list of the
// same authority, environment and name.
func (rp CodeLists) Save(ctx context.Context, lists []model.AuthorityCodeList) error {
	if len(lists) == 0 {
		return nil
	}
	_, err := rp.s.idb.NewInsert().Model(&lists).
		On("CONFLICT (tax_authority_code, environment, name) DO UPDATE").
		Set("data = EXCLUDED.data").
		Set("sha256 = EXCLUDED.sha256").
		Set("entries = EXCLUDED.entries").
		Set("fetched_at = EXCLUDED.fetched_at").
		Exec(ctx)
	return rp.s.wrap(err, "code list")
}

// Versions lists every stored code list without its data: enough
// to tell whether another process refreshed one.
func (rp CodeLists) Versions(ctx context.Context) ([]model.AuthorityCodeList, error) {
	var out []model.AuthorityCodeList
	err := rp.s.idb.NewSelect().Model(&out).
		Column("tax_authority_code", "environment", "name", "sha256", "entries", "fetched_at").
		OrderExpr("tax_authority_code, environment, name").
		Scan(ctx)
	return out, rp.s.wrap(err, "code list")
}

// List returns the stored code lists of an authority in an
// environment, with their data.
func (rp CodeLists) List(ctx context.Context, authority string, env model.Environment) ([]model.AuthorityCodeList, error) {
	var out []model.AuthorityCodeList
	err := rp.s.idb.NewSelect().Model(&out).
		Where("tax_authority_code = ?", authority).
		Where("environment = ?", env).
		OrderExpr("name").
		Scan(ctx)
	return out, rp.s.wrap(err, "code list")
}
