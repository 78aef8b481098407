package service

import (
	"context"
	"encoding/base64"
	"strings"

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
	return tx.AppendAudit(ctx, e)
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
		if _, err := s.store.OrganizationForUser(ctx, orgID, u.UserID); err != nil {
			return nil, err
		}
		ids = []uuid.UUID{orgID}
	} else {
		var err error
		if ids, err = s.store.AllOrganizationIDsForUser(ctx, u.UserID); err != nil {
			return nil, err
		}
	}
	rows, more, err := s.store.AuditLogs(ctx, store.AuditFilter{OrganizationIDs: ids, Action: in.Action}, page)
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

// VerifyAuditChain checks an organization's audit chain.
func (s *Service) VerifyAuditChain(ctx context.Context, orgID uuid.UUID) error {
	return s.store.VerifyAuditChain(ctx, &orgID)
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
