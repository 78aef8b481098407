package store

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// CreatePortalSession inserts a refresh token.
func (s *Store) CreatePortalSession(ctx context.Context, ps *model.PortalSession) error {
	_, err := s.idb.NewInsert().Model(ps).Exec(ctx)
	return s.wrap(err, "session")
}

// PortalSessionByHash finds a refresh token by the keyed hash of its value.
func (s *Store) PortalSessionByHash(ctx context.Context, hash string) (*model.PortalSession, error) {
	ps := new(model.PortalSession)
	err := s.idb.NewSelect().Model(ps).Where("token_hash = ?", hash).Limit(1).Scan(ctx)
	return ps, s.wrap(err, "session")
}

// RotatePortalSession marks a token rotated unless it already was or was
// revoked; it reports whether this call did it, so that of two concurrent
// refreshes with one token only one wins.
func (s *Store) RotatePortalSession(ctx context.Context, id uuid.UUID, at time.Time) (bool, error) {
	res, err := s.idb.NewUpdate().Model((*model.PortalSession)(nil)).Set("rotated_at = ?", at).
		Where("id = ? AND rotated_at IS NULL AND revoked_at IS NULL", id).Exec(ctx)
	if err != nil {
		return false, s.wrap(err, "session")
	}
	n, err := res.RowsAffected()
	return n == 1, s.wrap(err, "session")
}

// RevokePortalSessionFamily revokes every token of a sign-in that is not
// revoked yet.
func (s *Store) RevokePortalSessionFamily(ctx context.Context, familyID uuid.UUID, at time.Time) error {
	_, err := s.idb.NewUpdate().Model((*model.PortalSession)(nil)).Set("revoked_at = ?", at).
		Where("family_id = ? AND revoked_at IS NULL", familyID).Exec(ctx)
	return s.wrap(err, "session")
}

// PurgePortalSessions deletes the tokens of sign-ins that ended before a
// time, which no refresh can use any more.
func (s *Store) PurgePortalSessions(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.idb.NewDelete().Model((*model.PortalSession)(nil)).Where("family_expires_at < ?", before).Exec(ctx)
	if err != nil {
		return 0, s.wrap(err, "session")
	}
	n, err := res.RowsAffected()
	return n, s.wrap(err, "session")
}
