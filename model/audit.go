package model

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Audit actions. Every portal mutation writes one entry.
const (
	ActionSignup             = "signup"
	ActionLogin              = "login"
	ActionLoginFailed        = "login_failed"
	ActionLogout             = "logout"
	ActionOrganizationCreate = "organization.create"
	ActionProjectCreate      = "project.create"
	ActionProjectUpdate      = "project.update"
	ActionKeyCreate          = "key.create"
	ActionKeyRotate          = "key.rotate"
	ActionKeyRevoke          = "key.revoke"
	ActionAuthorityUpdate    = "authority.update"
	ActionCertificationStart = "certification.start"
)

// AuditLog is one append-only entry. Hash chains entries per organization:
// Hash = SHA-256(PrevHash || canonical fields), so an edited or removed entry
// breaks every later hash.
type AuditLog struct {
	bun.BaseModel `bun:"table:audit_logs"`

	ID             uuid.UUID  `bun:"id,pk"`
	OrganizationID *uuid.UUID `bun:"organization_id"`
	Seq            int64      `bun:"seq"`
	ActorType      string     `bun:"actor_type"`
	ActorID        string     `bun:"actor_id"`
	Action         string     `bun:"action"`
	TargetType     string     `bun:"target_type"`
	TargetID       string     `bun:"target_id"`
	IP             string     `bun:"ip"`
	UserAgent      string     `bun:"user_agent"`
	RequestID      string     `bun:"request_id"`
	CreatedAt      time.Time  `bun:"created_at"`
	PrevHash       string     `bun:"prev_hash"`
	Hash           string     `bun:"hash"`
}

// UsageCounter counts calls of one operation by one key on one day.
type UsageCounter struct {
	bun.BaseModel `bun:"table:usage_counters"`

	ProjectID uuid.UUID `bun:"project_id,pk"`
	KeyID     uuid.UUID `bun:"key_id,pk"`
	Operation string    `bun:"operation,pk"`
	Day       string    `bun:"day,pk"` // YYYY-MM-DD, UTC
	Count     int64     `bun:"count"`
}

// RequestMeta describes the request behind a change, for the audit log.
type RequestMeta struct {
	IP        string
	UserAgent string
	RequestID string
}

type requestMetaKey struct{}

// WithRequestMeta stores the request's metadata in ctx for the audit log.
func WithRequestMeta(ctx context.Context, m RequestMeta) context.Context {
	return context.WithValue(ctx, requestMetaKey{}, m)
}

// RequestMetaFrom returns the metadata stored by WithRequestMeta.
func RequestMetaFrom(ctx context.Context) RequestMeta {
	m, _ := ctx.Value(requestMetaKey{}).(RequestMeta)
	return m
}

// ComputeHash returns the chain hash of the entry: SHA-256 over the previous
// hash and every canonical field, each length-prefixed so that no two
// different entries share an encoding.
func (e *AuditLog) ComputeHash() string {
	org := ""
	if e.OrganizationID != nil {
		org = e.OrganizationID.String()
	}
	h := sha256.New()
	for _, f := range []string{
		e.PrevHash, e.ID.String(), org, strconv.FormatInt(e.Seq, 10),
		e.ActorType, e.ActorID, e.Action, e.TargetType, e.TargetID,
		e.IP, e.UserAgent, e.RequestID, e.CreatedAt.UTC().Format(time.RFC3339Nano),
	} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Audit actions of portal sessions (see model.PortalSession).
const (
	// ActionSessionReuse records a refresh token shown again after it was
	// rotated: the whole session is revoked, since one of the two holders
	// may be a thief.
	ActionSessionReuse = "session.reuse"
)
