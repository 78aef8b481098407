// Package access decides who may reach which organization and project, and
// records what they did there. Every application package asks it, so that
// the tenant rules are written once:
//
//   - an API key reaches its own project only;
//   - a portal user reaches the organizations they belong to and their
//     projects; changing them (Write) asks for an owner or admin;
//   - anything else is not found, so that an answer never tells whether
//     another tenant's record exists.
//
// Trail records who changed what inside the change's own transaction, and
// Quota bounds what one account may create.
package access

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
)

// Need is what a principal wants to do with a record.
type Need int

// Needs.
const (
	// Read lets any member of the organization see the record.
	Read Need = iota
	// Write asks for an owner or admin of the organization (an API key
	// acts on its own project within its scopes).
	Write
)

// errNotWriter answers a member who may read but not change.
var errNotWriter = model.Errorf(model.CodeForbidden, "only owners and admins of the organization can do this")

// Organization loads one of who's organizations, with who's role in it.
// An API key reaches no organization.
func Organization(ctx context.Context, st *store.Store, who *model.Principal, orgID uuid.UUID, need Need) (*model.Organization, error) {
	if who == nil || who.IsKey() {
		return nil, model.NotFound("organization")
	}
	o, err := st.Organizations().Get(ctx, orgID, who.UserID)
	if err != nil {
		return nil, err
	}
	if need == Write && o.Role != model.RoleOwner && o.Role != model.RoleAdmin {
		return nil, errNotWriter
	}
	return o, nil
}

// Project loads a project who may act on: an API key its own project, a
// user a project of their organizations.
func Project(ctx context.Context, st *store.Store, who *model.Principal, projectID uuid.UUID, need Need) (*model.Project, error) {
	switch {
	case who == nil:
		return nil, model.NotFound("project")
	case who.IsKey():
		if projectID != who.ProjectID {
			return nil, model.NotFound("project")
		}
		return st.Projects().ByID(ctx, projectID)
	}
	pr, err := st.Projects().Get(ctx, projectID, who.UserID)
	if err != nil {
		return nil, err
	}
	if need == Write {
		if _, err := Organization(ctx, st, who, pr.OrganizationID, Write); err != nil {
			return nil, err
		}
	}
	return pr, nil
}

// ProjectPage checks a list request on one of a project's collections: the
// page asked for, and that who may read the project.
func ProjectPage(ctx context.Context, st *store.Store, who *model.Principal, projectID uuid.UUID, in model.PageInput) (model.Page, error) {
	page, err := in.Page()
	if err != nil {
		return page, err
	}
	_, err = Project(ctx, st, who, projectID, Read)
	return page, err
}

// Trail appends to the audit log under Key, stamping entries with Now.
type Trail struct {
	// Key keys the audit chain (HMAC-SHA-256); it lives outside the
	// database, so that no one who can only write the database can write
	// entries that verify.
	Key []byte
	Now func() time.Time
}

// Record appends one entry to an organization's chain (nil: the system
// chain) inside tx: actor did action to the target.
func (t Trail) Record(ctx context.Context, tx *store.Store, org *uuid.UUID, actor model.Ref, action, targetType, targetID string) error {
	e := model.NewAuditLog(ctx, org, actor, action, model.Ref{Type: targetType, ID: targetID}, model.StoredTime(t.Now()))
	return tx.Audit().Append(ctx, e, t.Key)
}

// Quota refuses with quota_exceeded a create that would pass limit
// (negative: no bound). Call it inside the creating transaction: lock
// serializes the creates under id, count says how many exist.
func Quota(ctx context.Context, limit int, id uuid.UUID, lock func(context.Context, uuid.UUID) error,
	count func(context.Context, uuid.UUID) (int, error), what, remedy string) error {
	if limit < 0 {
		return nil
	}
	if err := lock(ctx, id); err != nil {
		return err
	}
	n, err := count(ctx, id)
	if err != nil {
		return err
	}
	if n >= limit {
		return model.Errorf(model.CodeQuotaExceeded, "quota exceeded: at most %d %s; %s", limit, what, remedy)
	}
	return nil
}
