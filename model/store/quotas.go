package store

import (
	"context"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/model"
)

// lockRow takes a row lock on one row of table (PostgreSQL; SQLite
// transactions are serialized by BEGIN IMMEDIATE already), so that checks
// made under it and the writes that follow are not raced by another
// transaction doing the same. Call it inside RunInTx.
func (s *Store) lockRow(ctx context.Context, table string, id uuid.UUID) error {
	if s.dialect != "postgres" {
		return nil
	}
	var got uuid.UUID
	err := s.idb.NewSelect().TableExpr(table).Column("id").Where("id = ?", id).For("UPDATE").Scan(ctx, &got)
	return s.wrap(err, table)
}

// LockUser serializes quota checks on what a user owns.
func (s *Store) LockUser(ctx context.Context, id uuid.UUID) error { return s.lockRow(ctx, "users", id) }

// LockOrganization serializes quota checks on an organization's projects.
func (s *Store) LockOrganization(ctx context.Context, id uuid.UUID) error {
	return s.lockRow(ctx, "organizations", id)
}

// LockProject serializes quota checks on a project's keys and runs.
func (s *Store) LockProject(ctx context.Context, id uuid.UUID) error {
	return s.lockRow(ctx, "projects", id)
}

// CountOwnedOrganizations counts the organizations the user owns.
func (s *Store) CountOwnedOrganizations(ctx context.Context, userID uuid.UUID) (int, error) {
	n, err := s.idb.NewSelect().Model((*model.Membership)(nil)).
		Where("user_id = ? AND role = ?", userID, model.RoleOwner).Count(ctx)
	return n, s.wrap(err, "organization")
}

// CountProjects counts an organization's projects.
func (s *Store) CountProjects(ctx context.Context, orgID uuid.UUID) (int, error) {
	n, err := s.idb.NewSelect().Model((*model.Project)(nil)).Where("organization_id = ?", orgID).Count(ctx)
	return n, s.wrap(err, "project")
}

// CountActiveKeys counts a project's keys that are not revoked.
func (s *Store) CountActiveKeys(ctx context.Context, projectID uuid.UUID) (int, error) {
	n, err := s.idb.NewSelect().Model((*model.APIKey)(nil)).
		Where("project_id = ? AND status = ?", projectID, model.KeyActive).Count(ctx)
	return n, s.wrap(err, "api key")
}
