package dbopen

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"

	"github.com/einvoice-ng/einvoice/migrations"
)

// Prepared is a hot statement whose text is the same on every execution,
// its arguments bound instead of written into it. bun writes every
// argument into a statement's text, so that no two of its statements
// share a text and each is parsed anew: on SQLite that parsing was a fifth
// of the process's CPU under a stream of invoices. A prepared statement is
// parsed once per connection: on SQLite database/sql keeps it prepared on
// each connection of the pool it ran on; on PostgreSQL pgx keeps the
// statements of a connection prepared by their text.
//
// Its text is built once, per dialect, by Build: placeholders are written
// by ph (the n-th argument, from 1: "?" on SQLite, "$n" on PostgreSQL).
// A Prepared belongs to one database (Conn.DB) and is closed with it
// (Close).
type Prepared struct {
	Build func(db *bun.DB, dialect string, ph func(n int) string) string

	mu        sync.Mutex
	text      string
	stmt      *sql.Stmt // SQLite: prepared on the pool, once it is
	preparing bool
	closed    bool
}

// placeholder is dialect's n-th placeholder.
func placeholder(dialect string) func(int) string {
	if dialect == migrations.Postgres {
		return func(n int) string { return "$" + strconv.Itoa(n) }
	}
	return func(int) string { return "?" }
}

// Placeholders lists n placeholders from the first, comma-separated.
func Placeholders(ph func(int) string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(", ")
		}
		b.WriteString(ph(i))
	}
	return b.String()
}

// Conn is where a Prepared runs: the database's pool, its dialect, and
// the connection or transaction of the caller (IDB).
type Conn struct {
	DB      *bun.DB
	IDB     bun.IDB
	Dialect string
}

// statement is p's text for c's dialect and, on SQLite, the pool's
// prepared statement once there is one. The first use prepares it on the
// pool in the background: a caller inside a transaction holds one of the
// pool's connections, and waiting for another (which every other caller
// may hold too) could wait forever. Until then the text runs unprepared.
func (p *Prepared) statement(c Conn) (string, *sql.Stmt) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.text == "" {
		p.text = p.Build(c.DB, c.Dialect, placeholder(c.Dialect))
	}
	if c.Dialect == migrations.Postgres || p.stmt != nil || p.preparing || p.closed {
		return p.text, p.stmt
	}
	p.preparing = true
	go func(text string) {
		st, err := c.DB.DB.PrepareContext(context.Background(), text)
		p.mu.Lock()
		defer p.mu.Unlock()
		p.preparing = false
		switch {
		case err != nil:
		case p.closed:
			st.Close()
		default:
			p.stmt = st
		}
	}(p.text)
	return p.text, nil
}

// cached asks pgx to keep the statement prepared on its connection, by
// its text, for the next execution (the pool's default runs statements
// unnamed: Open).
func cached(c Conn, args []any) []any {
	if c.Dialect != migrations.Postgres {
		return args
	}
	return append([]any{pgx.QueryExecModeCacheStatement}, args...)
}

// Exec runs p with args in c's transaction or on its pool.
func (p *Prepared) Exec(ctx context.Context, c Conn, args ...any) (sql.Result, error) {
	text, stmt := p.statement(c)
	args = cached(c, args)
	tx, inTx := c.IDB.(bun.Tx)
	switch {
	case stmt == nil && inTx:
		return tx.Tx.ExecContext(ctx, text, args...)
	case stmt == nil:
		return c.DB.DB.ExecContext(ctx, text, args...)
	case inTx:
		ts := tx.Tx.StmtContext(ctx, stmt)
		defer ts.Close()
		return ts.ExecContext(ctx, args...)
	default:
		return stmt.ExecContext(ctx, args...)
	}
}

// ScanOne runs p with args in c's transaction or on its pool and scans
// its first row into dest, a bun model; sql.ErrNoRows when it has none.
func (p *Prepared) ScanOne(ctx context.Context, c Conn, dest any, args ...any) error {
	rows, err := p.Query(ctx, c, args...)
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
	if err := c.DB.ScanRow(ctx, rows, dest); err != nil {
		return err
	}
	return rows.Close()
}

