package service

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/secret"
	"github.com/einvoice-ng/einvoice/model/store"
)

var slugRE = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

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
	checkSlug(p, in.OrganizationSlug, "organization_slug")
}

func checkSlug(p *model.Problems, slug string, loc ...any) {
	if p.CheckLength(slug, model.SlugLength.Min, model.SlugLength.Max, loc...) {
		p.CheckPattern(slug, slugRE, loc...)
	}
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
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	if err := s.guardAttempt(ctx, in.Email); err != nil {
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
	u := &model.User{ID: newID(), Email: in.Email, PasswordHash: hash, CreatedAt: now}
	o := &model.Organization{ID: newID(), Name: in.OrganizationName, Slug: in.OrganizationSlug, CreatedAt: now, Role: model.RoleOwner}
	err = s.store.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if err := tx.Users().Create(ctx, u); err != nil {
			return err
		}
		if err := tx.Organizations().Create(ctx, o, &model.Membership{OrganizationID: o.ID, UserID: u.ID, Role: model.RoleOwner, CreatedAt: now}); err != nil {
			return err
		}
		return s.audit(ctx, tx, &o.ID, userActor(u.ID), model.ActionSignup, "user", u.ID.String())
	})
	if err != nil {
		return nil, err
	}
	token, ttl, err := s.issueToken(u.ID)
	if err != nil {
		return nil, err
	}
	ov := orgView(o)
	return &AuthPayload{AccessToken: token, TokenType: "bearer", ExpiresIn: ttl, User: userView(u), Organization: &ov}, nil
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
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	if err := s.guardAttempt(ctx, in.Email); err != nil {
		return nil, err
	}
	u, err := s.store.Users().ByEmail(ctx, in.Email)
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
	orgs, err := s.allOrganizations(ctx, u.ID)
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
	return s.store.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if u == nil {
			return s.audit(ctx, tx, nil, Ref{Type: "anonymous", ID: ""}, action, targetType, targetID)
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
		return s.audit(ctx, tx, nil, userActor(userID), action, targetType, targetID)
	}
	for _, id := range ids {
		if err := s.audit(ctx, tx, &id, userActor(userID), action, targetType, targetID); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) allOrganizations(ctx context.Context, userID uuid.UUID) ([]OrganizationView, error) {
	out := []OrganizationView{}
	page := model.Page{Limit: model.MaxPageLimit}
	for {
		orgs, more, err := s.store.Organizations().List(ctx, userID, page)
		if err != nil {
			return nil, err
		}
		for i := range orgs {
			out = append(out, orgView(&orgs[i]))
		}
		if !more {
			return out, nil
		}
		page.After = orgs[len(orgs)-1].ID
	}
}

const tokenIssuer = "einvoice"

func (s *Service) issueToken(userID uuid.UUID) (string, int, error) {
	now := s.now()
	claims := jwt.RegisteredClaims{
		Issuer:    tokenIssuer,
		Subject:   userID.String(),
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(s.cfg.TokenTTL)),
		ID:        newID().String(),
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.cfg.JWTSecret)
	if err != nil {
		return "", 0, model.Wrap(model.CodeInternal, err, "Internal Server Error")
	}
	return token, int(s.cfg.TokenTTL / time.Second), nil
}

// UserPrincipal is an authenticated portal user.
type UserPrincipal struct {
	UserID uuid.UUID
	// TokenID and TokenExpiresAt are the access token's jti and expiry:
	// logout revokes that token, and a WebSocket opened with it ends then.
	TokenID        uuid.UUID
	TokenExpiresAt time.Time
}

// AuthenticateToken verifies a portal access token (HS256 only, issuer,
// expiry and token id checked, not revoked) and returns its user. It reads
// no database on the way: revocations come from a copy refreshed at most
// every RevocationCacheTTL.
func (s *Service) AuthenticateToken(ctx context.Context, token string) (*UserPrincipal, error) {
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
	return &UserPrincipal{UserID: id, TokenID: jti, TokenExpiresAt: claims.ExpiresAt.Time}, nil
}

// Me returns the authenticated user.
func (s *Service) Me(ctx context.Context, u *UserPrincipal) (*UserView, error) {
	usr, err := s.store.Users().ByID(ctx, u.UserID)
	if err != nil {
		if model.ErrorCodeOf(err) == model.CodeNotFound {
			return nil, model.Errorf(model.CodeUnauthenticated, "invalid or expired access token")
		}
		return nil, err
	}
	v := userView(usr)
	return &v, nil
}

func userActor(id uuid.UUID) Ref { return Ref{Type: "user", ID: id.String()} }

type userCtxKey struct{}

// WithUser stores an authenticated user in ctx; transports call it after
// authenticating a bearer token.
func WithUser(ctx context.Context, u *UserPrincipal) context.Context {
	return context.WithValue(ctx, userCtxKey{}, u)
}

// UserFrom returns the user stored by WithUser, or nil.
func UserFrom(ctx context.Context) *UserPrincipal {
	u, _ := ctx.Value(userCtxKey{}).(*UserPrincipal)
	return u
}
