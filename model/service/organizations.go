package service

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// OrganizationInput creates an organization.
type OrganizationInput struct {
	Name string `json:"name" required:"true"`
	Slug string `json:"slug" required:"true"`
}

// Validate normalizes the input and records every problem.
func (in *OrganizationInput) Validate(p *model.Problems) {
	in.Name = strings.TrimSpace(in.Name)
	p.CheckText(in.Name, model.NameLength, "name")
	checkSlug(p, in.Slug, "slug")
}

// CreateOrganization creates an organization owned by the caller.
func (s *Service) CreateOrganization(ctx context.Context, u *UserPrincipal, in OrganizationInput) (*OrganizationView, error) {
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	now := s.now()
	o := &model.Organization{ID: newID(), Name: in.Name, Slug: in.Slug, CreatedAt: now, Role: model.RoleOwner}
	err := s.store.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if err := s.checkOrganizationQuota(ctx, tx, u.UserID); err != nil {
			return err
		}
		if err := tx.Organizations().Create(ctx, o, &model.Membership{OrganizationID: o.ID, UserID: u.UserID, Role: model.RoleOwner, CreatedAt: now}); err != nil {
			return err
		}
		return s.audit(ctx, tx, &o.ID, userActor(u.UserID), model.ActionOrganizationCreate, "organization", o.ID.String())
	})
	if err != nil {
		return nil, err
	}
	v := orgView(o)
	return &v, nil
}

// Organizations lists the caller's organizations.
func (s *Service) Organizations(ctx context.Context, u *UserPrincipal, in PageInput) (*List[OrganizationView], error) {
	var p model.Problems
	page := in.validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	rows, more, err := s.store.Organizations().List(ctx, u.UserID, page)
	if err != nil {
		return nil, err
	}
	out := &List[OrganizationView]{Items: make([]OrganizationView, 0, len(rows))}
	for i := range rows {
		out.Items = append(out.Items, orgView(&rows[i]))
	}
	if more {
		out.NextCursor = cursorFor(rows[len(rows)-1].ID)
	}
	return out, nil
}

// Organization returns one of the caller's organizations.
func (s *Service) Organization(ctx context.Context, u *UserPrincipal, id uuid.UUID) (*OrganizationView, error) {
	o, err := s.store.Organizations().Get(ctx, id, u.UserID)
	if err != nil {
		return nil, err
	}
	v := orgView(o)
	return &v, nil
}

// requireWriter checks that the caller may change the organization's
// projects and keys (owner or admin). A non-member gets not_found.
func (s *Service) requireWriter(ctx context.Context, tx *store.Store, u *UserPrincipal, orgID uuid.UUID) error {
	o, err := tx.Organizations().Get(ctx, orgID, u.UserID)
	if err != nil {
		return err
	}
	if o.Role != model.RoleOwner && o.Role != model.RoleAdmin {
		return model.Errorf(model.CodeForbidden, "only owners and admins of the organization can do this")
	}
	return nil
}
