package store

// Helpers shared by the repositories: the tenant subqueries every
// user-scoped query joins, row locks, and page trimming.
//
// Batch queries load the children of many parents in one statement, for
// GraphQL dataloaders. Each applies the same tenant check as its one-parent
// counterpart: rows outside the user's organizations are never returned.
// Paged batches return at most p.Limit+1 rows per parent (ordered by parent,
// then id), so the caller can tell whether each parent has another page.

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// memberOrgIDs selects the ids of the user's organizations.
func (s *Store) memberOrgIDs(userID uuid.UUID) *bun.SelectQuery {
	return s.idb.NewSelect().Model((*model.Membership)(nil)).Column("organization_id").Where("user_id = ?", userID)
}

// memberProjectIDs selects the ids of the projects of the user's organizations.
func (s *Store) memberProjectIDs(userID uuid.UUID) *bun.SelectQuery {
	return s.idb.NewSelect().Model((*model.Project)(nil)).Column("id").Where("organization_id IN (?)", s.memberOrgIDs(userID))
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

// lockRow takes a row lock on one row of table (PostgreSQL; SQLite
// transactions are serialized by BEGIN IMMEDIATE already), so that checks
// made under it and the writes that follow are not raced by another
// transaction doing the same. Call it inside RunInTx.
//
// The lock is FOR NO KEY UPDATE: it excludes every other lockRow of the
// row and every update of it, but not the FOR KEY SHARE lock that the
// foreign key check of a row referencing it takes. FOR UPDATE would
// conflict with that one, so that a transaction holding the row lock and
// waiting for another lock (an organization's audit chain, say) would
// deadlock with one holding that lock and inserting a row that references
// the locked row (its audit entry), and a transaction that referenced the
// row before locking it would deadlock with another doing the same. In
// exchange, the row lock does not hold back inserts of rows referencing
// the locked row: every count checked under it (the quotas) counts rows
// inserted only under the same lock, and no id is ever changed (an update
// of a key column needs FOR UPDATE).
func (s *Store) lockRow(ctx context.Context, table string, id uuid.UUID) error {
	if s.dialect != "postgres" {
		return nil
	}
	var got uuid.UUID
	err := s.idb.NewSelect().TableExpr(table).Column("id").Where("id = ?", id).For("NO KEY UPDATE").Scan(ctx, &got)
	return s.wrap(err, table)
}

// affected turns an update that matched no row into not_found.
func (s *Store) affected(res interface{ RowsAffected() (int64, error) }, err error, what string) error {
	if err != nil {
		return s.wrap(err, what)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return model.NotFound(what)
	}
	return nil
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