// ScanAll runs p with args in c's transaction or on its pool and scans
// every row into dest, a bun model of a slice.
func (p *Prepared) ScanAll(ctx context.Context, c Conn, dest any, args ...any) error {
	rows, err := p.Query(ctx, c, args...)
	if err != nil {
		return err
	}
	return c.DB.ScanRows(ctx, rows, dest)
}

// Query runs p with args in c's transaction or on its pool; the caller
// closes the rows.
func (p *Prepared) Query(ctx context.Context, c Conn, args ...any) (*sql.Rows, error) {
	text, stmt := p.statement(c)
	args = cached(c, args)
	tx, inTx := c.IDB.(bun.Tx)
	switch {
	case stmt == nil && inTx:
		return tx.Tx.QueryContext(ctx, text, args...)
	case stmt == nil:
		return c.DB.DB.QueryContext(ctx, text, args...)
	case inTx:
		// The transaction's statement is closed with the transaction;
		// the connection's prepared statement stays with the pool's.
		return tx.Tx.StmtContext(ctx, stmt).QueryContext(ctx, args...)
	default:
		return stmt.QueryContext(ctx, args...)
	}
}

// Close closes the statement prepared on the pool, if any.
func (p *Prepared) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.stmt != nil {
		return p.stmt.Close()
	}
	return nil
}

// Arguments as bun writes them, for a prepared statement's columns that
// bun also reads and compares.

// SQLiteTime is how bun writes a time into SQLite (in UTC).
const SQLiteTime = "2006-01-02 15:04:05.999999-07:00"

// TimeArg is t as bun writes a time: on SQLite the text SQLiteTime gives
// (UTC), so that text comparisons and bun's reads see the same; on
// PostgreSQL the time itself.
func TimeArg(dialect string, t time.Time) any {
	if dialect == migrations.Postgres {
		return t
	}
	return t.UTC().Format(SQLiteTime)
}

// NullTimeArg is TimeArg of *t, or NULL.
func NullTimeArg(dialect string, t *time.Time) any {
	if t == nil {
		return nil
	}
	return TimeArg(dialect, *t)
}

// TextArg is s as bun writes a string: without NUL characters, each byte
// that is not UTF-8 replaced by U+FFFD.
func TextArg(s string) string {
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

// NullText is TextArg(s), or NULL when s is empty (bun's nullzero).
func NullText(s string) any {
	if s == "" {
		return nil
	}
	return TextArg(s)
}

// FieldArg is the argument that writes field f of the struct strct as bun
// would: NULL for a nil pointer or a nullzero field at its zero value,
// times as TimeArg, strings as TextArg, other kinds as their value (a
// driver.Valuer's own). Types bun writes otherwise (bytes, JSON of a
// struct, a map, a slice) are refused.
func FieldArg(dialect string, f *schema.Field, strct reflect.Value) (any, error) {
	fv := f.Value(strct)
	if (f.IsPtr && fv.IsNil()) || (f.NullZero && f.IsZero(fv)) {
		return nil, nil
	}
	for fv.Kind() == reflect.Pointer {
		if fv.IsNil() {
			return nil, nil
		}
		fv = fv.Elem()
	}
	switch x := fv.Interface().(type) {
	case time.Time:
		return TimeArg(dialect, x), nil
	case driver.Valuer:
		v, err := x.Value()
		if s, ok := v.(string); ok {
			return TextArg(s), err
		}
		return v, err
	}
	switch fv.Kind() {
	case reflect.String:
		return TextArg(fv.String()), nil
	case reflect.Bool:
		return fv.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fv.Int(), nil
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return int64(fv.Uint()), nil
	case reflect.Float32, reflect.Float64:
		return fv.Float(), nil
	}
	return nil, fmt.Errorf("dbopen: column %s: %s is not written as a bound argument", f.Name, fv.Type())
}

// FieldArgs are FieldArg of each of fields.
func FieldArgs(dialect string, fields []*schema.Field, strct reflect.Value) ([]any, error) {
	out := make([]any, len(fields))
	for i, f := range fields {
		v, err := FieldArg(dialect, f, strct)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
