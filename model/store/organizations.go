package store

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// Organizations is the repository of organizations and the memberships that
// give users their role in them.
type Organizations struct{ s *Store }

// Organizations returns the repository of organizations, in s's connection
// or transaction.
func (s *Store) Organizations() Organizations { return Organizations{s} }

// GetMany finds several organizations of the user, with
// the user's role; ids of other organizations are left out.
func (rp Organizations) GetMany(ctx context.Context, userID uuid.UUID, ids []uuid.UUID) ([]model.Organization, error) {
	out := []model.Organization{}
	if len(ids) == 0 {
		return out, nil
	}
	err := rp.s.orgsForUser(userID).Where("o.id IN (?)", bun.List(ids)).OrderExpr("o.id ASC").Scan(ctx, &out)
	return out, rp.s.wrap(err, "organization")
}

// Create inserts an organization and the creator's membership.
func (rp Organizations) Create(ctx context.Context, o *model.Organization, m *model.Membership) error {
	if err := refuseNUL("name", o.Name, "slug", o.Slug); err != nil {
		return err
	}
	return rp.s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		if _, err := tx.idb.NewInsert().Model(o).Exec(ctx); err != nil {
			if isUniqueViolation(err) {
				return &model.Error{Code: model.CodeConflict, Message: "an organization with this slug already exists", Err: err}
			}
			return tx.wrap(err, "organization")
		}
		_, err := tx.idb.NewInsert().Model(m).Exec(ctx)
		return tx.wrap(err, "membership")
	})
}

// List lists the user's organizations, one page.
func (rp Organizations) List(ctx context.Context, userID uuid.UUID, p model.Page) ([]model.Organization, bool, error) {
	var out []model.Organization
	q := rp.s.orgsForUser(userID).OrderExpr("o.id ASC").Limit(p.Limit + 1)
	if p.After != uuid.Nil {
		q = q.Where("o.id > ?", p.After)
	}
	if err := q.Scan(ctx, &out); err != nil {
		return nil, false, rp.s.wrap(err, "organization")
	}
	return trim(out, p.Limit)
}

// IDs lists the ids of every organization of the user.
func (rp Organizations) IDs(ctx context.Context, userID uuid.UUID) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	err := rp.s.idb.NewSelect().Model((*model.Membership)(nil)).Column("organization_id").
		Where("user_id = ?", userID).OrderExpr("organization_id ASC").Scan(ctx, &ids)
	return ids, rp.s.wrap(err, "organization")
}

// Get finds one organization of the user; another tenant's
// organization is not found.
func (rp Organizations) Get(ctx context.Context, orgID, userID uuid.UUID) (*model.Organization, error) {
	o := new(model.Organization)
	err := rp.s.orgsForUser(userID).Where("o.id = ?", orgID).Scan(ctx, o)
	return o, rp.s.wrap(err, "organization")
}

// Lock serializes quota checks on an organization's projects.
func (rp Organizations) Lock(ctx context.Context, id uuid.UUID) error {
	return rp.s.lockRow(ctx, "organizations", id)
}

// CountOwned counts the organizations the user owns.
func (rp Organizations) CountOwned(ctx context.Context, userID uuid.UUID) (int, error) {
	n, err := rp.s.idb.NewSelect().Model((*model.Membership)(nil)).
		Where("user_id = ? AND role = ?", userID, model.RoleOwner).Count(ctx)
	return n, rp.s.wrap(err, "organization")
}
