package store

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// CreateKey inserts an API key.
func (s *Store) CreateKey(ctx context.Context, k *model.APIKey) error {
	if err := refuseNUL("key_name", k.KeyName); err != nil {
		return err
	}
	_, err := s.idb.NewInsert().Model(k).Exec(ctx)
	return s.wrap(err, "API key")
}

// KeysForProject lists a project's keys, one page.
func (s *Store) KeysForProject(ctx context.Context, projectID uuid.UUID, p model.Page) ([]model.APIKey, bool, error) {
	var out []model.APIKey
	q := s.idb.NewSelect().Model(&out).Where("project_id = ?", projectID).OrderExpr("id ASC").Limit(p.Limit + 1)
	if p.After != uuid.Nil {
		q = q.Where("id > ?", p.After)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, s.wrap(err, "API key")
	}
	return trim(out, p.Limit)
}

// KeysForProjects lists every key of several projects, for batch loading.
func (s *Store) KeysForProjects(ctx context.Context, projectIDs []uuid.UUID) ([]model.APIKey, error) {
	var out []model.APIKey
	if len(projectIDs) == 0 {
		return out, nil
	}
	err := s.idb.NewSelect().Model(&out).Where("project_id IN (?)", bun.In(projectIDs)).OrderExpr("id ASC").Scan(ctx)
	return out, s.wrap(err, "API key")
}

// KeyInProject finds a key of a project.
func (s *Store) KeyInProject(ctx context.Context, projectID, keyID uuid.UUID) (*model.APIKey, error) {
	k := new(model.APIKey)
	err := s.idb.NewSelect().Model(k).Where("id = ? AND project_id = ?", keyID, projectID).Scan(ctx)
	return k, s.wrap(err, "API key")
}

// KeyAuth is what authenticating a client id needs: the key and its project's
// tenant and environment.
type KeyAuth struct {
	Key            model.APIKey
	OrganizationID uuid.UUID
	Environment    model.Environment
}

// KeyByClientID finds a key by its public client id, with its project's
// organization and environment.
func (s *Store) KeyByClientID(ctx context.Context, clientID string) (*KeyAuth, error) {
	var row struct {
		model.APIKey
		OrganizationID uuid.UUID         `bun:"organization_id"`
		Environment    model.Environment `bun:"environment"`
	}
	err := s.idb.NewSelect().
		ColumnExpr("k.*, p.organization_id, p.environment").
		TableExpr("api_keys AS k").
		Join("JOIN projects AS p ON p.id = k.project_id").
		Where("k.client_id = ?", clientID).
		Scan(ctx, &row)
	if err != nil {
		return nil, s.wrap(err, "API key")
	}
	return &KeyAuth{Key: row.APIKey, OrganizationID: row.OrganizationID, Environment: row.Environment}, nil
}

// RotateKey stores a key's new secret hash, keeping the previous one until
// prevExpiresAt (nil: the previous secret stops at once).
func (s *Store) RotateKey(ctx context.Context, k *model.APIKey) error {
	_, err := s.idb.NewUpdate().Model(k).
		Column("secret_hash", "secret_last4", "prev_secret_hash", "prev_secret_expires_at", "rotated_at").
		WherePK().Exec(ctx)
	return s.wrap(err, "API key")
}

// RevokeKey marks a key revoked; revoking twice keeps the first time.
func (s *Store) RevokeKey(ctx context.Context, k *model.APIKey) error {
	_, err := s.idb.NewUpdate().Model(k).Column("status", "revoked_at").WherePK().Exec(ctx)
	return s.wrap(err, "API key")
}

// TouchKeys records when keys were last used, never moving a time backwards.
func (s *Store) TouchKeys(ctx context.Context, used map[uuid.UUID]time.Time) error {
	for id, at := range used {
		_, err := s.idb.NewUpdate().Model((*model.APIKey)(nil)).
			Set("last_used_at = ?", at).
			Where("id = ?", id).
			Where("last_used_at IS NULL OR last_used_at < ?", at).
			Exec(ctx)
		if err != nil {
			return s.wrap(err, "API key")
		}
	}
	return nil
}
