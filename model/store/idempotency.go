package store

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// Idempotency is the repository of requests made under an Idempotency-Key,
// their stored responses and what each credential keeps.
type Idempotency struct{ s *Store }

// Idempotency returns the repository of idempotency, in s's connection or
// transaction.
func (s *Store) Idempotency() Idempotency { return Idempotency{s} }

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

	Credential  string `bun:"credential,pk"`
	Key         string `bun:"idempotency_key,pk"`
	RequestHash []byte `bun:"request_hash"`
	State       string `bun:"state"`
	Status      int    `bun:"status"`
	Header      string `bun:"header"` // JSON object of replayed headers
	Body        []byte `bun:"body"`   // sealed
	// BodyKept is false when only the body's size and hash were kept (too
	// large to replay, or past the credential's quota).
	BodyKept    bool      `bun:"body_kept"`
	BodySize    int64     `bun:"body_size"`
	BodySHA256  []byte    `bun:"body_sha256"`
	CreatedAt   time.Time `bun:"created_at"`
	LockedUntil time.Time `bun:"locked_until"`
	ExpiresAt   time.Time `bun:"expires_at"`
	// Effects is a JSON object naming what the request committed so far,
	// by slot (see KeepEffect), or empty. A claim taken over after its
	// lease lapsed keeps it: the retry learns what the dead request did.
	Effects string `bun:"effects"`
}

// Claim records rec (in flight) unless its key is taken, and
// returns the stored record and whether rec claimed it now. A row that
// expired is taken over, and so is an in-flight row of the same request
// whose lock lapsed (its process died), keeping the effects the lapsed
// claim recorded (an expired row's are dropped). One statement decides, so two
// concurrent claims never both win. admit, when not nil, is asked before a
// new claim is written (a replay or a retry in flight is not): its error
// refuses the claim. A new claim counts as one entry of its credential's
// usage.
func (rp Idempotency) Claim(ctx context.Context, rec *IdempotencyRecord, now time.Time, admit func(context.Context) error) (*IdempotencyRecord, bool, error) {
	rec.State, rec.Status, rec.Header, rec.Body = IdempotencyInFlight, 0, "{}", []byte{}
	rec.BodyKept, rec.BodySize, rec.BodySHA256, rec.Effects = true, 0, []byte{}, ""
	// A live record decides without a write: replays and retries of a
	// running request then cost one read. Only a missing, expired or
	// lapsed claim goes on to the claiming statement.
	got := new(IdempotencyRecord)
	err := rp.s.idb.NewSelect().Model(got).
		Where("credential = ? AND idempotency_key = ?", rec.Credential, rec.Key).Scan(ctx)
	switch {
	case err == nil:
		lapsed := got.State == IdempotencyInFlight && !got.LockedUntil.After(now) && bytes.Equal(got.RequestHash, rec.RequestHash)
		if got.ExpiresAt.After(now) && !lapsed {
			return got, false, nil
		}
	case model.ErrorCodeOf(rp.s.wrap(err, "idempotency key")) != model.CodeNotFound:
		return nil, false, rp.s.wrap(err, "idempotency key")
	}
	if admit != nil {
		if err := admit(ctx); err != nil {
			return nil, false, err
		}
	}
	for attempt := 0; attempt < 3; attempt++ {
		res, err := rp.s.idb.NewInsert().Model(rec).
			On("CONFLICT (credential, idempotency_key) DO UPDATE").
			Set("request_hash = EXCLUDED.request_hash").
			Set("state = EXCLUDED.state").
			Set("status = EXCLUDED.status").
			Set("header = EXCLUDED.header").
			Set("body = EXCLUDED.body").
			Set("body_kept = EXCLUDED.body_kept").
			Set("body_size = EXCLUDED.body_size").
			Set("body_sha256 = EXCLUDED.body_sha256").
			Set("created_at = EXCLUDED.created_at").
			Set("locked_until = EXCLUDED.locked_until").
			Set("expires_at = EXCLUDED.expires_at").
			Set("effects = CASE WHEN ?TableAlias.expires_at <= ? THEN EXCLUDED.effects ELSE ?TableAlias.effects END", now).
			Where("?TableAlias.expires_at <= ? OR (?TableAlias.state = ? AND ?TableAlias.locked_until <= ? AND ?TableAlias.request_hash = EXCLUDED.request_hash)",
				now, IdempotencyInFlight, now).
			Exec(ctx)
		if err != nil {
			return nil, false, rp.s.wrap(err, "idempotency key")
		}
		if n, _ := res.RowsAffected(); n == 1 {
			if err := rp.s.addIdempotencyUsage(ctx, rec.Credential, rec.CreatedAt, 1, 0); err != nil {
				return nil, false, err
			}
			return rec, true, nil
		}
		got := new(IdempotencyRecord)
		err = rp.s.idb.NewSelect().Model(got).
			Where("credential = ? AND idempotency_key = ?", rec.Credential, rec.Key).Scan(ctx)
		if err == nil {
			return got, false, nil
		}
		if err = rp.s.wrap(err, "idempotency key"); model.ErrorCodeOf(err) != model.CodeNotFound {
			return nil, false, err
		}
		// Released between the two statements: claim again.
	}
	return nil, false, model.Errorf(model.CodeConflict, "a request with this Idempotency-Key is in progress")
}

