// Package auth signs portal users in: sign-up (a user and their first
// organization), login, the access tokens that authenticate every portal
// request (HS256 JWTs, revoked by logout), and the refresh sessions the
// portal keeps in an HttpOnly cookie. Sign-in attempts are limited per
// client address and per e-mail before any password is hashed, and
// password hashing (argon2id) runs in a bounded number of slots.
package auth

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/portal"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Config configures New.
type Config struct {
	// JWTSecret signs access tokens (HS256); at least 32 bytes.
	JWTSecret []byte
	// TokenTTL is the lifetime of an access token; default 1 h.
	TokenTTL time.Duration
	// Hasher keys the hashes of refresh tokens. Required.
	Hasher *secret.Hasher
	// PasswordParams are the argon2id costs; default
	// secret.DefaultPasswordParams.
	PasswordParams secret.PasswordParams
	// Limits limit sign-in attempts per client address and per e-mail,
	// and bound concurrent password hashing.
	Limits Limits
	// RevocationCacheTTL bounds how long this process trusts its copy of
	// the revoked access tokens before reading the new ones, hence how late
	// a logout made through another process is seen; default 1 s.
	RevocationCacheTTL time.Duration
	// Portal founds a new user's first organization and lists a user's
	// organizations. Required.
	Portal *portal.Service
	// Trail records sign-ups, logins, failed logins and logouts.
	Trail access.Trail
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives the attempt limiter's failures; default
	// slog.Default().
	Logger *slog.Logger
}

// Service signs users in.
type Service struct {
	st      *store.Store
	cfg     Config
	hashing *hashGate
	revoked *revocations
}

// New builds the service over st.
func New(st *store.Store, cfg Config) (*Service, error) {
	if len(cfg.JWTSecret) < 32 {
		return nil, errors.New("auth: JWT secret must be at least 32 bytes")
	}
	if cfg.Hasher == nil || cfg.Portal == nil {
		return nil, errors.New("auth: a hasher and the portal are required")
	}
	if cfg.TokenTTL <= 0 {
		cfg.TokenTTL = time.Hour
	}
	if cfg.RevocationCacheTTL <= 0 {
		cfg.RevocationCacheTTL = time.Second
	}
	if cfg.PasswordParams.Memory == 0 {
		cfg.PasswordParams = secret.DefaultPasswordParams
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	cfg.Limits.defaults()
	return &Service{st: st, cfg: cfg, hashing: newHashGate(cfg.Limits),
		revoked: newRevocations(st, cfg.RevocationCacheTTL, cfg.Now)}, nil
}

func (s *Service) now() time.Time { return model.StoredTime(s.cfg.Now()) }

// SignupInput creates a user and their first organization.
type SignupInput struct {
	Email            string `json:"email" required:"true"`
	Password         string `json:"password" required:"true"`
	OrganizationName string `json:"organization_name" required:"true"`
	OrganizationSlug string `json:"organization_slug" required:"true"`
}

// Validate normalizes the input and records every problem.
func (in *SignupInput) Validate(p *model.Problems) {
	in.Email = model.NormalizeEmail(in.Email)
	if p.CheckLength(in.Email, model.EmailLength.Min, model.EmailLength.Max, "email") {
		p.CheckEmail(in.Email, "email")
	}
	p.CheckLength(in.Password, model.PasswordLength.Min, model.PasswordLength.Max, "password")
	in.OrganizationName = strings.TrimSpace(in.OrganizationName)
	p.CheckText(in.OrganizationName, model.NameLength, "organization_name")
	portal.CheckSlug(p, in.OrganizationSlug, "organization_slug")
}

// LoginInput signs a user in.
type LoginInput struct {
	Email    string `json:"email" required:"true"`
	Password string `json:"password" required:"true"`
}

// Validate normalizes the input and records every problem.
func (in *LoginInput) Validate(p *model.Problems) {
	in.Email = model.NormalizeEmail(in.Email)
	p.CheckText(in.Email, model.EmailLength, "email")
	p.CheckLength(in.Password, model.PasswordLength.Min, model.PasswordLength.Max, "password")
}

// Signup creates a user, an organization they own, and their first token.
func (s *Service) Signup(ctx context.Context, in SignupInput) (*AuthPayload, error) {
	if err := s.admit(ctx, in.Validate, &in.Email); err != nil {
		return nil, err
	}
	release, err := s.hashing.acquire(ctx)
	if err != nil {
		return nil, err
	}
	hash, err := secret.HashPassword(in.Password, s.cfg.PasswordParams)
	release()
	if err != nil {
		return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	now := s.now()
	u := &model.User{ID: model.NewID(), Email: in.Email, PasswordHash: hash, CreatedAt: now}
	var org *portal.OrganizationView
	err = s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if err := tx.Users().Create(ctx, u); err != nil {
			return err
		}
		var err error
		if org, err = s.cfg.Portal.Found(ctx, tx, u.ID, in.OrganizationName, in.OrganizationSlug, now); err != nil {
			return err
		}
		return s.cfg.Trail.Record(ctx, tx, &org.ID, userActor(u.ID), model.ActionSignup, "user", u.ID.String())
	})
	if err != nil {
		return nil, err
	}
	token, ttl, err := s.issueToken(u.ID)
	if err != nil {
		return nil, err
	}
	return &AuthPayload{AccessToken: token, TokenType: "bearer", ExpiresIn: ttl, User: userView(u), Organization: org}, nil
}

// admit validates a sign-in request (validate normalizes it, the e-mail
// included) and counts the attempt against the limits of its client
// address and e-mail.
func (s *Service) admit(ctx context.Context, validate func(*model.Problems), email *string) error {
	var p model.Problems
	validate(&p)
	if err := p.Err(); err != nil {
		return err
	}
	return s.guardAttempt(ctx, *email)
}

