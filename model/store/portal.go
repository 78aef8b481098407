package store

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// CreateUser inserts a user; a taken e-mail is a conflict.
func (s *Store) CreateUser(ctx context.Context, u *model.User) error {
	if err := refuseNUL("email", u.Email); err != nil {
		return err
	}
	_, err := s.idb.NewInsert().Model(u).Exec(ctx)
	if err != nil && isUniqueViolation(err) {
		return &model.Error{Code: model.CodeConflict, Message: "a user with this email already exists", Err: err}
	}
	return s.wrap(err, "user")
}

// UserByEmail finds a user by lower-cased e-mail.
func (s *Store) UserByEmail(ctx context.Context, email string) (*model.User, error) {
	if err := refuseNUL("email", email); err != nil {
		return nil, err
	}
	u := new(model.User)
	err := s.idb.NewSelect().Model(u).Where("email = ?", email).Scan(ctx)
	return u, s.wrap(err, "user")
}

// UserByID finds a user.
func (s *Store) UserByID(ctx context.Context, id uuid.UUID) (*model.User, error) {
	u := new(model.User)
	err := s.idb.NewSelect().Model(u).Where("id = ?", id).Scan(ctx)
	return u, s.wrap(err, "user")
}

// CreateOrganization inserts an organization and the creator's membership.
func (s *Store) CreateOrganization(ctx context.Context, o *model.Organization, m *model.Membership) error {
	if err := refuseNUL("name", o.Name, "slug", o.Slug); err != nil {
		return err
	}
	return s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
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

// orgsForUser selects organizations the user belongs to, with the role.
func (s *Store) orgsForUser(userID uuid.UUID) *bun.SelectQuery {
	return s.idb.NewSelect().
		Model((*model.Organization)(nil)).
		ColumnExpr("o.id, o.name, o.slug, o.created_at, m.role").
		ModelTableExpr("organizations AS o").
		Join("JOIN memberships AS m ON m.organization_id = o.id").
		Where("m.user_id = ?", userID)
}

// OrganizationsForUser lists the user's organizations, one page.
func (s *Store) OrganizationsForUser(ctx context.Context, userID uuid.UUID, p model.Page) ([]model.Organization, bool, error) {
	var out []model.Organization
	q := s.orgsForUser(userID).OrderExpr("o.id ASC").Limit(p.Limit + 1)
	if p.After != uuid.Nil {
		q = q.Where("o.id > ?", p.After)
	}
	if err := q.Scan(ctx, &out); err != nil {
		return nil, false, s.wrap(err, "organization")
	}
	return trim(out, p.Limit)
}

// AllOrganizationIDsForUser lists the ids of every organization of the user.
func (s *Store) AllOrganizationIDsForUser(ctx context.Context, userID uuid.UUID) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	err := s.idb.NewSelect().Model((*model.Membership)(nil)).Column("organization_id").
		Where("user_id = ?", userID).OrderExpr("organization_id ASC").Scan(ctx, &ids)
	return ids, s.wrap(err, "organization")
}

// OrganizationForUser finds one organization of the user; another tenant's
// organization is not found.
func (s *Store) OrganizationForUser(ctx context.Context, orgID, userID uuid.UUID) (*model.Organization, error) {
	o := new(model.Organization)
	err := s.orgsForUser(userID).Where("o.id = ?", orgID).Scan(ctx, o)
	return o, s.wrap(err, "organization")
}

// trim cuts a page fetched with limit+1 rows and says whether more exist.
func trim[T any](rows []T, limit int) ([]T, bool, error) {
	if len(rows) > limit {
		return rows[:limit], true, nil
	}
	if rows == nil {
		rows = []T{}
	}
	return rows, false, nil
}
