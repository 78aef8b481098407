package service

import (
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// UserView is a user as clients see it.
type UserView struct {
	ID        uuid.UUID `json:"id"`
	Email     string    `json:"email"`
	CreatedAt time.Time `json:"created_at"`
}

func userView(u *model.User) UserView {
	return UserView{ID: u.ID, Email: u.Email, CreatedAt: u.CreatedAt.UTC()}
}

// OrganizationView is an organization with the caller's role.
type OrganizationView struct {
	ID        uuid.UUID  `json:"id"`
	Name      string     `json:"name"`
	Slug      string     `json:"slug"`
	Role      model.Role `json:"role"`
	CreatedAt time.Time  `json:"created_at"`
}

func orgView(o *model.Organization) OrganizationView {
	return OrganizationView{ID: o.ID, Name: o.Name, Slug: o.Slug, Role: o.Role, CreatedAt: o.CreatedAt.UTC()}
}

// AuthPayload answers signup and login.
type AuthPayload struct {
	AccessToken   string             `json:"access_token"`
	TokenType     string             `json:"token_type"`
	ExpiresIn     int                `json:"expires_in"`
	User          UserView           `json:"user"`
	Organization  *OrganizationView  `json:"organization,omitempty"`
	Organizations []OrganizationView `json:"organizations,omitempty"`
}

// AuthorityView is a project's authority settings without secrets.
type AuthorityView struct {
	TaxAuthorityCode     string  `json:"tax_authority_code"`
	BusinessID           *string `json:"business_id"`
	ServiceID            *string `json:"service_id"`
	Configured           bool    `json:"configured"`
	QREncryption         string  `json:"qr_encryption"`
	PublicKeyFingerprint *string `json:"public_key_fingerprint"`
	BaseURL              *string `json:"base_url"`
	HasAPICredentials    bool    `json:"has_api_credentials"`
}

// ProjectView is a project as clients see it.
type ProjectView struct {
	ID             uuid.UUID         `json:"id"`
	OrganizationID uuid.UUID         `json:"organization_id"`
	Name           string            `json:"name"`
	Environment    model.Environment `json:"environment"`
	// ValidationProfile is the profile invoices are validated with when a
	// request names none: nrs (default) or strict.
	ValidationProfile model.ValidationProfile `json:"validation_profile"`
	CreatedAt         time.Time               `json:"created_at"`
	Authority         AuthorityView           `json:"authority"`
}

// KeyView is an API key without its secret.
type KeyView struct {
	ID          uuid.UUID       `json:"id"`
	ProjectID   uuid.UUID       `json:"project_id"`
	KeyName     string          `json:"key_name"`
	ClientID    string          `json:"client_id"`
	SecretLast4 string          `json:"secret_last4"`
	Scopes      []model.Scope   `json:"scopes"`
	Status      model.KeyStatus `json:"status"`
	CreatedAt   time.Time       `json:"created_at"`
	LastUsedAt  *time.Time      `json:"last_used_at"`
	RotatedAt   *time.Time      `json:"rotated_at,omitempty"`
	RevokedAt   *time.Time      `json:"revoked_at,omitempty"`
}

// KeyWithSecret is a key as answered by create and rotate: the only time the
// secret is ever shown.
type KeyWithSecret struct {
	KeyView
	ClientSecret string `json:"client_secret"`
}

// RevokedKey answers a revocation.
type RevokedKey struct {
	ID        uuid.UUID       `json:"id"`
	Status    model.KeyStatus `json:"status"`
	RevokedAt time.Time       `json:"revoked_at"`
}

// Ref names an actor or a target of an audit entry.
type Ref struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// AuditView is one audit entry as clients see it.
type AuditView struct {
	ID             uuid.UUID  `json:"id"`
	OrganizationID *uuid.UUID `json:"organization_id"`
	Actor          Ref        `json:"actor"`
	Action         string     `json:"action"`
	Target         Ref        `json:"target"`
	IP             string     `json:"ip"`
	UserAgent      string     `json:"user_agent"`
	RequestID      string     `json:"request_id"`
	CreatedAt      time.Time  `json:"created_at"`
	Hash           string     `json:"hash"`
	PrevHash       string     `json:"prev_hash"`
}

// List is one page of items and the cursor of the next page (nil at the end).
type List[T any] struct {
	Items      []T     `json:"items"`
	NextCursor *string `json:"next_cursor"`
}