// Complete stores the response of a claimed request and
// counts its stored body in its credential's usage, and reports whether
// the claim was in flight to take it (false: released, completed, purged
// or taken over meanwhile; nothing is written). When rec.CreatedAt is set,
// only the claim made then is completed. In a transaction, the claim's
// row stays locked until it ends: a retry cannot take the claim over
// meanwhile.
func (rp Idempotency) Complete(ctx context.Context, rec *IdempotencyRecord) (bool, error) {
	rec.State = IdempotencyDone
	held := false
	err := rp.s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		claim := new(IdempotencyRecord)
		err := tx.idb.NewSelect().Model(claim).Column("created_at").
			Where("credential = ? AND idempotency_key = ?", rec.Credential, rec.Key).
			Where("state = ? AND request_hash = ?", IdempotencyInFlight, rec.RequestHash).
			Apply(claimedAt(rec)).
			Scan(ctx)
		if err != nil {
			if err = tx.wrap(err, "idempotency key"); model.ErrorCodeOf(err) == model.CodeNotFound {
				return nil // released or purged meanwhile: nothing to complete
			}
			return err
		}
		res, err := tx.idb.NewUpdate().Model(rec).
			Column("state", "status", "header", "body", "body_kept", "body_size", "body_sha256", "locked_until").
			Where("credential = ? AND idempotency_key = ?", rec.Credential, rec.Key).
			Where("state = ? AND request_hash = ?", IdempotencyInFlight, rec.RequestHash).
			Where("created_at = ?", claim.CreatedAt).
			Exec(ctx)
		if err != nil {
			return tx.wrap(err, "idempotency key")
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil // taken over between the two statements
		}
		held = true
		return tx.addIdempotencyUsage(ctx, rec.Credential, claim.CreatedAt, 0, int64(len(rec.Body)))
	})
	return held && err == nil, err
}

// claimedAt fences a query to the claim made at rec.CreatedAt, when set:
// a claim taken over since (its lease lapsed) is another's.
func claimedAt(rec *IdempotencyRecord) func(*bun.SelectQuery) *bun.SelectQuery {
	return func(q *bun.SelectQuery) *bun.SelectQuery {
		if !rec.CreatedAt.IsZero() {
			q = q.Where("created_at = ?", rec.CreatedAt)
		}
		return q
	}
}

