package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"

	"github.com/uptrace/bun"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/migrations"
	"github.com/einvoice-ng/einvoice/model"
)

// IRNs is the repository of the IRNs issued to each project's invoice
// references.
type IRNs struct{ s *Store }

// IRNs returns the repository of irns, in s's connection or transaction.
func (s *Store) IRNs() IRNs { return IRNs{s} }

// Claim records rec unless the project already issued an IRN for the
// same invoice reference; either way it returns the stored record and
// whether it was created now. One statement decides, so concurrent claims
// of one reference never store two IRNs.
func (rp IRNs) Claim(ctx context.Context, rec *model.IssuedIRN) (*model.IssuedIRN, bool, error) {
	res, err := rp.s.idb.NewInsert().Model(rec).On("CONFLICT (project_id, invoice_reference) DO NOTHING").Exec(ctx)
	if err != nil {
		return nil, false, rp.s.wrap(err, "IRN")
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return rec, true, nil
	}
	got := new(model.IssuedIRN)
	err = rp.s.idb.NewSelect().Model(got).
		Where("project_id = ? AND invoice_reference = ?", rec.ProjectID, rec.InvoiceReference).Scan(ctx)
	if err != nil {
		return nil, false, rp.s.wrap(err, "IRN")
	}
	return got, false, nil
}

// ClaimAll is Claim for many records in one transaction: each record is
// stored unless its project already issued an IRN for the same invoice
// reference, and got[i] is the stored record of recs[i] (created[i] tells
// whether it was created now). Nothing is stored unless everything is: an
// error rolls the whole batch back. The records must name distinct
// (project, reference) pairs.
func (rp IRNs) ClaimAll(ctx context.Context, recs []*model.IssuedIRN) (got []*model.IssuedIRN, created []bool, err error) {
	if len(recs) == 0 {
		return nil, nil, nil
	}
	got, created = make([]*model.IssuedIRN, len(recs)), make([]bool, len(recs))
	if rp.s.dialect == migrations.SQLite {
		return rp.claimAllSQLite(ctx, recs, got, created)
	}
	err = rp.s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
		var inserted []struct {
			ProjectID        uuid.UUID `bun:"project_id"`
			InvoiceReference string    `bun:"invoice_reference"`
		}
		err := tx.idb.NewInsert().Model(&recs).On("CONFLICT (project_id, invoice_reference) DO NOTHING").
			Returning("project_id, invoice_reference").Scan(ctx, &inserted)
		if err != nil {
			return tx.wrap(err, "IRN")
		}
		type key struct {
			project uuid.UUID
			ref     string
		}
		fresh := make(map[key]bool, len(inserted))
		for _, r := range inserted {
			fresh[key{r.ProjectID, r.InvoiceReference}] = true
		}
		for i, rec := range recs {
			if fresh[key{rec.ProjectID, rec.InvoiceReference}] {
				got[i], created[i] = rec, true
				continue
			}
			// Issued before: read what was stored.
			old := new(model.IssuedIRN)
			err := tx.idb.NewSelect().Model(old).
				Where("project_id = ? AND invoice_reference = ?", rec.ProjectID, rec.InvoiceReference).Scan(ctx)
			if err != nil {
				return tx.wrap(err, "IRN")
			}
			got[i] = old
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return got, created, nil
}

// statements holds the statements a Store prepares once and reuses in
// every transaction: SQLite parses a statement into a program each time
// it is prepared, which for an IRN costs about as much as storing it.
type statements struct {
	mu        sync.Mutex
	irnInsert *sql.Stmt
}

// sqliteIRNInsert stores one IRN unless its (project, reference) is taken;
// the columns are written as bun writes them (UUIDs and times as text).
const sqliteIRNInsert = `INSERT INTO irns (project_id, invoice_reference, issue_date, irn, invoice_type_code, created_at)
VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, invoice_reference) DO NOTHING`

// sqliteTime is how bun writes a time into SQLite.
const sqliteTime = "2006-01-02 15:04:05.999999-07:00"

func (st *statements) irnInsertStmt(ctx context.Context, db *bun.DB) (*sql.Stmt, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.irnInsert == nil {
		stmt, err := db.DB.PrepareContext(ctx, sqliteIRNInsert)
		if err != nil {
			return nil, err
		}
		st.irnInsert = stmt
	}
	return st.irnInsert, nil
}

// claimAllSQLite is ClaimAll on SQLite: one transaction, one prepared
// insert executed per record (its program is kept per connection, so no
// statement is parsed again), RowsAffected telling a new record from a
// taken reference.
func (rp IRNs) claimAllSQLite(ctx context.Context, recs, got []*model.IssuedIRN, created []bool) ([]*model.IssuedIRN, []bool, error) {
	stmt, err := rp.s.stmts.irnInsertStmt(ctx, rp.s.db)
	if err != nil {
		return nil, nil, rp.s.wrap(err, "IRN")
	}
	// The transaction runs without ctx's cancellation: given a context
	// that can end, the driver starts a goroutine per statement (BEGIN and
	// each insert) to interrupt it, which costs about as much as an insert.
	// Nothing in it waits longer than SQLite's busy timeout (BEGIN
	// IMMEDIATE waiting for another writer; an insert inside the
	// transaction never waits), and ctx is checked before each statement.
	if err := ctx.Err(); err != nil {
		return nil, nil, rp.s.wrap(err, "IRN")
	}
	nc := context.WithoutCancel(ctx)
	err = rp.s.RunInTx(nc, func(nc context.Context, tx *Store) error {
		btx, ok := tx.idb.(bun.Tx)
		if !ok {
			return errors.New("store: IRN claims outside a transaction")
		}
		ins := btx.Tx.StmtContext(nc, stmt)
		defer ins.Close()
		for i, rec := range recs {
			if err := ctx.Err(); err != nil {
				return tx.wrap(err, "IRN")
			}
			res, err := ins.ExecContext(nc, rec.ProjectID.String(), rec.InvoiceReference, rec.IssueDate, rec.IRN,
				rec.InvoiceTypeCode, rec.CreatedAt.UTC().Format(sqliteTime))
			if err != nil {
				return tx.wrap(err, "IRN")
			}
			if n, _ := res.RowsAffected(); n == 1 {
				got[i], created[i] = rec, true
				continue
			}
			// Issued before: read what was stored.
			old := new(model.IssuedIRN)
			err = tx.idb.NewSelect().Model(old).
				Where("project_id = ? AND invoice_reference = ?", rec.ProjectID, rec.InvoiceReference).Scan(nc)
			if err != nil {
				return tx.wrap(err, "IRN")
			}
			got[i] = old
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return got, created, nil
}
