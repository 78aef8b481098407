package store

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// Users is the repository of portal users.
type Users struct{ s *Store }

// Users returns the repository of users, in s's connection or transaction.
func (s *Store) Users() Users { return Users{s} }

// Create inserts a user; a taken e-mail is a conflict.
func (rp Users) Create(ctx context.Context, u *model.User) error {
	if err := refuseNUL("email", u.Email); err != nil {
		return err
	}
	_, err := rp.s.idb.NewInsert().Model(u).Exec(ctx)
	if err != nil && isUniqueViolation(err) {
		return &model.Error{Code: model.CodeConflict, Message: "a user with this email already exists", Err: err}
	}
	return rp.s.wrap(err, "user")
}

// ByEmail finds a user by lower-cased e-mail.
func (rp Users) ByEmail(ctx context.Context, email string) (*model.User, error) {
	if err := refuseNUL("email", email); err != nil {
		return nil, err
	}
	u := new(model.User)
	err := rp.s.idb.NewSelect().Model(u).Where("email = ?", email).Scan(ctx)
	return u, rp.s.wrap(err, "user")
}

// ByID finds a user.
func (rp Users) ByID(ctx context.Context, id uuid.UUID) (*model.User, error) {
	u := new(model.User)
	err := rp.s.idb.NewSelect().Model(u).Where("id = ?", id).Scan(ctx)
	return u, rp.s.wrap(err, "user")
}

// Lock serializes quota checks on what a user owns.
func (rp Users) Lock(ctx context.Context, id uuid.UUID) error { return rp.s.lockRow(ctx, "users", id) }

// MemberEmail is the e-mail of a user who is a member of an organization.
type MemberEmail struct {
	OrganizationID uuid.UUID `bun:"organization_id"`
	UserID         uuid.UUID `bun:"user_id"`
	Email          string    `bun:"email"`
}

// MemberEmails finds the e-mails of those of userIDs who are members of
// one of orgIDs, one row per membership: a user of no organization in
// orgIDs is left out.
func (rp Users) MemberEmails(ctx context.Context, orgIDs, userIDs []uuid.UUID) ([]MemberEmail, error) {
	out := []MemberEmail{}
	if len(orgIDs) == 0 || len(userIDs) == 0 {
		return out, nil
	}
	err := rp.s.idb.NewSelect().
		ColumnExpr("m.organization_id, m.user_id, u.email").
		TableExpr("memberships AS m").
		Join("JOIN users AS u ON u.id = m.user_id").
		Where("m.organization_id IN (?)", bun.List(orgIDs)).
		Where("m.user_id IN (?)", bun.List(userIDs)).
		OrderExpr("m.organization_id ASC, m.user_id ASC").
		Scan(ctx, &out)
	return out, rp.s.wrap(err, "user")
}