// Extend moves the lease of the claim made at rec.CreatedAt, still in
// flight, to until, and reports whether the claim is still held: in
// flight, or completed by its own request (its response committed with
// the request's effect) while the request goes on.
func (rp Idempotency) Extend(ctx context.Context, rec *IdempotencyRecord, until time.Time) (bool, error) {
	res, err := rp.s.idb.NewUpdate().Model((*IdempotencyRecord)(nil)).
		Set("locked_until = ?", until).
		Where("credential = ? AND idempotency_key = ?", rec.Credential, rec.Key).
		Where("state = ? AND request_hash = ? AND created_at = ?", IdempotencyInFlight, rec.RequestHash, rec.CreatedAt).
		Exec(ctx)
	if err != nil {
		return false, rp.s.wrap(err, "idempotency key")
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return true, nil
	}
	done, err := rp.s.idb.NewSelect().Model((*IdempotencyRecord)(nil)).
		Where("credential = ? AND idempotency_key = ?", rec.Credential, rec.Key).
		Where("state = ? AND request_hash = ? AND created_at = ?", IdempotencyDone, rec.RequestHash, rec.CreatedAt).
		Exists(ctx)
	if err != nil {
		return false, rp.s.wrap(err, "idempotency key")
	}
	return done, nil
}

// Release deletes a claim that is still in flight, so that a
// retry of the request runs again, and takes it off its credential's usage.
// When rec.CreatedAt is set, only the claim made then is released. A claim
// that recorded effects (KeepEffect) is not deleted but lapsed at once: a
// retry takes it over at once and learns what the request committed.
func (rp Idempotency) Release(ctx context.Context, rec *IdempotencyRecord) error {
	return rp.s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		fence := func(q bun.QueryBuilder) bun.QueryBuilder {
			q = q.Where("credential = ? AND idempotency_key = ?", rec.Credential, rec.Key).
				Where("state = ? AND request_hash = ?", IdempotencyInFlight, rec.RequestHash)
			if !rec.CreatedAt.IsZero() {
				q = q.Where("created_at = ?", rec.CreatedAt)
			}
			return q
		}
		if _, err := tx.idb.NewUpdate().Model((*IdempotencyRecord)(nil)).
			Set("locked_until = created_at").
			ApplyQueryBuilder(fence).
			Where("effects <> ''").
			Exec(ctx); err != nil {
			return tx.wrap(err, "idempotency key")
		}
		var gone []IdempotencyRecord
		_, err := tx.idb.NewDelete().Model(&gone).
			ApplyQueryBuilder(fence).
			Where("effects = ''").
			Returning("created_at").
			Exec(ctx)
		if err != nil {
			return tx.wrap(err, "idempotency key")
		}
		for _, g := range gone {
			if err := tx.addIdempotencyUsage(ctx, rec.Credential, g.CreatedAt, -1, 0); err != nil {
				return err
			}
		}
		return nil
	})
}

