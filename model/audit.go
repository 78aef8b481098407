package model

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
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
	ActionSandboxFaultSet    = "sandbox_fault.set"
	ActionSandboxFaultClear  = "sandbox_fault.clear"
	ActionWebhookCreate      = "webhook_endpoint.create"
	ActionWebhookUpdate      = "webhook_endpoint.update"
	ActionWebhookDelete      = "webhook_endpoint.delete"
	ActionWebhookRotate      = "webhook_endpoint.rotate_secret"
	ActionWebhookTest        = "webhook_endpoint.test"
	ActionWebhookDisable     = "webhook_endpoint.disable"
	ActionEventRedeliver     = "event.redeliver"
)

// Audit hash versions. Entries written before the chain was keyed are
// version 1 until the upgrade re-chains them.
const (
	AuditHashUnkeyed = 1 // SHA-256 of the canonical fields
	AuditHashKeyed   = 2 // HMAC-SHA-256 under the audit key
)

// AuditLog is one append-only entry. Hash chains entries per organization
// (the system chain holds entries of no organization): Hash =
// HMAC-SHA-256(audit key, PrevHash || canonical fields), so an edited or
// removed entry breaks every later hash, and without the key, which lives
// outside the database, no one can write a chain that verifies.
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
	HashVersion    int16      `bun:"hash_version"`
}

// AuditHead is the newest entry of a chain, kept beside the entries and
// updated in the same transaction: removing the newest entries of a chain
// leaves a head they no longer reach. Mac authenticates the head under the
// audit key.
type AuditHead struct {
	bun.BaseModel `bun:"table:audit_heads"`

	Chain     string    `bun:"chain,pk"` // SystemChain or an organization id
	Seq       int64     `bun:"seq"`
	Hash      string    `bun:"hash"`
	Mac       string    `bun:"mac"`
	UpdatedAt time.Time `bun:"updated_at"`
}

// NewAuditLog is an entry of an organization's chain (nil: the system
// chain) saying actor did action to target at at, from the request in ctx
// (its address, user agent and id). The store chains it when appending it.
func NewAuditLog(ctx context.Context, org *uuid.UUID, actor Ref, action string, target Ref, at time.Time) *AuditLog {
	meta := RequestMetaFrom(ctx)
	ua := meta.UserAgent
	if len(ua) > maxUserAgent {
		ua = ua[:maxUserAgent]
	}
	return &AuditLog{
		ID: NewID(), OrganizationID: org, ActorType: actor.Type, ActorID: actor.ID, Action: action,
		TargetType: target.Type, TargetID: target.ID, IP: meta.IP, UserAgent: ua, RequestID: meta.RequestID,
		CreatedAt: at,
	}
}

// maxUserAgent bounds the user agent an audit entry keeps.
const maxUserAgent = 512

// SystemChain names the chain of entries of no organization (failed logins,
// users without one).
const SystemChain = "system"

// AuditChainOf names the chain of an organization (nil: the system chain).
func AuditChainOf(org *uuid.UUID) string {
	if org == nil {
		return SystemChain
	}
	return org.String()
}

// HeadMAC authenticates a chain's head: HMAC-SHA-256 under key of the
// chain, the newest entry's sequence number and hash.
func HeadMAC(key []byte, chain string, seq int64, hash string) string {
	m := hmac.New(sha256.New, key)
	writeFields(m, "audit-head", chain, strconv.FormatInt(seq, 10), hash)
	return hex.EncodeToString(m.Sum(nil))
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

// fields are the entry's canonical fields, in hashing order.
func (e *AuditLog) fields() []string {
	org := ""
	if e.OrganizationID != nil {
		org = e.OrganizationID.String()
	}
	return []string{
		e.PrevHash, e.ID.String(), org, strconv.FormatInt(e.Seq, 10),
		e.ActorType, e.ActorID, e.Action, e.TargetType, e.TargetID,
		e.IP, e.UserAgent, e.RequestID, e.CreatedAt.UTC().Format(time.RFC3339Nano),
	}
}

// writeFields writes each field length-prefixed, so that no two different
// lists share an encoding.
func writeFields(h hash.Hash, fields ...string) {
	for _, f := range fields {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write([]byte(f))
	}
}

// ComputeHash returns the entry's hash in the form of its HashVersion: the
// keyed HMAC under key, or for an entry written before the chain was keyed
// the plain SHA-256 of the same fields.
func (e *AuditLog) ComputeHash(key []byte) string {
	var h hash.Hash
	if e.HashVersion == AuditHashUnkeyed {
		h = sha256.New()
	} else {
		h = hmac.New(sha256.New, key)
	}
	writeFields(h, e.fields()...)
	return hex.EncodeToString(h.Sum(nil))
}

// Audit actions of portal sessions (see model.PortalSession).
const (
	// ActionSessionReuse records a refresh token shown again after it was
	// rotated: the whole session is revoked, since one of the two holders
	// may be a thief.
	ActionSessionReuse = "session.reuse"
)
