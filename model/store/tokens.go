package store

import (
	"context"
	"time"

	"github.com/einvoice-ng/einvoice/model"
)

// RevokeToken records a revoked access token. Revoking it again changes
// nothing.
func (s *Store) RevokeToken(ctx context.Context, t *model.RevokedToken) error {
	_, err := s.idb.NewInsert().Model(t).On("CONFLICT (token_id) DO NOTHING").Exec(ctx)
	return s.wrap(err, "revoked token")
}

// RevokedTokensSince lists the tokens revoked at or after since that have
// not expired by now.
func (s *Store) RevokedTokensSince(ctx context.Context, since, now time.Time) ([]model.RevokedToken, error) {
	var out []model.RevokedToken
	err := s.idb.NewSelect().Model(&out).Column("token_id", "expires_at").
		Where("revoked_at >= ? AND expires_at > ?", since, now).Scan(ctx)
	return out, s.wrap(err, "revoked token")
}

// PurgeRevokedTokens deletes the records of tokens expired by now, which no
// check needs any more, and returns how many went.
func (s *Store) PurgeRevokedTokens(ctx context.Context, now time.Time) (int64, error) {
	res, err := s.idb.NewDelete().Model((*model.RevokedToken)(nil)).Where("expires_at <= ?", now).Exec(ctx)
	if err != nil {
		return 0, s.wrap(err, "revoked token")
	}
	n, _ := res.RowsAffected()
	return n, nil
}
