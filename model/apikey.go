package model

import (
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Scope is a permission an API key can hold.
type Scope string

// Scopes.
const (
	ScopeInvoicesValidate Scope = "invoices:validate"
	ScopeIRNGenerate      Scope = "irn:generate"
	ScopeIRNValidate      Scope = "irn:validate"
	ScopeQRGenerate       Scope = "qr:generate"
	ScopeInvoicesRender   Scope = "invoices:render"
	ScopeCertificationRun Scope = "certification:run"
	ScopeCertificationRd  Scope = "certification:read"
	ScopeUsageRead        Scope = "usage:read"
	ScopeEventsRead       Scope = "events:read"
)

// AllScopes lists every scope in the contract's order.
var AllScopes = []Scope{
	ScopeInvoicesValidate, ScopeIRNGenerate, ScopeIRNValidate, ScopeQRGenerate,
	ScopeInvoicesRender, ScopeCertificationRun, ScopeCertificationRd, ScopeUsageRead, ScopeEventsRead,
}

// ScopeNames lists every scope as strings.
func ScopeNames() []string {
	out := make([]string, len(AllScopes))
	for i, s := range AllScopes {
		out[i] = string(s)
	}
	return out
}

// Scopes is a set of scopes stored as one space-separated string.
type Scopes []Scope

// Has reports whether s holds scope.
func (s Scopes) Has(scope Scope) bool {
	for _, x := range s {
		if x == scope {
			return true
		}
	}
	return false
}

// String joins the scopes with spaces.
func (s Scopes) String() string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = string(x)
	}
	return strings.Join(parts, " ")
}

// ParseScopes splits a space-separated scope string.
func ParseScopes(v string) Scopes {
	var out Scopes
	for _, f := range strings.Fields(v) {
		out = append(out, Scope(f))
	}
	return out
}

// KeyStatus is the state of an API key.
type KeyStatus string

// Key states.
const (
	KeyActive  KeyStatus = "active"
	KeyRevoked KeyStatus = "revoked"
)

// APIKey is a credential pair (client id + secret) of a project. Only keyed
// hashes of secrets are stored.
type APIKey struct {
	bun.BaseModel `bun:"table:api_keys"`

	ID                  uuid.UUID  `bun:"id,pk"`
	ProjectID           uuid.UUID  `bun:"project_id"`
	KeyName             string     `bun:"key_name"`
	ClientID            string     `bun:"client_id"`
	SecretHash          []byte     `bun:"secret_hash"`
	SecretLast4         string     `bun:"secret_last4"`
	PrevSecretHash      []byte     `bun:"prev_secret_hash,nullzero"`
	PrevSecretExpiresAt *time.Time `bun:"prev_secret_expires_at"`
	Scopes              string     `bun:"scopes"`
	Status              KeyStatus  `bun:"status"`
	CreatedAt           time.Time  `bun:"created_at"`
	RotatedAt           *time.Time `bun:"rotated_at"`
	RevokedAt           *time.Time `bun:"revoked_at"`
	LastUsedAt          *time.Time `bun:"last_used_at"`
}
