package sandboxdb

import (
	"context"
	"strings"
)

// BusinessByAPIKey returns the business presenting an API key.
func (d *DB) BusinessByAPIKey(ctx context.Context, key string) (*Business, error) {
	return d.businessWhere(ctx, "api_key = ?", key)
}

// BusinessByID returns a business by its business id.
func (d *DB) BusinessByID(ctx context.Context, id string) (*Business, error) {
	return d.businessWhere(ctx, "business_id = ?", strings.ToLower(id))
}

// BusinessByEntityID returns the business of an entity (one per entity).
func (d *DB) BusinessByEntityID(ctx context.Context, id string) (*Business, error) {
	return d.businessWhere(ctx, "entity_id = ?", strings.ToLower(id))
}

// BusinessByOwner returns the business an owner registered.
func (d *DB) BusinessByOwner(ctx context.Context, owner string) (*Business, error) {
	return d.businessWhere(ctx, "owner = ?", owner)
}

// BusinessByTIN returns the business with a TIN.
func (d *DB) BusinessByTIN(ctx context.Context, tin string) (*Business, error) {
	return d.businessWhere(ctx, "tin = ?", tin)
}

// BusinessByEmail returns the business whose taxpayer logs in with email.
func (d *DB) BusinessByEmail(ctx context.Context, email string) (*Business, error) {
	return d.businessWhere(ctx, "lower(email) = ?", strings.ToLower(email))
}

func (d *DB) businessWhere(ctx context.Context, where string, arg any) (*Business, error) {
	b := new(Business)
	err := d.idb.NewSelect().Model(b).Where(where, arg).Limit(1).Scan(ctx)
	if err != nil {
		return nil, mapErr(err)
	}
	return b, nil
}

// CountBusinesses returns how many businesses are registered.
func (d *DB) CountBusinesses(ctx context.Context) (int, error) {
	n, err := d.idb.NewSelect().Model((*Business)(nil)).Count(ctx)
	return n, mapErr(err)
}

// Businesses lists registered businesses by business id, after the given id
// ("" for the first page).
func (d *DB) Businesses(ctx context.Context, after string, limit int) ([]Business, error) {
	var out []Business
	q := d.idb.NewSelect().Model(&out).OrderExpr("business_id ASC").Limit(limit)
	if after != "" {
		q = q.Where("business_id > ?", strings.ToLower(after))
	}
	if err := q.Scan(ctx); err != nil {
		return nil, mapErr(err)
	}
	return out, nil
}

// InsertBusiness adds a business; a taken business id, owner, entity id,
// TIN or API key is ErrConflict.
func (d *DB) InsertBusiness(ctx context.Context, b *Business) error {
	_, err := d.idb.NewInsert().Model(b).Exec(ctx)
	return mapErr(err)
}

// UpdateBusiness rewrites a business's registration (not its owner, entity
// or creation time).
func (d *DB) UpdateBusiness(ctx context.Context, b *Business) error {
	_, err := d.idb.NewUpdate().Model(b).
		Column("service_id", "tin", "name", "email", "certificate", "public_key", "private_key", "qr_encryption",
			"api_key", "api_secret_hash", "password_hash", "updated_at").
		WherePK().Exec(ctx)
	return mapErr(err)
}

// DeleteBusiness forgets a business with its parties, invoices and
// counters.
func (d *DB) DeleteBusiness(ctx context.Context, id string) error {
	id = strings.ToLower(id)
	return d.RunInTx(ctx, func(ctx context.Context, tx *DB) error {
		// Children first: the cascade is declared too, but SQLite applies it
		// only with foreign keys on, which a shared file may not have.
		for _, m := range []any{(*attempt)(nil), (*Invoice)(nil), (*Party)(nil), (*Business)(nil)} {
			if _, err := tx.idb.NewDelete().Model(m).Where("business_id = ?", id).Exec(ctx); err != nil {
				return mapErr(err)
			}
		}
		return nil
	})
}
