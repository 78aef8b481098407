package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model"
)

// Audit is the repository of the audit log: hash-chained entries per
// organization (and the system chain), their heads, their verification.
type Audit struct{ s *Store }

// Audit returns the repository of audit, in s's connection or transaction.
func (s *Store) Audit() Audit { return Audit{s} }

// Append appends an entry to its organization's chain: it takes the
// chain's lock, sets Seq and PrevHash from the last entry, computes Hash
// under key and moves the chain's head to the entry. Call it inside the
// transaction of the change it records.
func (rp Audit) Append(ctx context.Context, e *model.AuditLog, key []byte) error {
	return rp.s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		if err := tx.lockChain(ctx, e.OrganizationID); err != nil {
			return err
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
		e.HashVersion = model.AuditHashKeyed
		e.Hash = e.ComputeHash(key)
		if _, err := tx.idb.NewInsert().Model(e).Exec(ctx); err != nil {
			return tx.wrap(err, "audit log")
		}
		return tx.setAuditHead(ctx, model.AuditChainOf(e.OrganizationID), e.Seq, e.Hash, e.CreatedAt, key)
	})
}

// lockChain serializes appends per chain; SQLite transactions are already
// serialized by BEGIN IMMEDIATE.
func (s *Store) lockChain(ctx context.Context, org *uuid.UUID) error {
	if s.dialect != "postgres" {
		return nil
	}
	_, err := s.idb.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", chainLockKey(org))
	return s.wrap(err, "audit log")
}

// setAuditHead records a chain's newest entry.
func (s *Store) setAuditHead(ctx context.Context, chain string, seq int64, hash string, at time.Time, key []byte) error {
	h := &model.AuditHead{Chain: chain, Seq: seq, Hash: hash, Mac: model.HeadMAC(key, chain, seq, hash), UpdatedAt: at}
	_, err := s.idb.NewInsert().Model(h).
		On("CONFLICT (chain) DO UPDATE").
		Set("seq = EXCLUDED.seq").
		Set("hash = EXCLUDED.hash").
		Set("mac = EXCLUDED.mac").
		Set("updated_at = EXCLUDED.updated_at").
		Exec(ctx)
	return s.wrap(err, "audit head")
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

// List lists entries newest first, one page. Page.After is the id of
// the last entry of the previous page.
func (rp Audit) List(ctx context.Context, f AuditFilter, p model.Page) ([]model.AuditLog, bool, error) {
	var out []model.AuditLog
	if len(f.OrganizationIDs) == 0 {
		return []model.AuditLog{}, false, nil
	}
	q := rp.s.idb.NewSelect().Model(&out).
		Where("organization_id IN (?)", bun.List(f.OrganizationIDs)).
		OrderExpr("id DESC").Limit(p.Limit + 1)
	if f.Action != "" {
		q = q.Where("action = ?", f.Action)
	}
	if p.After != uuid.Nil {
		q = q.Where("id < ?", p.After)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, false, rp.s.wrap(err, "audit log")
	}
	return trim(out, p.Limit)
}

// AuditChainCheck is the outcome of verifying one chain.
type AuditChainCheck struct {
	// Chain is model.SystemChain or an organization id.
	Chain string
	// Entries is how many entries the chain holds.
	Entries int64
	// Head is the chain's recorded head (nil when none).
	Head *model.AuditHead
	// Problem says why the chain does not verify ("" when it does);
	// BrokenAt and BrokenSeq name the first entry at fault, when one is.
	Problem   string
	BrokenAt  *uuid.UUID
	BrokenSeq int64
}

// Valid reports whether the chain verifies.
func (c *AuditChainCheck) Valid() bool { return c.Problem == "" }

// auditPage is how many entries a verification reads at a time.
const auditPage = 1000

// Verify recomputes an organization's chain (nil: the system
// chain) under key, a page at a time: every entry must follow the previous
// one (sequence and link), be keyed and carry the hash of its fields, and
// the head must be authentic and name the newest entry, so that an edited,
// removed, inserted or truncated entry is reported.
func (rp Audit) Verify(ctx context.Context, org *uuid.UUID, key []byte) (*AuditChainCheck, error) {
	c := &AuditChainCheck{Chain: model.AuditChainOf(org)}
	head := new(model.AuditHead)
	switch err := rp.s.idb.NewSelect().Model(head).Where("chain = ?", c.Chain).Scan(ctx); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return nil, rp.s.wrap(err, "audit head")
	default:
		c.Head = head
	}
	broken := func(e *model.AuditLog, format string, args ...any) (*AuditChainCheck, error) {
		id := e.ID
		c.Problem, c.BrokenAt, c.BrokenSeq = fmt.Sprintf(format, args...), &id, e.Seq
		return c, nil
	}
	prev, last := "", int64(0)
	for {
		var page []model.AuditLog
		q := rp.s.idb.NewSelect().Model(&page).Where("seq > ?", last).OrderExpr("seq ASC").Limit(auditPage)
		if err := chainWhere(q, org).Scan(ctx); err != nil {
			return nil, rp.s.wrap(err, "audit log")
		}
		for i := range page {
			e := &page[i]
			c.Entries++
			switch {
			case e.Seq != last+1:
				return broken(e, "entry %d follows entry %d: entries are missing", e.Seq, last)
			case e.PrevHash != prev:
				return broken(e, "entry %d does not link to the entry before it", e.Seq)
			case e.HashVersion != model.AuditHashKeyed:
				return broken(e, "entry %d is not keyed (written before the audit key and never re-chained)", e.Seq)
			case e.ComputeHash(key) != e.Hash:
				return broken(e, "entry %d does not match its hash: it was edited, or written without the audit key", e.Seq)
			}
			prev, last = e.Hash, e.Seq
		}
		if len(page) < auditPage {
			break
		}
	}
	h := c.Head
	switch {
	case h == nil && last == 0:
	case h == nil:
		c.Problem = "the chain has no head record"
	case h.Mac != model.HeadMAC(key, c.Chain, h.Seq, h.Hash):
		c.Problem = "the chain's head record is not authentic"
	case h.Seq > last:
		c.Problem = fmt.Sprintf("the chain is truncated: its head records %d entries, %d remain", h.Seq, last)
	case h.Seq < last || h.Hash != prev:
		c.Problem = fmt.Sprintf("the chain's head (entry %d) is not its newest entry (%d)", h.Seq, last)
	}
	return c, nil
}

