package store

import (
	"context"
	"time"

	"github.com/einvoice-ng/einvoice/model"
)

// Tokens is the repository of portal access tokens revoked before their expiry.
type Tokens struct{ s *Store }

// Tokens returns the repository of tokens, in s's connection or transaction.
func (s *Store) Tokens() Tokens { return Tokens{s} }

// Revoke records a revoked access token. Revoking it again changes
// nothing.
func (rp Tokens) Revoke(ctx context.Context, t *model.RevokedToken) error {
	_, err := rp.s.idb.NewInsert().Model(t).On("CONFLICT (token_id) DO NOTHING").Exec(ctx)
	return rp.s.wrap(err, "revoked token")
}

// Since lists the tokens revoked at or after since that have
// not expired by now.
func (rp Tokens) Since(ctx context.Context, since, now time.Time) ([]model.RevokedToken, error) {
	var out []model.RevokedToken
	err := rp.s.idb.NewSelect().Model(&out).Column("token_id", "expires_at").
		Where("revoked_at >= ? AND expires_at > ?", since, now).Scan(ctx)
	return out, rp.s.wrap(err, "revoked token")
}

// Purge deletes the records of tokens expired by now, which no
// check needs any more, and returns how many went.
func (rp Tokens) Purge(ctx context.Context, now time.Time) (int64, error) {
	res, err := rp.s.idb.NewDelete().Model((*model.RevokedToken)(nil)).Where("expires_at <= ?", now).Exec(ctx)
	if err != nil {
		return 0, rp.s.wrap(err, "revoked token")
	}
	n, _ := res.RowsAffected()
	return n, nil
}
