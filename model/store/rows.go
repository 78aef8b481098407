package store

import (
	"context"
	"database/sql"
	"errors"
	"reflect"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"

	"github.com/einvoice-ng/einvoice/migrations"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/dbopen"
)

// Rows written together.
//
// A transaction that writes several invoice events and events (an
// invoice's step: its exchanges with NRS, its move, the event the API
// publishes; a clearing shard's shared transaction: those of many
// invoices) may hold them back (BufferRows) and insert them with one
// statement per table when it ends, or before it reads an invoice's
// events (Submissions.Events), instead of one round trip per row (on
// PostgreSQL a few of each with one statement for both tables). What is
// written is the same, in the same transaction.

// maxRowsPerInsert bounds the rows of one multi-row insert (15
// arguments a row: far below either database's bound on arguments).
const maxRowsPerInsert = 64

// pendingRows are the rows a transaction holds back: each row's
// arguments, in the order of its statement's columns.
type pendingRows struct {
	invoiceEvents [][]any
	events        [][]any
}

// BufferRows makes tx, a transaction (RunInTx), hold its invoice events and
// events back and insert them together before it commits. Outside a
// transaction it does nothing.
func BufferRows(s *Store) {
	if _, ok := s.idb.(bun.Tx); ok && s.pending == nil {
		s.pending = &pendingRows{}
	}
}

// maxRowsTogether bounds the rows of each table that one statement
// inserts into both tables on PostgreSQL (a statement per count of each
// is prepared: at most this many squared).
const maxRowsTogether = 8

// flushRows inserts the rows s holds back.
func (s *Store) flushRows(ctx context.Context) error {
	p := s.pending
	if p == nil {
		return nil
	}
	if ni, ne := len(p.invoiceEvents), len(p.events); s.dialect == migrations.Postgres &&
		ni > 0 && ne > 0 && ni <= maxRowsTogether && ne <= maxRowsTogether {
		return s.flushTogether(ctx, p)
	}
	for _, t := range []struct {
		rows  *[][]any
		table string
		build func(ph func(int) string, rows int) string
		what  string
	}{
		{&p.invoiceEvents, "invoice_events", invoiceEventsInsert, "invoice event"},
		{&p.events, "events", eventsInsert, "event"},
	} {
		for len(*t.rows) > 0 {
			n := min(len(*t.rows), maxRowsPerInsert)
			args := make([]any, 0, n*len((*t.rows)[0]))
			for _, r := range (*t.rows)[:n] {
				args = append(args, r...)
			}
			stmt := s.stmts.multiRow(t.table, n, t.build)
			if _, err := stmt.Exec(ctx, s.conn(), args...); err != nil {
				return s.wrap(err, t.what)
			}
			*t.rows = (*t.rows)[n:]
		}
	}
	return nil
}

// flushTogether inserts the invoice events and events p holds back with
// one statement, on PostgreSQL (an INSERT inside a WITH): one round trip
// where a step's transaction would make two, in the same transaction.
func (s *Store) flushTogether(ctx context.Context, p *pendingRows) error {
	ni, ne := len(p.invoiceEvents), len(p.events)
	args := make([]any, 0, ni*len(p.invoiceEvents[0])+ne*len(p.events[0]))
	for _, r := range p.invoiceEvents {
		args = append(args, r...)
	}
	for _, r := range p.events {
		args = append(args, r...)
	}
	cols := len(p.invoiceEvents[0])
	stmt := s.stmts.multiRow("invoice_events+events", ni*(maxRowsTogether+1)+ne, func(ph func(int) string, _ int) string {
		rest := func(n int) string { return ph(ni*cols + n) }
		return "WITH invoice_rows AS (" + invoiceEventsInsert(ph, ni) + ") " + eventsInsert(rest, ne)
	})
	if _, err := stmt.Exec(ctx, s.conn(), args...); err != nil {
		what := "event"
		if table := failedTable(err); table == "invoice_events" {
			what = "invoice event"
		}
		return s.wrap(err, what)
	}
	p.invoiceEvents, p.events = nil, nil
	return nil
}

// failedTable is the table a PostgreSQL error names, if any.
func failedTable(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.TableName
	}
	return ""
}

// multiRow is the insert of n rows into table, prepared once per count.
func (st *statements) multiRow(table string, n int, build func(ph func(int) string, rows int) string) *dbopen.Prepared {
	key := table + "/" + strings.Repeat("r", n)
	st.saveMu.Lock()
	defer st.saveMu.Unlock()
	if p, ok := st.rows[key]; ok {
		return p
	}
	p := &dbopen.Prepared{Build: func(_ *bun.DB, _ string, ph func(int) string) string { return build(ph, n) }}
	if st.rows == nil {
		st.rows = map[string]*dbopen.Prepared{}
	}
	st.rows[key] = p
	return p
}