// KeepEffect records, in rp's transaction, that the claim of rec made at
// rec.CreatedAt, still in flight, committed the effect ref under slot
// (the part of the request that had it), and reports whether the claim
// was still held to record it (false: taken over or ended; nothing is
// written). Called in the transaction of the effect, it commits with it.
func (rp Idempotency) KeepEffect(ctx context.Context, rec *IdempotencyRecord, slot, ref string) (bool, error) {
	claim := new(IdempotencyRecord)
	err := rp.s.idb.NewSelect().Model(claim).Column("effects").
		Where("credential = ? AND idempotency_key = ?", rec.Credential, rec.Key).
		Where("state = ? AND request_hash = ? AND created_at = ?", IdempotencyInFlight, rec.RequestHash, rec.CreatedAt).
		Scan(ctx)
	if err != nil {
		if err = rp.s.wrap(err, "idempotency key"); model.ErrorCodeOf(err) == model.CodeNotFound {
			return false, nil
		}
		return false, err
	}
	effects, err := decodeEffects(claim.Effects)
	if err != nil {
		return false, err
	}
	effects[slot] = ref
	enc, err := json.Marshal(effects)
	if err != nil {
		return false, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	res, err := rp.s.idb.NewUpdate().Model((*IdempotencyRecord)(nil)).
		Set("effects = ?", string(enc)).
		Where("credential = ? AND idempotency_key = ?", rec.Credential, rec.Key).
		Where("state = ? AND request_hash = ? AND created_at = ?", IdempotencyInFlight, rec.RequestHash, rec.CreatedAt).
		Exec(ctx)
	if err != nil {
		return false, rp.s.wrap(err, "idempotency key")
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// Effects returns the effects recorded under the claim of rec made at
// rec.CreatedAt, by slot: those of the claims it took over and its own.
// A claim no longer there has none.
func (rp Idempotency) Effects(ctx context.Context, rec *IdempotencyRecord) (map[string]string, error) {
	claim := new(IdempotencyRecord)
	err := rp.s.idb.NewSelect().Model(claim).Column("effects").
		Where("credential = ? AND idempotency_key = ? AND created_at = ?", rec.Credential, rec.Key, rec.CreatedAt).
		Scan(ctx)
	if err != nil {
		if err = rp.s.wrap(err, "idempotency key"); model.ErrorCodeOf(err) == model.CodeNotFound {
			return map[string]string{}, nil
		}
		return nil, err
	}
	return decodeEffects(claim.Effects)
}

func decodeEffects(s string) (map[string]string, error) {
	out := map[string]string{}
	if s == "" {
		return out, nil
	}
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return out, nil
}

// Purge deletes the records that expired before now, and
// the usage counted more than a day before, and returns how many records.
func (rp Idempotency) Purge(ctx context.Context, now time.Time) (int64, error) {
	res, err := rp.s.idb.NewDelete().Model((*IdempotencyRecord)(nil)).Where("expires_at <= ?", now).Exec(ctx)
	if err != nil {
		return 0, rp.s.wrap(err, "idempotency key")
	}
	n, _ := res.RowsAffected()
	if _, err := rp.s.idb.NewDelete().Model((*idempotencyUsage)(nil)).
		Where("hour < ?", usageHour(now).Add(-usageWindow)).Exec(ctx); err != nil {
		return n, rp.s.wrap(err, "idempotency usage")
	}
	return n, nil
}

// idempotencyUsage is what one credential stored under Idempotency-Keys
// claimed in one hour.
type idempotencyUsage struct {
	bun.BaseModel `bun:"table:idempotency_usage"`

	Credential string    `bun:"credential,pk"`
	Hour       time.Time `bun:"hour,pk"`
	Entries    int64     `bun:"entries"`
	Bytes      int64     `bun:"bytes"`
}

// usageWindow is how far back usage counts: records live a day, so the
// hours of the last day (and the current one) hold every live record.
const usageWindow = 24 * time.Hour

func usageHour(t time.Time) time.Time { return t.UTC().Truncate(time.Hour) }

// addIdempotencyUsage adds entries and bytes to the usage of the hour at.
func (s *Store) addIdempotencyUsage(ctx context.Context, credential string, at time.Time, entries, bytes int64) error {
	u := &idempotencyUsage{Credential: credential, Hour: usageHour(at), Entries: entries, Bytes: bytes}
	_, err := s.idb.NewInsert().Model(u).
		On("CONFLICT (credential, hour) DO UPDATE").
		Set("entries = ?TableAlias.entries + EXCLUDED.entries").
		Set("bytes = ?TableAlias.bytes + EXCLUDED.bytes").
		Exec(ctx)
	return s.wrap(err, "idempotency usage")
}

// IdempotencyUsage is what a credential keeps under Idempotency-Keys: the
// records claimed in the last day and the bytes of their stored bodies.
type IdempotencyUsage struct {
	Entries int64
	Bytes   int64
}

// UsageOf sums a credential's usage over the last day (counted
// by hour of claim, so up to an hour more than the live records).
func (rp Idempotency) UsageOf(ctx context.Context, credential string, now time.Time) (IdempotencyUsage, error) {
	var u IdempotencyUsage
	err := rp.s.idb.NewSelect().Model((*idempotencyUsage)(nil)).
		ColumnExpr("COALESCE(SUM(entries), 0) AS entries, COALESCE(SUM(bytes), 0) AS bytes").
		Where("credential = ? AND hour >= ?", credential, usageHour(now).Add(-usageWindow)).
		Scan(ctx, &u.Entries, &u.Bytes)
	return u, rp.s.wrap(err, "idempotency usage")
}
