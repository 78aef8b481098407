package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// AppendAudit appends an entry to its organization's chain: it takes the
// chain's lock, sets Seq and PrevHash from the last entry and computes Hash.
// Call it inside the transaction of the change it records.
func (s *Store) AppendAudit(ctx context.Context, e *model.AuditLog) error {
	return s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		if tx.dialect == "postgres" {
			// Serialize appends per chain; SQLite transactions are already
			// serialized by BEGIN IMMEDIATE.
			if _, err := tx.idb.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", chainLockKey(e.OrganizationID)); err != nil {
				return tx.wrap(err, "audit log")
			}
		}
		last := new(model.AuditLog)
		q := tx.idb.NewSelect().Model(last).Column("seq", "hash").OrderExpr("seq DESC").Limit(1)
		q = chainWhere(q, e.OrganizationID)
		err := q.Scan(ctx)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			e.Seq, e.PrevHash = 1, ""
		case err != nil:
			return tx.wrap(err, "audit log")
		default:
			e.Seq, e.PrevHash = last.Seq+1, last.Hash
		}
		e.CreatedAt = e.CreatedAt.UTC().Truncate(time.Microsecond) // as PostgreSQL keeps them
		e.Hash = e.ComputeHash()
		_, err = tx.idb.NewInsert().Model(e).Exec(ctx)
		return tx.wrap(err, "audit log")
	})
}

func chainLockKey(org *uuid.UUID) int64 {
	key := "audit:system"
	if org != nil {
		key = "audit:" + org.String()
	}
	sum := sha256.Sum256([]byte(key))
	return int64(binary.BigEndian.Uint64(sum[:8]))
}

type wherer[Q any] interface {
	Where(string, ...any) Q
}

func chainWhere[Q wherer[Q]](q Q, org *uuid.UUID) Q {
	if org == nil {
		return q.Where("organization_id IS NULL")
	}
	return q.Where("organization_id = ?", *org)
}

// AuditFilter narrows an audit-log listing.
type AuditFilter struct {
	OrganizationIDs []uuid.UUID // required: the caller's organizations
	Action          string
}

// AuditLogs lists entries newest first, one page. Page.After is the id of
// the last entry of the previous page.
func (s *Store) AuditLogs(ctx context.Context, f AuditFilter, p model.Page) ([]model.AuditLog, bool, error) {
	var out []model.AuditLog
	if len(f.OrganizationIDs) == 0 {
		return []model.AuditLog{}, false, nil
	}
	q := s.idb.NewSelect().Model(&out).
		Where("organization_id IN (?)", bun.In(f.OrganizationIDs)).
		OrderExpr("id DESC").Limit(p.Limit + 1)
	if f.Action != "" {
		q = q.Where("action = ?", f.Action)
	}
	if p.After != uuid.Nil {
		q = q.Where("id < ?", p.After)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, s.wrap(err, "audit log")
	}
	return trim(out, p.Limit)
}

// VerifyAuditChain recomputes an organization's chain (nil: the system chain
// of entries without organization) and returns an error naming the first
// entry whose sequence, link or hash does not hold.
func (s *Store) VerifyAuditChain(ctx context.Context, org *uuid.UUID) error {
	var entries []model.AuditLog
	q := s.idb.NewSelect().Model(&entries).OrderExpr("seq ASC")
	q = chainWhere(q, org)
	if err := q.Scan(ctx); err != nil {
		return s.wrap(err, "audit log")
	}
	prev := ""
	for i := range entries {
		e := &entries[i]
		if e.Seq != int64(i+1) {
			return fmt.Errorf("audit chain broken at entry %s: sequence %d, want %d", e.ID, e.Seq, i+1)
		}
		if e.PrevHash != prev {
			return fmt.Errorf("audit chain broken at entry %s: previous hash does not match", e.ID)
		}
		if got := e.ComputeHash(); got != e.Hash {
			return fmt.Errorf("audit chain broken at entry %s: hash does not match its fields", e.ID)
		}
		prev = e.Hash
	}
	return nil
}
