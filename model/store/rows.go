package store

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/model/store/dbopen"
)

// Rows written together.
//
// A transaction that writes several invoice events and events (an
// invoice's step: its exchanges with NRS, its move, the event the API
// publishes; a clearing shard's shared transaction: those of many
// invoices) may hold them back (BufferRows) and insert them with one
// statement per table when it ends, or before it reads an invoice's
// events (Submissions.Events), instead of one round trip per row. What
// is written is the same, in the same transaction.

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

// flushRows inserts the rows s holds back.
func (s *Store) flushRows(ctx context.Context) error {
	p := s.pending
	if p == nil {
		return nil
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
