package model

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// PortalSession is one refresh token of a portal sign-in. The browser holds
// the token in an HttpOnly cookie; the database keeps only its keyed hash.
// Every refresh rotates it: the row is marked rotated and its successor joins
// the same family, so a family is one sign-in from login to logout.
type PortalSession struct {
	bun.BaseModel `bun:"table:portal_sessions"`

	ID        uuid.UUID `bun:"id,pk"`
	FamilyID  uuid.UUID `bun:"family_id"`
	UserID    uuid.UUID `bun:"user_id"`
	TokenHash string    `bun:"token_hash"`
	CreatedAt time.Time `bun:"created_at"`
	// ExpiresAt ends this token if it is not used before (idle timeout).
	ExpiresAt time.Time `bun:"expires_at"`
	// FamilyExpiresAt ends the sign-in however often it is refreshed.
	FamilyExpiresAt time.Time  `bun:"family_expires_at"`
	RotatedAt       *time.Time `bun:"rotated_at"`
	RevokedAt       *time.Time `bun:"revoked_at"`
}