// Chains lists every chain that has entries or a head: the system
// chain first, then organizations in id order.
func (rp Audit) Chains(ctx context.Context) ([]*uuid.UUID, error) {
	var heads []string
	if err := rp.s.idb.NewSelect().Model((*model.AuditHead)(nil)).Column("chain").Scan(ctx, &heads); err != nil {
		return nil, rp.s.wrap(err, "audit head")
	}
	var orgs []uuid.UUID
	if err := rp.s.idb.NewSelect().Model((*model.AuditLog)(nil)).ColumnExpr("DISTINCT organization_id").
		Where("organization_id IS NOT NULL").Scan(ctx, &orgs); err != nil {
		return nil, rp.s.wrap(err, "audit log")
	}
	seen := map[uuid.UUID]bool{}
	for _, o := range orgs {
		seen[o] = true
	}
	for _, h := range heads {
		if id, err := uuid.Parse(h); err == nil {
			seen[id] = true
		}
	}
	out := []*uuid.UUID{nil}
	ids := make([]uuid.UUID, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b uuid.UUID) int { return bytes.Compare(a[:], b[:]) })
	for i := range ids {
		out = append(out, &ids[i])
	}
	return out, nil
}

// Rechain re-chains the chains holding entries written before the
// chain was keyed (hash version 1) under key, one transaction per chain,
// and records each chain's head. Every entry must first verify as it was
// written (unkeyed, or keyed when appended after the upgrade): a chain
// tampered with before the upgrade is left as it is and reported in the
// error. It returns how many entries were re-chained.
func (rp Audit) Rechain(ctx context.Context, key []byte) (int64, error) {
	var orgs []uuid.UUID
	if err := rp.s.idb.NewSelect().Model((*model.AuditLog)(nil)).ColumnExpr("DISTINCT organization_id").
		Where("hash_version = ? AND organization_id IS NOT NULL", model.AuditHashUnkeyed).Scan(ctx, &orgs); err != nil {
		return 0, rp.s.wrap(err, "audit log")
	}
	system, err := rp.s.idb.NewSelect().Model((*model.AuditLog)(nil)).
		Where("hash_version = ? AND organization_id IS NULL", model.AuditHashUnkeyed).Exists(ctx)
	if err != nil {
		return 0, rp.s.wrap(err, "audit log")
	}
	chains := make([]*uuid.UUID, 0, len(orgs)+1)
	if system {
		chains = append(chains, nil)
	}
	for i := range orgs {
		chains = append(chains, &orgs[i])
	}
	var total int64
	var refused []error
	for _, org := range chains {
		n, err := rp.s.rechain(ctx, org, key)
		if err != nil {
			refused = append(refused, err)
			continue
		}
		total += n
	}
	return total, errors.Join(refused...)
}

