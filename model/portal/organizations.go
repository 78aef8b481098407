package portal

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/access"
	"github.com/einvoice-ng/einvoice/model/store"
)

var slugRE = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// CheckSlug records a problem with an organization slug at loc.
func CheckSlug(p *model.Problems, slug string, loc ...any) {
	if p.CheckLength(slug, model.SlugLength.Min, model.SlugLength.Max, loc...) {
		p.CheckPattern(slug, slugRE, loc...)
	}
}

// OrganizationInput creates an organization.
type OrganizationInput struct {
	Name string `json:"name" required:"true"`
	Slug string `json:"slug" required:"true"`
}

// Validate normalizes the input and records every problem.
func (in *OrganizationInput) Validate(p *model.Problems) {
	in.Name = strings.TrimSpace(in.Name)
	p.CheckText(in.Name, model.NameLength, "name")
	CheckSlug(p, in.Slug, "slug")
}

// Found creates an organization owned by userID inside tx, without a
// quota or an audit entry of its own: sign-up founds a new account's first
// organization this way and records the sign-up.
func (s *Service) Found(ctx context.Context, tx *store.Store, userID uuid.UUID, name, slug string, at time.Time) (*OrganizationView, error) {
	o := &model.Organization{ID: model.NewID(), Name: name, Slug: slug, CreatedAt: at, Role: model.RoleOwner}
	if err := tx.Organizations().Create(ctx, o, &model.Membership{OrganizationID: o.ID, UserID: userID, Role: model.RoleOwner, CreatedAt: at}); err != nil {
		return nil, err
	}
	v := orgView(o)
	return &v, nil
}

// CreateOrganization creates an organization owned by the caller.
func (s *Service) CreateOrganization(ctx context.Context, who *model.Principal, in OrganizationInput) (*OrganizationView, error) {
	var p model.Problems
	in.Validate(&p)
	if err := p.Err(); err != nil {
		return nil, err
	}
	var out *OrganizationView
	err := s.st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
		if err := access.Quota(ctx, s.cfg.OrganizationsPerUser, who.UserID, tx.Users().Lock, tx.Organizations().CountOwned,
			"organizations owned per user", "ask the operator for more"); err != nil {
			return err
		}
		var err error
		if out, err = s.Found(ctx, tx, who.UserID, in.Name, in.Slug, s.now()); err != nil {
			return err
		}
		return s.cfg.Trail.Record(ctx, tx, &out.ID, who.Actor(), model.ActionOrganizationCreate, "organization", out.ID.String())
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Organizations lists the caller's organizations.
func (s *Service) Organizations(ctx context.Context, who *model.Principal, in model.PageInput) (*model.List[OrganizationView], error) {
	page, err := in.Page()
	if err != nil {
		return nil, err
	}
	rows, more, err := s.st.Organizations().List(ctx, who.UserID, page)
	if err != nil {
		return nil, err
	}
	return model.ListOf(rows, more, orgID, orgView), nil
}

// AllOrganizations lists every organization of a user, as sign-in answers
// them.
func (s *Service) AllOrganizations(ctx context.Context, userID uuid.UUID) ([]OrganizationView, error) {
	out := []OrganizationView{}
	page := model.Page{Limit: model.MaxPageLimit}
	for {
		orgs, more, err := s.st.Organizations().List(ctx, userID, page)
		if err != nil {
			return nil, err
		}
		for i := range orgs {
			out = append(out, orgView(&orgs[i]))
		}
		if !more {
			return out, nil
		}
		page.After = orgs[len(orgs)-1].ID
	}
}

// Organization returns one of the caller's organizations.
func (s *Service) Organization(ctx context.Context, who *model.Principal, id uuid.UUID) (*OrganizationView, error) {
	o, err := access.Organization(ctx, s.st, who, id, access.Read)
	if err != nil {
		return nil, err
	}
	v := orgView(o)
	return &v, nil
}

// OrganizationsByID returns the caller's organizations among ids, by id,
// for GraphQL dataloaders; an id that is not one of them has no entry.
func (s *Service) OrganizationsByID(ctx context.Context, who *model.Principal, ids []uuid.UUID) (map[uuid.UUID]*OrganizationView, error) {
	rows, err := s.st.Organizations().GetMany(ctx, who.UserID, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]*OrganizationView, len(rows))
	for i := range rows {
		v := orgView(&rows[i])
		out[v.ID] = &v
	}
	return out, nil
}
