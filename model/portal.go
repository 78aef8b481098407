package model

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Role is a user's role in an organization.
type Role string

// Roles, strongest first.
const (
	RoleOwner  Role = "owner"
	RoleAdmin  Role = "admin"
	RoleMember Role = "member"
)

// Environment is where a project's invoices go.
type Environment string

// Environments.
const (
	EnvironmentSandbox    Environment = "sandbox"
	EnvironmentProduction Environment = "production"
)

// Environments lists the accepted environments.
var Environments = []string{string(EnvironmentSandbox), string(EnvironmentProduction)}

// User is a person who signs in to the portal.
type User struct {
	bun.BaseModel `bun:"table:users"`

	ID           uuid.UUID `bun:"id,pk" json:"id"`
	Email        string    `bun:"email" json:"email"`
	PasswordHash string    `bun:"password_hash" json:"-"`
	CreatedAt    time.Time `bun:"created_at" json:"created_at"`
}

// RevokedToken is a portal access token revoked before its expiry (by
// logout). The row is kept until the token would have expired anyway.
type RevokedToken struct {
	bun.BaseModel `bun:"table:revoked_tokens"`

	TokenID   uuid.UUID `bun:"token_id,pk"`
	UserID    uuid.UUID `bun:"user_id"`
	RevokedAt time.Time `bun:"revoked_at"`
	ExpiresAt time.Time `bun:"expires_at"`
}

// Organization is a tenant: it owns projects and their keys.
type Organization struct {
	bun.BaseModel `bun:"table:organizations"`

	ID        uuid.UUID `bun:"id,pk" json:"id"`
	Name      string    `bun:"name" json:"name"`
	Slug      string    `bun:"slug" json:"slug"`
	CreatedAt time.Time `bun:"created_at" json:"created_at"`
	// Role is the caller's role, filled by queries that join memberships.
	Role Role `bun:"role,scanonly" json:"role"`
}

// Membership links a user to an organization with a role.
type Membership struct {
	bun.BaseModel `bun:"table:memberships"`

	OrganizationID uuid.UUID `bun:"organization_id,pk"`
	UserID         uuid.UUID `bun:"user_id,pk"`
	Role           Role      `bun:"role"`
	CreatedAt      time.Time `bun:"created_at"`
}
