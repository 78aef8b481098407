package auth

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// revocations is this process's copy of the revoked access tokens that
// have not expired. Checking a token is a map lookup; the copy is brought
// up to date from the database at most once per ttl, by the first check
// that finds it older (the others keep using it meanwhile), so a logout
// made through another API process is honoured here within ttl plus one
// query, and the portal's authentication costs no query of its own.
type revocations struct {
	st  *store.Store
	ttl time.Duration
	now func() time.Time

	mu      sync.RWMutex
	tokens  map[uuid.UUID]time.Time // token id → expiry
	checked time.Time               // when the last successful read began
	loaded  bool

	refreshing sync.Mutex
}

// revocationOverlap is how far back each read looks before the previous
// one began, so that a row written by a process whose clock runs behind,
// or committed while the previous read ran, is not missed.
const revocationOverlap = time.Minute

// revocationMaxStale is how old the copy may grow while the database
// cannot be read before tokens are refused (unavailable) rather than
// trusted on stale knowledge.
const revocationMaxStale = time.Minute

func newRevocations(st *store.Store, ttl time.Duration, now func() time.Time) *revocations {
	return &revocations{st: st, ttl: ttl, now: now, tokens: map[uuid.UUID]time.Time{}}
}

// revoked reports whether the token id is revoked.
func (r *revocations) revoked(ctx context.Context, id uuid.UUID) (bool, error) {
	if err := r.refresh(ctx); err != nil {
		return false, err
	}
	r.mu.RLock()
	_, ok := r.tokens[id]
	r.mu.RUnlock()
	return ok, nil
}

// refresh reads the tokens revoked since the last read when the copy is
// older than ttl. Only one caller reads; the others go on with the copy
// unless it was never loaded or has grown too stale.
func (r *revocations) refresh(ctx context.Context) error {
	now := r.now()
	r.mu.RLock()
	checked, loaded := r.checked, r.loaded
	r.mu.RUnlock()
	if loaded && now.Sub(checked) < r.ttl {
		return nil
	}
	if loaded && now.Sub(checked) < revocationMaxStale {
		if !r.refreshing.TryLock() {
			return nil // another caller is reading; use the copy
		}
	} else {
		r.refreshing.Lock()
	}
	defer r.refreshing.Unlock()
	r.mu.RLock()
	checked, loaded = r.checked, r.loaded
	r.mu.RUnlock()
	if loaded && r.now().Sub(checked) < r.ttl {
		return nil // read by the caller that held the lock
	}
	began := r.now()
	since := time.Time{}
	if loaded {
		since = checked.Add(-revocationOverlap)
	}
	rows, err := r.st.Tokens().Since(ctx, since, began)
	if err != nil {
		if loaded && began.Sub(checked) < revocationMaxStale {
			return nil
		}
		return model.Wrap(model.CodeUnavailable, err, "cannot check access tokens right now; retry shortly")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, exp := range r.tokens {
		if !exp.After(began) {
			delete(r.tokens, id)
		}
	}
	for _, t := range rows {
		r.tokens[t.TokenID] = t.ExpiresAt
	}
	r.checked, r.loaded = began, true
	return nil
}

// add records a revocation made by this process, which honours it at once.
func (r *revocations) add(id uuid.UUID, expires time.Time) {
	r.mu.Lock()
	r.tokens[id] = expires
	r.mu.Unlock()
}

// LogoutResult is the answer to a logout.
type LogoutResult struct {
	Revoked   bool      `json:"revoked"`
	RevokedAt time.Time `json:"revoked_at"`
}

// Logout revokes the access token the user authenticated with: every API
// process sharing the database refuses it within RevocationCacheTTL (this
// one at once), and WebSockets opened with it close. The user's other
// tokens stay valid.
func (s *Service) Logout(ctx context.Context, who *model.Principal) (*LogoutResult, error) {
	if who == nil || who.TokenID == uuid.Nil {
		return nil, model.Errorf(model.CodeUnauthenticated, "invalid or expired access token")
	}
	now := s.now()
	t := &model.RevokedToken{TokenID: who.TokenID, UserID: who.UserID, RevokedAt: now, ExpiresAt: who.TokenExpiresAt.UTC()}
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if err := tx.Tokens().Revoke(ctx, t); err != nil {
			return err
		}
		return s.auditUser(ctx, tx, who.UserID, model.ActionLogout, "user", who.UserID.String())
	})
	if err != nil {
		return nil, err
	}
	s.revoked.add(who.TokenID, t.ExpiresAt)
	return &LogoutResult{Revoked: true, RevokedAt: now}, nil
}

// PurgeRevokedTokens deletes the records of revoked tokens that have
// expired since, which no check needs any more.
func (s *Service) PurgeRevokedTokens(ctx context.Context) (int64, error) {
	return s.st.Tokens().Purge(ctx, s.cfg.Now())
}

// Why a token's context ended: TokenContext cancels with one of these.
var (
	ErrTokenExpired = errors.New("access token expired")
	ErrTokenRevoked = errors.New("access token revoked")
)

// TokenContext returns a context that ends when the user's access token
// expires or is revoked (context.Cause says which: ErrTokenExpired or
// ErrTokenRevoked), for work that outlives one request, such as a
// WebSocket. Revocation is checked every RevocationCacheTTL.
func (s *Service) TokenContext(ctx context.Context, u *model.Principal) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	if u == nil || u.TokenID == uuid.Nil {
		return ctx, func() { cancel(context.Canceled) }
	}
	expiry := time.NewTimer(u.TokenExpiresAt.Sub(s.cfg.Now()))
	tick := time.NewTicker(s.cfg.RevocationCacheTTL)
	go func() {
		defer expiry.Stop()
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-expiry.C:
				cancel(ErrTokenExpired)
				return
			case <-tick.C:
				if revoked, err := s.revoked.revoked(ctx, u.TokenID); err == nil && revoked {
					cancel(ErrTokenRevoked)
					return
				}
			}
		}
	}()
	return ctx, func() { cancel(context.Canceled) }
}
