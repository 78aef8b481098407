package store

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// Sessions is the repository of the portal's sign-ins: one row per refresh
// token, rotated at every refresh.
type Sessions struct{ s *Store }

// Sessions returns the repository of sessions, in s's connection or
// transaction.
func (s *Store) Sessions() Sessions { return Sessions{s} }

// Create inserts a refresh token.
func (rp Sessions) Create(ctx context.Context, ps *model.PortalSession) error {
	_, err := rp.s.idb.NewInsert().Model(ps).Exec(ctx)
	return rp.s.wrap(err, "session")
}

// ByHash finds a refresh token by the keyed hash of its value.
func (rp Sessions) ByHash(ctx context.Context, hash string) (*model.PortalSession, error) {
	ps := new(model.PortalSession)
	err := rp.s.idb.NewSelect().Model(ps).Where("token_hash = ?", hash).Limit(1).Scan(ctx)
	return ps, rp.s.wrap(err, "session")
}

// Rotate marks a token rotated unless it already was or was
// revoked; it reports whether this call did it, so that of two concurrent
// refreshes with one token only one wins.
func (rp Sessions) Rotate(ctx context.Context, id uuid.UUID, at time.Time) (bool, error) {
	res, err := rp.s.idb.NewUpdate().Model((*model.PortalSession)(nil)).Set("rotated_at = ?", at).
		Where("id = ? AND rotated_at IS NULL AND revoked_at IS NULL", id).Exec(ctx)
	if err != nil {
		return false, rp.s.wrap(err, "session")
	}
	n, err := res.RowsAffected()
	return n == 1, rp.s.wrap(err, "session")
}

// RevokeFamily revokes every token of a sign-in that is not
// revoked yet.
func (rp Sessions) RevokeFamily(ctx context.Context, familyID uuid.UUID, at time.Time) error {
	_, err := rp.s.idb.NewUpdate().Model((*model.PortalSession)(nil)).Set("revoked_at = ?", at).
		Where("family_id = ? AND revoked_at IS NULL", familyID).Exec(ctx)
	return rp.s.wrap(err, "session")
}

// Purge deletes the tokens of sign-ins that ended before a
// time, which no refresh can use any more.
func (rp Sessions) Purge(ctx context.Context, before time.Time) (int64, error) {
	res, err := rp.s.idb.NewDelete().Model((*model.PortalSession)(nil)).Where("family_expires_at < ?", before).Exec(ctx)
	if err != nil {
		return 0, rp.s.wrap(err, "session")
	}
	n, err := res.RowsAffected()
	return n, rp.s.wrap(err, "session")
}