// valuesOf lists rows of cols placeholders each: "(p1, …), (…)".
func valuesOf(ph func(int) string, rows, cols int) string {
	var b strings.Builder
	for r := range rows {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(")
		for c := 1; c <= cols; c++ {
			if c > 1 {
				b.WriteString(", ")
			}
			b.WriteString(ph(r*cols + c))
		}
		b.WriteString(")")
	}
	return b.String()
}

// fitsOneStatement reports whether s holds back rows that one statement
// may insert with an invoice's write (PostgreSQL; maxRowsTogether of
// each table, at least one row).
func (s *Store) fitsOneStatement() bool {
	p := s.pending
	return p != nil && s.dialect == migrations.Postgres && len(p.invoiceEvents)+len(p.events) > 0 &&
		len(p.invoiceEvents) <= maxRowsTogether && len(p.events) <= maxRowsTogether
}

// leadWithRows runs lead, an invoice's write with its arguments args (the
// prepared statement's text built by build), with the rows s holds back
// inserted inside a WITH before it: one statement, whose count of rows is
// lead's. key names lead's text among the statements kept prepared. The
// rows are then no longer held back.
func (s *Store) leadWithRows(ctx context.Context, key string, lead *dbopen.Prepared, args []any) (sql.Result, error) {
	p := s.pending
	ni, ne := len(p.invoiceEvents), len(p.events)
	nl, nie := len(args), 0 // lead's arguments, then the invoice events'
	if ni > 0 {
		nie = ni * len(p.invoiceEvents[0])
	}
	for _, r := range p.invoiceEvents {
		args = append(args, r...)
	}
	for _, r := range p.events {
		args = append(args, r...)
	}
	db, dialect := s.db, s.dialect
	stmt := s.stmts.multiRow(key+"+invoice_events+events", ni*(maxRowsTogether+1)+ne,
		func(ph func(int) string, _ int) string {
			var with []string
			if ni > 0 {
				with = append(with, "invoice_rows AS ("+invoiceEventsInsert(func(n int) string { return ph(nl + n) }, ni)+")")
			}
			if ne > 0 {
				with = append(with, "event_rows AS ("+eventsInsert(func(n int) string { return ph(nl + nie + n) }, ne)+")")
			}
			return "WITH " + strings.Join(with, ", ") + " " + lead.Build(db, dialect, ph)
		})
	res, err := stmt.Exec(ctx, s.conn(), args...)
	if err != nil {
		what := "event"
		switch failedTable(err) {
		case "invoice_events":
			what = "invoice event"
		case "submitted_invoices":
			what = submittedInvoice
		}
		return nil, s.wrap(err, what)
	}
	p.invoiceEvents, p.events = nil, nil
	return res, nil
}

// SaveWithRows saves inv as Submissions.Save does and inserts the rows the
// transaction s holds back (BufferRows) at once: call it as a
// transaction's last write. On PostgreSQL, when the save is one of Save's
// prepared UPDATEs and the rows are few (maxRowsTogether of each), the
// UPDATE and the inserts are one statement (INSERTs inside a WITH): one
// round trip where a step's transaction would make two. Otherwise the
// save and the inserts go one after the other. Either way the same rows
// are written, in the same transaction.
func SaveWithRows(ctx context.Context, s *Store, inv *model.SubmittedInvoice) error {
	rp := s.Submissions()
	cols, all := rp.changed(inv)
	upd := s.stmts.saveInvoice(cols)
	if !s.fitsOneStatement() || all || upd == nil {
		if err := rp.save(ctx, inv); err != nil {
			return err
		}
		return s.flushRows(ctx)
	}
	t := s.db.Table(reflect.TypeFor[model.SubmittedInvoice]())
	fields := make([]*schema.Field, 0, len(cols)+1)
	for _, c := range cols {
		fields = append(fields, t.FieldMap[c])
	}
	fields = append(fields, t.FieldMap["id"])
	args, err := dbopen.FieldArgs(s.dialect, fields, reflect.ValueOf(inv).Elem())
	if err != nil {
		return s.wrap(err, submittedInvoice)
	}
	res, err := s.leadWithRows(ctx, "save/"+strings.Join(cols, ","), upd, args)
	if err := s.affected(res, err, submittedInvoice); err != nil {
		return err
	}
	rp.remember(inv)
	return nil
}

// OneStatement returns, on PostgreSQL, a Store outside any transaction
// that holds back the rows written through it (as BufferRows does) until
// CreateWithRows writes them with its invoice in one statement, which
// needs no transaction around it: a new invoice's write in one round trip
// instead of four. Elsewhere, or within a transaction, it returns nil:
// the caller writes in a transaction (RunInTx) instead.
func OneStatement(s *Store) *Store {
	if _, inTx := s.idb.(bun.Tx); inTx || s.dialect != migrations.Postgres {
		return nil
	}
	return &Store{db: s.db, idb: s.idb, dialect: s.dialect, stmts: s.stmts,
		read: map[uuid.UUID]*model.SubmittedInvoice{}, pending: &pendingRows{}}
}

// CreateWithRows creates inv as Submissions.Create does and inserts the
// rows s holds back, at once: call it as the last write of a transaction
// (RunInTx, BufferRows) or of a OneStatement Store. On PostgreSQL, when the
// rows are few (maxRowsTogether of each), it is one statement; otherwise
// the invoice and the rows go one after the other, in s's transaction or,
// for a OneStatement Store, in one of their own.
func CreateWithRows(ctx context.Context, s *Store, inv *model.SubmittedInvoice) error {
	if !s.fitsOneStatement() {
		_, inTx := s.idb.(bun.Tx)
		if p := s.pending; p != nil && !inTx {
			return s.RunInTx(ctx, func(ctx context.Context, tx *Store) error {
				tx.pending = p
				if err := tx.Submissions().create(ctx, inv); err != nil {
					return err
				}
				return tx.flushRows(ctx)
			})
		}
		if err := s.Submissions().create(ctx, inv); err != nil {
			return err
		}
		return s.flushRows(ctx)
	}
	t := s.db.Table(reflect.TypeFor[model.SubmittedInvoice]())
	args, err := dbopen.FieldArgs(s.dialect, t.Fields, reflect.ValueOf(inv).Elem())
	if err != nil {
		return s.wrap(err, submittedInvoice)
	}
	if _, err := s.leadWithRows(ctx, "create", &s.stmts.createInvoice, args); err != nil {
		return err
	}
	s.Submissions().remember(inv)
	return nil
}
