package store

import (
	"bytes"
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// Idempotency record states.
const (
	IdempotencyInFlight = "in_flight"
	IdempotencyDone     = "done"
)

// IdempotencyRecord is a request made under an Idempotency-Key and, once it
// is done, the response to replay. Its primary key (credential, key) is the
// claim: one INSERT wins, in this process or another.
type IdempotencyRecord struct {
	bun.BaseModel `bun:"table:idempotency_keys"`

	Credential  string    `bun:"credential,pk"`
	Key         string    `bun:"idempotency_key,pk"`
	RequestHash []byte    `bun:"request_hash"`
	State       string    `bun:"state"`
	Status      int       `bun:"status"`
	Header      string    `bun:"header"` // JSON object of replayed headers
	Body        []byte    `bun:"body"`
	CreatedAt   time.Time `bun:"created_at"`
	LockedUntil time.Time `bun:"locked_until"`
	ExpiresAt   time.Time `bun:"expires_at"`
}

// ClaimIdempotencyKey records rec (in flight) unless its key is taken, and
// returns the stored record and whether rec claimed it now. A row that
// expired is taken over, and so is an in-flight row of the same request
// whose lock lapsed (its process died). One statement decides, so two
// concurrent claims never both win.
func (s *Store) ClaimIdempotencyKey(ctx context.Context, rec *IdempotencyRecord, now time.Time) (*IdempotencyRecord, bool, error) {
	rec.State, rec.Status, rec.Header, rec.Body = IdempotencyInFlight, 0, "{}", []byte{}
	// A live record decides without a write: replays and retries of a
	// running request then cost one read. Only a missing, expired or
	// lapsed claim goes on to the claiming statement.
	got := new(IdempotencyRecord)
	err := s.idb.NewSelect().Model(got).
		Where("credential = ? AND idempotency_key = ?", rec.Credential, rec.Key).Scan(ctx)
	switch {
	case err == nil:
		lapsed := got.State == IdempotencyInFlight && !got.LockedUntil.After(now) && bytes.Equal(got.RequestHash, rec.RequestHash)
		if got.ExpiresAt.After(now) && !lapsed {
			return got, false, nil
		}
	case model.ErrorCodeOf(s.wrap(err, "idempotency key")) != model.CodeNotFound:
		return nil, false, s.wrap(err, "idempotency key")
	}
	for attempt := 0; attempt < 3; attempt++ {
		res, err := s.idb.NewInsert().Model(rec).
			On("CONFLICT (credential, idempotency_key) DO UPDATE").
			Set("request_hash = EXCLUDED.request_hash").
			Set("state = EXCLUDED.state").
			Set("status = EXCLUDED.status").
			Set("header = EXCLUDED.header").
			Set("body = EXCLUDED.body").
			Set("created_at = EXCLUDED.created_at").
			Set("locked_until = EXCLUDED.locked_until").
			Set("expires_at = EXCLUDED.expires_at").
			Where("?TableAlias.expires_at <= ? OR (?TableAlias.state = ? AND ?TableAlias.locked_until <= ? AND ?TableAlias.request_hash = EXCLUDED.request_hash)",
				now, IdempotencyInFlight, now).
			Exec(ctx)
		if err != nil {
			return nil, false, s.wrap(err, "idempotency key")
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return rec, true, nil
		}
		got := new(IdempotencyRecord)
		err = s.idb.NewSelect().Model(got).
			Where("credential = ? AND idempotency_key = ?", rec.Credential, rec.Key).Scan(ctx)
		if err == nil {
			return got, false, nil
		}
		if err = s.wrap(err, "idempotency key"); model.ErrorCodeOf(err) != model.CodeNotFound {
			return nil, false, err
		}
		// Released between the two statements: claim again.
	}
	return nil, false, model.Errorf(model.CodeConflict, "a request with this Idempotency-Key is in progress")
}

// CompleteIdempotencyKey stores the response of a claimed request.
func (s *Store) CompleteIdempotencyKey(ctx context.Context, rec *IdempotencyRecord) error {
	rec.State = IdempotencyDone
	_, err := s.idb.NewUpdate().Model(rec).
		Column("state", "status", "header", "body", "locked_until").
		Where("credential = ? AND idempotency_key = ?", rec.Credential, rec.Key).
		Where("state = ? AND request_hash = ?", IdempotencyInFlight, rec.RequestHash).
		Exec(ctx)
	return s.wrap(err, "idempotency key")
}

// ReleaseIdempotencyKey deletes a claim that is still in flight, so that a
// retry of the request runs again.
func (s *Store) ReleaseIdempotencyKey(ctx context.Context, rec *IdempotencyRecord) error {
	_, err := s.idb.NewDelete().Model((*IdempotencyRecord)(nil)).
		Where("credential = ? AND idempotency_key = ?", rec.Credential, rec.Key).
		Where("state = ? AND request_hash = ?", IdempotencyInFlight, rec.RequestHash).
		Exec(ctx)
	return s.wrap(err, "idempotency key")
}

// PurgeIdempotencyKeys deletes the records that expired before now and
// returns how many.
func (s *Store) PurgeIdempotencyKeys(ctx context.Context, now time.Time) (int64, error) {
	res, err := s.idb.NewDelete().Model((*IdempotencyRecord)(nil)).Where("expires_at <= ?", now).Exec(ctx)
	if err != nil {
		return 0, s.wrap(err, "idempotency key")
	}
	n, _ := res.RowsAffected()
	return n, nil
}
