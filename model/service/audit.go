package service

import (
	"context"
	"encoding/base64"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// audit appends one entry to an organization's chain inside tx.
func (s *Service) audit(ctx context.Context, tx *store.Store, org *uuid.UUID, actor Ref, action, targetType, targetID string) error {
	meta := model.RequestMetaFrom(ctx)
	e := &model.AuditLog{
		ID:             newID(),
		OrganizationID: org,
		ActorType:      actor.Type,
		ActorID:        actor.ID,
		Action:         action,
		TargetType:     targetType,
		TargetID:       targetID,
		IP:             meta.IP,
		UserAgent:      truncate(meta.UserAgent, 512),
		RequestID:      meta.RequestID,
		CreatedAt:      s.now(),
	}
	return tx.Audit().Append(ctx, e, s.cfg.AuditKey)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// AuditInput filters an audit-log listing.
type AuditInput struct {
	OrganizationID string
	Action         string
	PageInput
}

// auditActions are the actions a listing may filter on.
var auditActions = []string{
	model.ActionSignup, model.ActionLogin, model.ActionLoginFailed, model.ActionLogout, model.ActionOrganizationCreate,
	model.ActionProjectCreate, model.ActionProjectUpdate, model.ActionKeyCreate, model.ActionKeyRotate, model.ActionKeyRevoke,
	model.ActionAuthorityUpdate, model.ActionCertificationStart, model.ActionSessionReuse,
}

// AuditActions lists the actions an audit listing may filter on.
func (s *Service) AuditActions() []string { return append([]string(nil), auditActions...) }

// AuditLogs lists entries of the caller's organizations, newest first.
func (s *Service) AuditLogs(ctx context.Context, u *UserPrincipal, in AuditInput) (*List[AuditView], error) {
	var p model.Problems
	page := in.PageInput.validate(&p)
	var orgID uuid.UUID
	if in.OrganizationID != "" {
		orgID = p.CheckUUID(in.OrganizationID, "organization_id")
	}
	if in.Action != "" {
		p.CheckEnum(in.Action, auditActions, "action")
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	var ids []uuid.UUID
	if orgID != uuid.Nil {
		if _, err := s.store.Organizations().Get(ctx, orgID, u.UserID); err != nil {
			return nil, err
		}
		ids = []uuid.UUID{orgID}
	} else {
		var err error
		if ids, err = s.store.Organizations().IDs(ctx, u.UserID); err != nil {
			return nil, err
		}
	}
	rows, more, err := s.store.Audit().List(ctx, store.AuditFilter{OrganizationIDs: ids, Action: in.Action}, page)
	if err != nil {
		return nil, err
	}
	out := &List[AuditView]{Items: make([]AuditView, 0, len(rows))}
	for _, r := range rows {
		out.Items = append(out.Items, AuditView{
			ID: r.ID, OrganizationID: r.OrganizationID, Actor: Ref{Type: r.ActorType, ID: r.ActorID},
			Action: r.Action, Target: Ref{Type: r.TargetType, ID: r.TargetID}, IP: r.IP, UserAgent: r.UserAgent,
			RequestID: r.RequestID, CreatedAt: r.CreatedAt.UTC(), Hash: r.Hash, PrevHash: r.PrevHash,
		})
	}
	if more {
		out.NextCursor = cursorFor(rows[len(rows)-1].ID)
	}
	return out, nil
}

// AuditChainView tells whether an organization's audit chain verifies.
type AuditChainView struct {
	OrganizationID uuid.UUID `json:"organization_id"`
	// Valid is true when every entry carries the keyed hash of its fields
	// and links to the one before, and the chain's head names its newest
	// entry.
	Valid bool `json:"valid"`
	// Entries is how many entries the chain holds.
	Entries int64 `json:"entries"`
	// HeadSeq and HeadHash are the chain's recorded head (0 and "" for an
	// empty chain). Keep them: a later head that does not reach them again
	// means entries were removed.
	HeadSeq  int64  `json:"head_seq"`
	HeadHash string `json:"head_hash"`
	// Problem says why the chain does not verify; BrokenEntryID names the
	// first entry at fault, when one is.
	Problem       *string    `json:"problem"`
	BrokenEntryID *uuid.UUID `json:"broken_entry_id"`
	VerifiedAt    time.Time  `json:"verified_at"`
}

// auditVerifyTTL is how long a verification is reused: verifying reads the
// whole chain, so each organization's is done at most once per interval
// per process, however many callers ask.
const auditVerifyTTL = 10 * time.Second

// AuditChain verifies one of the caller's organizations' audit chain.
func (s *Service) AuditChain(ctx context.Context, u *UserPrincipal, orgID uuid.UUID) (*AuditChainView, error) {
	if _, err := s.store.Organizations().Get(ctx, orgID, u.UserID); err != nil {
		return nil, err
	}
	key := orgID.String()
	s.auditChecks.mu.Lock()
	if c, ok := s.auditChecks.done[key]; ok && s.cfg.Now().Before(c.VerifiedAt.Add(auditVerifyTTL)) {
		s.auditChecks.mu.Unlock()
		v := *c
		return &v, nil
	}
	s.auditChecks.mu.Unlock()
	// Concurrent callers share one verification, which outlives any of
	// them (bounded by its own timeout).
	ch := s.auditChecks.group.DoChan(key, func() (any, error) {
		vctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		chk, err := s.store.Audit().Verify(vctx, &orgID, s.cfg.AuditKey)
		if err != nil {
			return nil, err
		}
		v := chainView(orgID, chk, s.now())
		s.auditChecks.mu.Lock()
		if len(s.auditChecks.done) > 10000 {
			clear(s.auditChecks.done)
		}
		s.auditChecks.done[key] = v
		s.auditChecks.mu.Unlock()
		return v, nil
	})
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		v := *r.Val.(*AuditChainView)
		return &v, nil
	}
}

func chainView(orgID uuid.UUID, c *store.AuditChainCheck, at time.Time) *AuditChainView {
	v := &AuditChainView{OrganizationID: orgID, Valid: c.Valid(), Entries: c.Entries, VerifiedAt: at}
	if c.Head != nil {
		v.HeadSeq, v.HeadHash = c.Head.Seq, c.Head.Hash
	}
	if !c.Valid() {
		p := c.Problem
		v.Problem, v.BrokenEntryID = &p, c.BrokenAt
	}
	return v
}

// auditChecks remembers recent chain verifications.
type auditChecks struct {
	group singleflight.Group
	mu    sync.Mutex
	done  map[string]*AuditChainView
}

// RechainAudit re-chains entries written before the audit chain was keyed
// under the audit key (see store.RechainAudit).
func (s *Service) RechainAudit(ctx context.Context) (int64, error) {
	return s.store.Audit().Rechain(ctx, s.cfg.AuditKey)
}

// PageInput is a list request's limit and cursor as given by the client.
type PageInput struct {
	Limit  *int
	Cursor string
}

// validate checks limit (1..200, default 50) and decodes the cursor.
func (in PageInput) validate(p *model.Problems) model.Page {
	page := model.Page{Limit: model.DefaultPageLimit}
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > model.MaxPageLimit {
			p.Add(model.ProblemValueError, "Input should be between 1 and 200", "limit")
		} else {
			page.Limit = *in.Limit
		}
	}
	if in.Cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(strings.TrimSpace(in.Cursor))
		var id uuid.UUID
		if err == nil && len(b) == 16 {
			copy(id[:], b)
		}
		if id == uuid.Nil {
			p.Add(model.ProblemValueError, "Input should be a cursor returned by a previous page", "cursor")
		}
		page.After = id
	}
	return page
}

func cursorFor(id uuid.UUID) *string {
	c := base64.RawURLEncoding.EncodeToString(id[:])
	return &c
}
