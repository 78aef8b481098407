package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Portal session lifetimes: a refresh token unused for SessionIdleTTL ends,
// and a sign-in ends SessionMaxTTL after login however often it refreshes.
const (
	SessionIdleTTL = 7 * 24 * time.Hour
	SessionMaxTTL  = 30 * 24 * time.Hour
	// sessionReuseGrace is how long after a rotation the rotated token may
	// be shown again (a second tab refreshing at the same moment) and be
	// refused without revoking the sign-in.
	sessionReuseGrace = 30 * time.Second
	// sessionTokenPrefix marks refresh token values.
	sessionTokenPrefix = "rt_"
)

// SessionToken is a refresh token to hand to the browser: Value goes in an
// HttpOnly cookie that lives until ExpiresAt.
type SessionToken struct {
	Value     string
	ExpiresAt time.Time
}

// errNoSession answers every refresh that cannot go on, whatever the
// reason (unknown, expired, rotated or revoked), so that the answer tells
// an attacker nothing.
var errNoSession = model.Errorf(model.CodeUnauthenticated, "no valid session: log in again")

func (s *Service) sessionHash(value string) string {
	return hex.EncodeToString(s.cfg.Hasher.Hash("session:" + value))
}

func newSessionValue() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return sessionTokenPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// StartSession opens a portal sign-in for a user who just signed up or
// logged in, and returns its first refresh token.
func (s *Service) StartSession(ctx context.Context, userID uuid.UUID) (*SessionToken, error) {
	now := s.now()
	return s.issueSession(ctx, s.st, userID, model.NewID(), now.Add(SessionMaxTTL), now)
}

func (s *Service) issueSession(ctx context.Context, tx *store.Store, userID, familyID uuid.UUID, familyExpires, now time.Time) (*SessionToken, error) {
	value, err := newSessionValue()
	if err != nil {
		return nil, err
	}
	exp := now.Add(SessionIdleTTL)
	if exp.After(familyExpires) {
		exp = familyExpires
	}
	err = tx.Sessions().Create(ctx, &model.PortalSession{
		ID: model.NewID(), FamilyID: familyID, UserID: userID, TokenHash: s.sessionHash(value),
		CreatedAt: now, ExpiresAt: exp, FamilyExpiresAt: familyExpires,
	})
	if err != nil {
		return nil, err
	}
	return &SessionToken{Value: value, ExpiresAt: exp}, nil
}

// RefreshSession trades a refresh token for a new access token and the
// token's successor (rotation: each refresh token works once). A token
// shown again after its rotation revokes the whole sign-in, since either
// holder may be a thief, unless it comes within seconds of the rotation (a
// second tab refreshing at the same time), which is refused alone.
func (s *Service) RefreshSession(ctx context.Context, value string) (*AuthPayload, *SessionToken, error) {
	if !strings.HasPrefix(value, sessionTokenPrefix) || len(value) > 100 {
		return nil, nil, errNoSession
	}
	ps, err := s.st.Sessions().ByHash(ctx, s.sessionHash(value))
	if err != nil {
		if model.ErrorCodeOf(err) == model.CodeNotFound {
			return nil, nil, errNoSession
		}
		return nil, nil, err
	}
	now := s.now()
	if ps.RevokedAt != nil || !now.Before(ps.ExpiresAt) || !now.Before(ps.FamilyExpiresAt) {
		return nil, nil, errNoSession
	}
	if ps.RotatedAt != nil {
		return nil, nil, s.sessionReused(ctx, ps, now)
	}
	var next *SessionToken
	err = s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		won, err := tx.Sessions().Rotate(ctx, ps.ID, now)
		if err != nil {
			return err
		}
		if !won {
			return errNoSession // another refresh with the same token won
		}
		next, err = s.issueSession(ctx, tx, ps.UserID, ps.FamilyID, ps.FamilyExpiresAt, now)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	usr, err := s.st.Users().ByID(ctx, ps.UserID)
	if err != nil {
		if model.ErrorCodeOf(err) == model.CodeNotFound {
			return nil, nil, errNoSession
		}
		return nil, nil, err
	}
	orgs, err := s.cfg.Portal.AllOrganizations(ctx, usr.ID)
	if err != nil {
		return nil, nil, err
	}
	token, ttl, err := s.issueToken(usr.ID)
	if err != nil {
		return nil, nil, err
	}
	return &AuthPayload{AccessToken: token, TokenType: "bearer", ExpiresIn: ttl, User: userView(usr), Organizations: orgs}, next, nil
}

// sessionReused handles a rotated token shown again: within the grace it is
// refused alone; later the sign-in is revoked and the event audited.
func (s *Service) sessionReused(ctx context.Context, ps *model.PortalSession, now time.Time) error {
	if now.Sub(*ps.RotatedAt) < sessionReuseGrace {
		return errNoSession
	}
	if err := s.st.Sessions().RevokeFamily(ctx, ps.FamilyID, now); err != nil {
		return err
	}
	usr, err := s.st.Users().ByID(ctx, ps.UserID)
	if err == nil {
		err = s.auditLogin(ctx, usr, model.ActionSessionReuse, "session", ps.FamilyID.String())
	}
	if err != nil && model.ErrorCodeOf(err) != model.CodeNotFound {
		return err
	}
	return errNoSession
}

// EndSession revokes the sign-in a refresh token belongs to. An unknown,
// expired or revoked token ends nothing and is no error: the browser's
// cookie is cleared either way.
func (s *Service) EndSession(ctx context.Context, value string) error {
	if !strings.HasPrefix(value, sessionTokenPrefix) || len(value) > 100 {
		return nil
	}
	ps, err := s.st.Sessions().ByHash(ctx, s.sessionHash(value))
	if err != nil {
		if model.ErrorCodeOf(err) == model.CodeNotFound {
			return nil
		}
		return err
	}
	return s.st.Sessions().RevokeFamily(ctx, ps.FamilyID, s.now())
}

// PurgeSessions deletes the refresh tokens of sign-ins that have ended.
func (s *Service) PurgeSessions(ctx context.Context) (int64, error) {
	return s.st.Sessions().Purge(ctx, s.now())
}
