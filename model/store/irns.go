package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"sync"

	"github.com/uptrace/bun"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/migrations"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/dbopen"
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

// statements holds the statements a Store prepares once and reuses: SQLite
// parses a statement into a program each time it is prepared, which for an
// IRN costs about as much as storing it.
type statements struct {
	// irnWriter is the connection IRN batches are recorded on.
	irnWriter irnWriter
	// checkpointer checkpoints a SQLite database's log (nil on
	// PostgreSQL).
	checkpointer *checkpointer

	// The hot statements of the invoice pipeline, parsed once
	// (prepared.go).
	invoiceEvent, event, lockInvoice, invoiceByIRN dbopen.Prepared
	// Rows read by id on every invoice or webhook delivery.
	eventByID, projectByID, endpointByID, deliveryByID dbopen.Prepared
	// A submitted invoice's insert, and its updates by the set of
	// columns they write (Submissions.Save).
	createInvoice, lastArchived dbopen.Prepared
	saveMu                      sync.Mutex
	saves                       map[string]*dbopen.Prepared
	// rows are the multi-row inserts by table and count (rows.go).
	rows map[string]*dbopen.Prepared
	// writer is the SQLite write turn of RunInTx (nil on PostgreSQL).
	writer chan struct{}
}

// newStatements builds the statements of a store.
func newStatements() *statements {
	st := &statements{}
	st.invoiceEvent.Build = buildInvoiceEventInsert
	st.event.Build = buildEventInsert
	st.lockInvoice.Build = buildLockInvoice
	st.invoiceByIRN.Build = buildInvoiceByIRN
	st.eventByID.Build = byID[model.Event]
	st.projectByID.Build = byID[model.Project]
	st.endpointByID.Build = byID[model.WebhookEndpoint]
	st.deliveryByID.Build = byID[model.WebhookDelivery]
	st.createInvoice.Build = buildCreateInvoice
	st.lastArchived.Build = buildLastArchived
	return st
}

// all lists the prepared statements.
func (st *statements) all() []*dbopen.Prepared {
	return []*dbopen.Prepared{&st.invoiceEvent, &st.event, &st.lockInvoice, &st.invoiceByIRN,
		&st.eventByID, &st.projectByID, &st.endpointByID, &st.deliveryByID, &st.createInvoice, &st.lastArchived}
}

// byID is the statement reading a row of T's table by its id.
func byID[T any](db *bun.DB, _ string, ph func(int) string) string {
	return db.NewSelect().Model((*T)(nil)).Where("id = ?", bun.Safe(ph(1))).String()
}

// irnWriter is one connection of the pool kept for recording IRNs on
// SQLite, with its statements prepared once: BEGIN IMMEDIATE, COMMIT,
// ROLLBACK and the insert. A batch's transaction then costs no
// connection taken from the pool and given back, no statement parsed (the
// driver parses BEGIN and COMMIT again for each transaction it runs) and
// no goroutine watching the transaction's context. One batch at a time
// uses it (mu); SQLite allows one writer at a time anyway. A connection
// left in an unknown state by a failure is discarded, and the next batch
// takes a new one.
type irnWriter struct {
	mu                              sync.Mutex
	conn                            bun.Conn
	open                            bool
	begin, commit, rollback, insert *sql.Stmt
}

// sqliteIRNInsert stores one IRN unless its (project, reference) is taken;
// the columns are written as bun writes them (UUIDs and times as text).
const sqliteIRNInsert = `INSERT INTO irns (project_id, invoice_reference, issue_date, irn, invoice_type_code, created_at)
VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, invoice_reference) DO NOTHING`

// sqliteTime is how bun writes a time into SQLite.
const sqliteTime = dbopen.SQLiteTime

// connect takes a connection from db's pool and prepares the statements
// on it. w.mu is held.
func (w *irnWriter) connect(ctx context.Context, db *bun.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	w.conn = conn
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{{&w.begin, "BEGIN IMMEDIATE"}, {&w.commit, "COMMIT"}, {&w.rollback, "ROLLBACK"}, {&w.insert, sqliteIRNInsert}} {
		if *p.stmt, err = conn.PrepareContext(ctx, p.sql); err != nil {
			w.discard()
			return err
		}
	}
	w.open = true
	return nil
}