func (s *Store) rechain(ctx context.Context, org *uuid.UUID, key []byte) (int64, error) {
	var n int64
	err := s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		if err := tx.lockChain(ctx, org); err != nil {
			return err
		}
		// First the unkeyed chain must verify as it was written.
		prevOld, prevNew, last := "", "", int64(0)
		var lastAt time.Time
		for {
			var page []model.AuditLog
			q := tx.idb.NewSelect().Model(&page).Where("seq > ?", last).OrderExpr("seq ASC").Limit(auditPage)
			if err := chainWhere(q, org).Scan(ctx); err != nil {
				return tx.wrap(err, "audit log")
			}
			for i := range page {
				e := &page[i]
				// Entries appended under the key after the upgrade but
				// before the chain was re-chained link to unkeyed ones:
				// they must verify under the key as written.
				keyOf := []byte(nil)
				if e.HashVersion == model.AuditHashKeyed {
					keyOf = key
				}
				if e.Seq != last+1 || e.PrevHash != prevOld || e.ComputeHash(keyOf) != e.Hash {
					return fmt.Errorf("audit chain %s: entry %d (%s) does not verify as written; not re-chained",
						model.AuditChainOf(org), e.Seq, e.ID)
				}
				prevOld = e.Hash
				e.PrevHash, e.HashVersion = prevNew, model.AuditHashKeyed
				e.Hash = e.ComputeHash(key)
				if _, err := tx.idb.NewUpdate().Model(e).Column("prev_hash", "hash", "hash_version").WherePK().Exec(ctx); err != nil {
					return tx.wrap(err, "audit log")
				}
				prevNew, last, lastAt = e.Hash, e.Seq, e.CreatedAt
				n++
			}
			if len(page) < auditPage {
				break
			}
		}
		if last == 0 {
			return nil
		}
		return tx.setAuditHead(ctx, model.AuditChainOf(org), last, prevNew, lastAt, key)
	})
	return n, err
}

// EntryHash returns the hash of entry seq of a chain (model.SystemChain
// or an organization id), or "" when it has none.
func (rp Audit) EntryHash(ctx context.Context, chain string, seq int64) (string, error) {
	var org *uuid.UUID
	if chain != model.SystemChain {
		id, err := uuid.Parse(chain)
		if err != nil {
			return "", model.Invalid(model.ProblemUUIDParsing, "chain must be system or an organization id", "chain")
		}
		org = &id
	}
	var hash string
	q := rp.s.idb.NewSelect().Model((*model.AuditLog)(nil)).Column("hash").Where("seq = ?", seq)
	err := chainWhere(q, org).Scan(ctx, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return hash, rp.s.wrap(err, "audit log")
}

// AuditKeyingMigration is the migration that keys the audit chain: when it
// is applied, the entries written before are re-chained under the key
// (RechainAudit).
const AuditKeyingMigration = "20261205000003"

// AuditRechainPending reports whether applying the pending migrations will
// re-chain audit entries: AuditKeyingMigration is pending and entries exist
// already.
func (s *Store) AuditRechainPending(ctx context.Context) (bool, error) {
	list, err := s.Migrations().Status(ctx)
	if err != nil {
		return false, err
	}
	applied := map[string]bool{}
	for _, m := range list {
		applied[m.Name] = m.Applied
	}
	if applied[AuditKeyingMigration] || !applied[auditTableMigration] {
		return false, nil
	}
	n, err := s.idb.NewSelect().Table("audit_logs").Limit(1).Count(ctx)
	return n > 0, s.wrap(err, "audit log")
}

// auditTableMigration creates the audit_logs table.
const auditTableMigration = "20261101000001"
