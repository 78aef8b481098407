package model

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// Principal is who is calling: a portal user signed in with an access
// token, or an API key of a project. Every use case of every application
// package takes this one type; the transports authenticate the request and
// put it in the context (WithPrincipal).
//
// A key acts on its own project only, within its scopes. A user acts on the
// organizations they belong to, with their role in each; in the portal's
// workbench a user acts on one project (ProjectID set, every scope, no key,
// so nothing is metered).
type Principal struct {
	// UserID is the portal user; zero for an API key.
	UserID uuid.UUID
	// TokenID and TokenExpiresAt are a user's access token (its jti and
	// expiry): logout revokes that token, and a WebSocket opened with it
	// ends then.
	TokenID        uuid.UUID
	TokenExpiresAt time.Time
	// KeyID is the API key; zero for a user.
	KeyID uuid.UUID
	// ProjectID, OrganizationID and Environment are the project the
	// principal acts on: a key's own, or the one a user's workbench works
	// on; zero for a user elsewhere.
	ProjectID      uuid.UUID
	OrganizationID uuid.UUID
	Environment    Environment
	// Scopes are what the principal may do on ProjectID.
	Scopes Scopes
}

// IsKey reports whether the principal is an API key.
func (p *Principal) IsKey() bool { return p != nil && p.KeyID != uuid.Nil }

// Require fails with forbidden unless the principal holds scope.
func (p *Principal) Require(scope Scope) error {
	if !p.Scopes.Has(scope) {
		return Errorf(CodeForbidden, "this API key lacks the %q scope", scope)
	}
	return nil
}

// Actor names the principal in the audit log.
func (p *Principal) Actor() Ref {
	if p.IsKey() {
		return Ref{Type: "api_key", ID: p.KeyID.String()}
	}
	return Ref{Type: "user", ID: p.UserID.String()}
}

// Ref names an actor or a target of an audit entry.
type Ref struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

type principalKey struct{}

// WithPrincipal stores an authenticated principal in ctx; the transports
// call it after authenticating a request.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal stored by WithPrincipal, or nil.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// NewID returns a UUIDv7: time-ordered, so that id order is creation order.
func NewID() uuid.UUID {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.New()
	}
	return id
}

// StoredTime is t at the precision the databases keep (microseconds, UTC),
// so that an answer and a later read of the same object agree.
func StoredTime(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// UTC is *t in UTC, or nil, for the optional times of views.
func UTC(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
