package store

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// Keys is the repository of API keys: their hashed secrets, scopes, state
// and last use.
type Keys struct{ s *Store }

// Keys returns the repository of keys, in s's connection or transaction.
func (s *Store) Keys() Keys { return Keys{s} }

// ListForProjects lists one page of keys of each of several projects
// of the user's organizations, in one query.
func (rp Keys) ListForProjects(ctx context.Context, userID uuid.UUID, projectIDs []uuid.UUID, p model.Page) ([]model.APIKey, error) {
	out := []model.APIKey{}
	if len(projectIDs) == 0 {
		return out, nil
	}
	inner := rp.s.idb.NewSelect().Model((*model.APIKey)(nil)).
		ColumnExpr("api_key.*").
		ColumnExpr("ROW_NUMBER() OVER (PARTITION BY api_key.project_id ORDER BY api_key.id) AS rn").
		Where("api_key.project_id IN (?)", bun.List(projectIDs)).
		Where("api_key.project_id IN (?)", rp.s.memberProjectIDs(userID))
	if p.After != uuid.Nil {
		inner = inner.Where("api_key.id > ?", p.After)
	}
	err := rp.s.idb.NewSelect().Model(&out).
		ModelTableExpr("(?) AS api_key", inner).
		Where("api_key.rn <= ?", p.Limit+1).
		OrderExpr("api_key.project_id ASC, api_key.id ASC").
		Scan(ctx)
	return out, rp.s.wrap(err, "API key")
}

// Create inserts an API key.
func (rp Keys) Create(ctx context.Context, k *model.APIKey) error {
	if err := refuseNUL("key_name", k.KeyName); err != nil {
		return err
	}
	_, err := rp.s.idb.NewInsert().Model(k).Exec(ctx)
	return rp.s.wrap(err, "API key")
}

// List lists a project's keys, one page.
func (rp Keys) List(ctx context.Context, projectID uuid.UUID, p model.Page) ([]model.APIKey, bool, error) {
	var out []model.APIKey
	q := rp.s.idb.NewSelect().Model(&out).Where("project_id = ?", projectID).OrderExpr("id ASC").Limit(p.Limit + 1)
	if p.After != uuid.Nil {
		q = q.Where("id > ?", p.After)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, rp.s.wrap(err, "API key")
	}
	return trim(out, p.Limit)
}

// Get finds a key of a project.
func (rp Keys) Get(ctx context.Context, projectID, keyID uuid.UUID) (*model.APIKey, error) {
	k := new(model.APIKey)
	err := rp.s.idb.NewSelect().Model(k).Where("id = ? AND project_id = ?", keyID, projectID).Scan(ctx)
	return k, rp.s.wrap(err, "API key")
}

// KeyAuth is what authenticating a client id needs: the key and its project's
// tenant and environment.
type KeyAuth struct {
	Key            model.APIKey
	OrganizationID uuid.UUID
	Environment    model.Environment
}

// ByClientID finds a key by its public client id, with its project's
// organization and environment.
func (rp Keys) ByClientID(ctx context.Context, clientID string) (*KeyAuth, error) {
	var row struct {
		model.APIKey
		OrganizationID uuid.UUID         `bun:"organization_id"`
		Environment    model.Environment `bun:"environment"`
	}
	err := rp.s.idb.NewSelect().
		ColumnExpr("k.*, p.organization_id, p.environment").
		TableExpr("api_keys AS k").
		Join("JOIN projects AS p ON p.id = k.project_id").
		Where("k.client_id = ?", clientID).
		Scan(ctx, &row)
	if err != nil {
		return nil, rp.s.wrap(err, "API key")
	}
	return &KeyAuth{Key: row.APIKey, OrganizationID: row.OrganizationID, Environment: row.Environment}, nil
}

// Rotate stores a key's new secret hash, keeping the previous one until
// prevExpiresAt (nil: the previous secret stops at once).
func (rp Keys) Rotate(ctx context.Context, k *model.APIKey) error {
	_, err := rp.s.idb.NewUpdate().Model(k).
		Column("secret_hash", "secret_last4", "prev_secret_hash", "prev_secret_expires_at", "rotated_at").
		WherePK().Exec(ctx)
	return rp.s.wrap(err, "API key")
}

// Revoke marks a key revoked; revoking twice keeps the first time.
func (rp Keys) Revoke(ctx context.Context, k *model.APIKey) error {
	_, err := rp.s.idb.NewUpdate().Model(k).Column("status", "revoked_at").WherePK().Exec(ctx)
	return rp.s.wrap(err, "API key")
}

// Touch records when keys were last used, never moving a time backwards.
func (rp Keys) Touch(ctx context.Context, used map[uuid.UUID]time.Time) error {
	for id, at := range used {
		_, err := rp.s.idb.NewUpdate().Model((*model.APIKey)(nil)).
			Set("last_used_at = ?", at).
			Where("id = ?", id).
			Where("last_used_at IS NULL OR last_used_at < ?", at).
			Exec(ctx)
		if err != nil {
			return rp.s.wrap(err, "API key")
		}
	}
	return nil
}

// CountActive counts a project's keys that are not revoked.
func (rp Keys) CountActive(ctx context.Context, projectID uuid.UUID) (int, error) {
	n, err := rp.s.idb.NewSelect().Model((*model.APIKey)(nil)).
		Where("project_id = ? AND status = ?", projectID, model.KeyActive).Count(ctx)
	return n, rp.s.wrap(err, "api key")
}