// dummyHash is checked against when the e-mail is unknown, so that a login
// takes the same time whether or not the address has an account.
var dummyHash, _ = secret.HashPassword("not a real password", secret.DefaultPasswordParams)

const badLogin = "incorrect email or password"

// Login checks a password and issues a token. Wrong e-mail and wrong
// password get the same answer; failures are audited. Attempts are limited
// per client address and per e-mail (known or not) before any password is
// hashed, and hashing waits for a bounded slot.
func (s *Service) Login(ctx context.Context, in LoginInput) (*AuthPayload, error) {
	if err := s.admit(ctx, in.Validate, &in.Email); err != nil {
		return nil, err
	}
	u, err := s.st.Users().ByEmail(ctx, in.Email)
	if err != nil && model.ErrorCodeOf(err) != model.CodeNotFound {
		return nil, err
	}
	release, err := s.hashing.acquire(ctx)
	if err != nil {
		return nil, err
	}
	if u == nil || u.ID == uuid.Nil {
		_, _ = secret.CheckPassword(in.Password, dummyHash)
		release()
		if err := s.auditLogin(ctx, nil, model.ActionLoginFailed, "email", in.Email); err != nil {
			return nil, err
		}
		return nil, model.Errorf(model.CodeUnauthenticated, badLogin)
	}
	ok, err := secret.CheckPassword(in.Password, u.PasswordHash)
	release()
	if err != nil {
		return nil, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	if !ok {
		// Whoever failed is unknown: the attempt goes to the system chain,
		// so that guessing a member's password cannot flood the
		// organization's chain.
		if err := s.auditLogin(ctx, nil, model.ActionLoginFailed, "user", u.ID.String()); err != nil {
			return nil, err
		}
		return nil, model.Errorf(model.CodeUnauthenticated, badLogin)
	}
	if err := s.auditLogin(ctx, u, model.ActionLogin, "user", u.ID.String()); err != nil {
		return nil, err
	}
	orgs, err := s.cfg.Portal.AllOrganizations(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	token, ttl, err := s.issueToken(u.ID)
	if err != nil {
		return nil, err
	}
	return &AuthPayload{AccessToken: token, TokenType: "bearer", ExpiresIn: ttl, User: userView(u), Organizations: orgs}, nil
}

// auditLogin records a login in every organization of the user (u nil: a
// failed attempt by an unknown actor, recorded in the system chain).
func (s *Service) auditLogin(ctx context.Context, u *model.User, action, targetType, targetID string) error {
	return s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if u == nil {
			return s.cfg.Trail.Record(ctx, tx, nil, model.Ref{Type: "anonymous", ID: ""}, action, targetType, targetID)
		}
		return s.auditUser(ctx, tx, u.ID, action, targetType, targetID)
	})
}

// auditUser records an action of a user about themselves (login, logout)
// in every organization of the user, or in the system chain when they have
// none.
func (s *Service) auditUser(ctx context.Context, tx *store.Store, userID uuid.UUID, action, targetType, targetID string) error {
	ids, err := tx.Organizations().IDs(ctx, userID)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return s.cfg.Trail.Record(ctx, tx, nil, userActor(userID), action, targetType, targetID)
	}
	for _, id := range ids {
		if err := s.cfg.Trail.Record(ctx, tx, &id, userActor(userID), action, targetType, targetID); err != nil {
			return err
		}
	}
	return nil
}

const tokenIssuer = "einvoice"

func (s *Service) issueToken(userID uuid.UUID) (string, int, error) {
	now := s.now()
	claims := jwt.RegisteredClaims{
		Issuer:    tokenIssuer,
		Subject:   userID.String(),
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(s.cfg.TokenTTL)),
		ID:        model.NewID().String(),
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.cfg.JWTSecret)
	if err != nil {
		return "", 0, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return token, int(s.cfg.TokenTTL / time.Second), nil
}

// AuthenticateToken verifies a portal access token (HS256 only, issuer,
// expiry and token id checked, not revoked) and returns its user. It reads
// no database on the way: revocations come from a copy refreshed at most
// every RevocationCacheTTL.
func (s *Service) AuthenticateToken(ctx context.Context, token string) (*model.Principal, error) {
	claims := new(jwt.RegisteredClaims)
	_, err := jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return s.cfg.JWTSecret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(tokenIssuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(s.cfg.Now),
	)
	if err != nil {
		return nil, model.Errorf(model.CodeUnauthenticated, "invalid or expired access token")
	}
	id, err := uuid.Parse(claims.Subject)
	if err != nil {
		return nil, model.Errorf(model.CodeUnauthenticated, "invalid or expired access token")
	}
	jti, err := uuid.Parse(claims.ID)
	if err != nil {
		return nil, model.Errorf(model.CodeUnauthenticated, "invalid or expired access token")
	}
	revoked, err := s.revoked.revoked(ctx, jti)
	if err != nil {
		return nil, err
	}
	if revoked {
		return nil, model.Errorf(model.CodeUnauthenticated, "invalid or expired access token")
	}
	return &model.Principal{UserID: id, TokenID: jti, TokenExpiresAt: claims.ExpiresAt.Time}, nil
}

// Me returns the authenticated user.
func (s *Service) Me(ctx context.Context, who *model.Principal) (*UserView, error) {
	usr, err := s.st.Users().ByID(ctx, who.UserID)
	if err != nil {
		if model.ErrorCodeOf(err) == model.CodeNotFound {
			return nil, model.Errorf(model.CodeUnauthenticated, "invalid or expired access token")
		}
		return nil, err
	}
	v := userView(usr)
	return &v, nil
}

func userActor(id uuid.UUID) model.Ref { return model.Ref{Type: "user", ID: id.String()} }
