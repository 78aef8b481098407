package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/einvoice-ng/einvoice/migrations"
)

// prepared is a hot statement whose text is the same on every execution,
// its arguments bound instead of written into it. bun writes every
// argument into a statement's text, so that no two of its statements
// share a text and each is parsed anew: on SQLite that parsing was a fifth
// of the process's CPU under a stream of invoices. A prepared statement is
// parsed once per connection: on SQLite database/sql keeps it prepared on
// each connection of the pool it ran on; on PostgreSQL pgx keeps the
// statements of a connection prepared by their text.
//
// Its text is built once, per dialect, by build: placeholders are written
// by ph (the n-th argument, from 1: "?" on SQLite, "$n" on PostgreSQL).
type prepared struct {
	build func(s *Store, ph func(n int) string) string

	once sync.Once
	text string
	stmt *sql.Stmt // SQLite: prepared on the pool
	err  error
}

// placeholder is dialect's n-th placeholder.
func placeholder(dialect string) func(int) string {
	if dialect == migrations.Postgres {
		return func(n int) string { return "$" + strconv.Itoa(n) }
	}
	return func(int) string { return "?" }
}

// placeholders lists n placeholders from the first, comma-separated.
func placeholders(ph func(int) string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(", ")
		}
		b.WriteString(ph(i))
	}
	return b.String()
}

// statement is p's text for s's dialect and, on SQLite, the pool's
// prepared statement.
func (p *prepared) statement(ctx context.Context, s *Store) (string, *sql.Stmt, error) {
	p.once.Do(func() {
		p.text = p.build(s, placeholder(s.dialect))
		if s.dialect != migrations.Postgres {
			p.stmt, p.err = s.db.DB.PrepareContext(context.WithoutCancel(ctx), p.text)
		}
	})
	return p.text, p.stmt, p.err
}

// exec runs p with args in s's transaction or on its pool.
func (s *Store) exec(ctx context.Context, p *prepared, args ...any) (sql.Result, error) {
	text, stmt, err := p.statement(ctx, s)
	if err != nil {
		return nil, err
	}
	tx, inTx := s.idb.(bun.Tx)
	switch {
	case stmt == nil && inTx:
		return tx.Tx.ExecContext(ctx, text, args...)
	case stmt == nil:
		return s.db.DB.ExecContext(ctx, text, args...)
	case inTx:
		ts := tx.Tx.StmtContext(ctx, stmt)
		defer ts.Close()
		return ts.ExecContext(ctx, args...)
	default:
		return stmt.ExecContext(ctx, args...)
	}
}

// scanOne runs p with args in s's transaction or on its pool and scans
// its first row into dest, a bun model; sql.ErrNoRows when it has none.
func (s *Store) scanOne(ctx context.Context, p *prepared, dest any, args ...any) error {
	text, stmt, err := p.statement(ctx, s)
	if err != nil {
		return err
	}
	var rows *sql.Rows
	tx, inTx := s.idb.(bun.Tx)
	switch {
	case stmt == nil && inTx:
		rows, err = tx.Tx.QueryContext(ctx, text, args...)
	case stmt == nil:
		rows, err = s.db.DB.QueryContext(ctx, text, args...)
	case inTx:
		ts := tx.Tx.StmtContext(ctx, stmt)
		defer ts.Close()
		rows, err = ts.QueryContext(ctx, args...)
	default:
		rows, err = stmt.QueryContext(ctx, args...)
	}
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := s.db.ScanRow(ctx, rows, dest); err != nil {
		return err
	}
	return rows.Close()
}

// closePrepared closes the statements prepared on the pool.
func (st *statements) closePrepared() {
	for _, p := range st.all() {
		if p.stmt != nil {
			p.stmt.Close()
		}
	}
}

// Arguments as bun writes them, for a prepared statement's columns that
// bun also reads and compares.

// timeArg is t as bun writes a time: on SQLite the text sqliteTime gives
// (UTC), so that text comparisons and bun's reads see the same; on
// PostgreSQL the time itself.
func (s *Store) timeArg(t time.Time) any {
	if s.dialect == migrations.Postgres {
		return t
	}
	return t.UTC().Format(sqliteTime)
}

// nullTimeArg is timeArg of *t, or NULL.
func (s *Store) nullTimeArg(t *time.Time) any {
	if t == nil {
		return nil
	}
	return s.timeArg(*t)
}

// textArg is s as bun writes a string: without NUL characters, each byte
// that is not UTF-8 replaced by U+FFFD.
func textArg(s string) string {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r != 0 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// nullText is textArg(s), or NULL when s is empty (bun's nullzero).
func nullText(s string) any {
	if s == "" {
		return nil
	}
	return textArg(s)
}