// discard closes the statements and the connection, which the pool then
// drops instead of handing it out again. w.mu is held.
func (w *irnWriter) discard() {
	for _, st := range []**sql.Stmt{&w.begin, &w.commit, &w.rollback, &w.insert} {
		if *st != nil {
			_ = (*st).Close()
			*st = nil
		}
	}
	if w.conn.Conn != nil {
		_ = w.conn.Raw(func(any) error { return driver.ErrBadConn })
		_ = w.conn.Close()
	}
	w.conn, w.open = bun.Conn{}, false
}

// close gives the connection back (Store.Close).
func (w *irnWriter) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.open {
		w.discard()
	}
}

// claimAllSQLite is ClaimAll on SQLite: one transaction on the IRN
// writer's connection (a Store inside a transaction uses that one), one
// prepared insert executed per record, RowsAffected telling a new record
// from a taken reference.
//
// The transaction runs without ctx's cancellation: given a context that
// can end, the driver starts a goroutine per statement (BEGIN and each
// insert) to interrupt it, which costs about as much as an insert. Nothing
// in it waits longer than SQLite's busy timeout (BEGIN IMMEDIATE waiting
// for another writer; an insert inside the transaction never waits), and
// ctx is checked before each statement.
func (rp IRNs) claimAllSQLite(ctx context.Context, recs, got []*model.IssuedIRN, created []bool) ([]*model.IssuedIRN, []bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, rp.s.wrap(err, "IRN")
	}
	nc := context.WithoutCancel(ctx)
	if tx, ok := rp.s.idb.(bun.Tx); ok { // the caller's transaction
		ins, err := tx.Tx.PrepareContext(nc, sqliteIRNInsert)
		if err != nil {
			return nil, nil, rp.s.wrap(err, "IRN")
		}
		defer ins.Close()
		if err := rp.claimEach(ctx, rp.s.idb, ins, recs, got, created); err != nil {
			return nil, nil, err
		}
		return got, created, nil
	}

	w := &rp.s.stmts.irnWriter
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.open {
		if err := w.connect(nc, rp.s.db); err != nil {
			return nil, nil, rp.s.wrap(err, "IRN")
		}
	}
	if _, err := w.begin.ExecContext(nc); err != nil {
		w.abort(nc)
		return nil, nil, rp.s.wrap(err, "IRN")
	}
	err := rp.claimEach(ctx, w.conn, w.insert, recs, got, created)
	if err == nil {
		if _, err = w.commit.ExecContext(nc); err != nil {
			err = rp.s.wrap(err, "IRN")
		}
	}
	if err != nil {
		w.abort(nc)
		return nil, nil, err
	}
	return got, created, nil
}

// abort rolls back whatever transaction a failure left open on the
// writer's connection. When ROLLBACK fails (no transaction was open, or
// the connection is broken) the connection is discarded: one known to be
// outside a transaction is all the writer keeps. w.mu is held.
func (w *irnWriter) abort(ctx context.Context) {
	if _, err := w.rollback.ExecContext(ctx); err != nil {
		w.discard()
	}
}

// claimEach runs ins (sqliteIRNInsert, prepared in the transaction's
// connection) for each record, in the transaction idb runs in.
func (rp IRNs) claimEach(ctx context.Context, idb bun.IDB, ins *sql.Stmt, recs, got []*model.IssuedIRN, created []bool) error {
	nc := context.WithoutCancel(ctx)
	for i, rec := range recs {
		if err := ctx.Err(); err != nil {
			return rp.s.wrap(err, "IRN")
		}
		res, err := ins.ExecContext(nc, rec.ProjectID.String(), rec.InvoiceReference, rec.IssueDate, rec.IRN,
			rec.InvoiceTypeCode, rec.CreatedAt.UTC().Format(sqliteTime))
		if err != nil {
			return rp.s.wrap(err, "IRN")
		}
		if n, _ := res.RowsAffected(); n == 1 {
			got[i], created[i] = rec, true
			continue
		}
		// Issued before: read what was stored.
		old := new(model.IssuedIRN)
		err = idb.NewSelect().Model(old).
			Where("project_id = ? AND invoice_reference = ?", rec.ProjectID, rec.InvoiceReference).Scan(nc)
		if err != nil {
			return rp.s.wrap(err, "IRN")
		}
		got[i], created[i] = old, false
	}
	return nil
}
