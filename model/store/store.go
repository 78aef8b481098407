// Package store holds every database query of einvoice. It speaks to SQLite
// (embedded default) and PostgreSQL through bun, maps driver errors to
// model.Error (no rows -> not_found, unique violation -> conflict) and offers
// RunInTx so that multi-row writes are atomic.
//
// A Store is a connection pool, or one transaction when RunInTx hands it
// out. Its queries live in one repository per noun (Users, Organizations,
// Projects, Keys, Usage, Audit, Runs, Idempotency, Sessions, Tokens,
// CodeLists, IRNs), each reached from the Store it runs in, so that the
// queries of one transaction compose: tx.Runs().Create(...) and
// tx.Audit().Append(...) inside one RunInTx commit together.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/einvoice-ng/einvoice/migrations"
	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store/dbopen"
)

// Store runs queries against one database, or inside one transaction when it
// was handed out by RunInTx.
type Store struct {
	db      *bun.DB
	idb     bun.IDB
	dialect string
	// stmts are the statements prepared once per process (hot paths).
	stmts *statements
	// read are the submitted invoices as this transaction read or wrote
	// them last (Lock, Create, Save), so that Save writes only the columns
	// that changed; nil outside a transaction.
	read map[uuid.UUID]*model.SubmittedInvoice
	// pending are the rows a transaction holds back (BufferRows), nil
	// when it writes each at once.
	pending *pendingRows
}

// Open connects to dsn: a postgres:// or postgresql:// URL, or else a SQLite
// file path (created if missing). It does not migrate.
func Open(ctx context.Context, dsn string) (*Store, error) {
	o, err := dbopen.Open(dsn, dbopen.Options{Name: "store",
		Postgres: dbopen.Pool{MaxOpen: 20, MaxIdle: 20}, SQLite: dbopen.Pool{MaxOpen: 8, MaxIdle: 8},
		Busy: 10 * time.Second, AutoCheckpoint: walLimits.auto})
	if err != nil {
		return nil, err
	}
	db := o.DB
	s := &Store{db: db, idb: db, dialect: o.Dialect, stmts: newStatements()}
	if o.SQLitePath != "" {
		s.stmts.writer = make(chan struct{}, 1)
	}
	if err := s.Ping(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	if o.SQLitePath != "" && walLimits.checkpointer {
		c, err := startCheckpointer(dbopen.SQLiteDSN(o.SQLitePath, checkpointBusyTimeout, 0), &s.stmts.irnWriter, walLimits.restart)
		if err != nil {
			_ = db.Close()
			return nil, fmt.Errorf("store: open sqlite: %w", err)
		}
		s.stmts.checkpointer = c
	}
	return s, nil
}

// Dialect names the database: "postgres" or "sqlite".
func (s *Store) Dialect() string { return s.dialect }

// Close stops the SQLite checkpointer and closes the connection pool.
func (s *Store) Close() error {
	if c := s.stmts.checkpointer; c != nil {
		c.close()
	}
	s.stmts.irnWriter.close()
	s.stmts.closePrepared()
	return s.db.Close()
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.db.PingContext(ctx); err != nil {
		return &model.Error{Code: model.CodeUnavailable, Message: errDatabaseUnavailable,
			RetryAfter: model.DependencyRetryAfter, Err: err}
	}
	return nil
}

// RunInTx runs fn inside one transaction; fn's Store sees only that
// transaction. An error from fn rolls everything back.
func (s *Store) RunInTx(ctx context.Context, fn func(ctx context.Context, tx *Store) error) error {
	if _, ok := s.idb.(bun.Tx); ok {
		return fn(ctx, s) // already in a transaction
	}
	if release := s.stmts.takeWriter(ctx); release != nil {
		defer release()
	}
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		ts := &Store{db: s.db, idb: tx, dialect: s.dialect, stmts: s.stmts, read: map[uuid.UUID]*model.SubmittedInvoice{}}
		if err := fn(ctx, ts); err != nil {
			return err
		}
		return ts.flushRows(ctx)
	})
	var me *model.Error
	if err != nil && !errors.As(err, &me) {
		if e := classifyUnavailable(err); e != nil {
			return e
		}
	}
	return err
}

// migrator builds bun's migrator over the dialect's embedded migrations.
func (s *Store) migrator() (*migrate.Migrator, error) {
	m, err := migrations.For(s.dialect)
	if err != nil {
		return nil, err
	}
	return migrate.NewMigrator(s.db, m, migrate.WithMarkAppliedOnSuccess(true)), nil
}

// Migrations is the schema's migrator over the dialect's embedded
// migrations: Up, Down, Pending and Status.
type Migrations struct{ s *Store }

// Migrations returns the schema's migrator.
func (s *Store) Migrations() Migrations { return Migrations{s} }

// Up applies every pending migration and returns their names.
func (r Migrations) Up(ctx context.Context) ([]string, error) {
	m, err := r.s.migrator()
	if err != nil {
		return nil, err
	}
	return dbopen.Migrate(ctx, m, "store", "bun_migration_locks")
}

// Down rolls back the last group of migrations and returns their names.
func (r Migrations) Down(ctx context.Context) ([]string, error) {
	m, err := r.s.migrator()
	if err != nil {
		return nil, err
	}
	return dbopen.Rollback(ctx, m, "store", "bun_migration_locks")
}

// MigrationStatus lists every known migration and whether it is applied.
type MigrationStatus struct {
	Name    string
	Applied bool
}

// Pending counts the migrations this build knows that the
// database has not applied, without changing anything (for readiness).
func (r Migrations) Pending(ctx context.Context) (int, error) {
	m, err := r.s.migrator()
	if err != nil {
		return 0, err
	}
	ms, err := m.MigrationsWithStatus(ctx)
	if err != nil {
		if e := classifyUnavailable(err); e != nil {
			return 0, e
		}
		return 0, fmt.Errorf("store: migration status: %w", err)
	}
	return len(ms.Unapplied()), nil
}

// Status reports the state of every migration.
func (r Migrations) Status(ctx context.Context) ([]MigrationStatus, error) {
	m, err := r.s.migrator()
	if err != nil {
		return nil, err
	}
	if err := m.Init(ctx); err != nil {
		return nil, fmt.Errorf("store: init migrations: %w", err)
	}
	ms, err := m.MigrationsWithStatus(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: migration status: %w", err)
	}
	out := make([]MigrationStatus, 0, len(ms))
	for _, mg := range ms {
		out = append(out, MigrationStatus{Name: mg.Name, Applied: mg.IsApplied()})
	}
	return out, nil
}

// wrap maps a driver error to a model.Error. what names the object for
// not-found and conflict messages.
func (s *Store) wrap(err error, what string) error {
	if err == nil {
		return nil
	}
	var me *model.Error
	if errors.As(err, &me) {
		return err
	}
	if errors.Is(err, sql.ErrNoRows) {
		return model.NotFound(what)
	}
	if isUniqueViolation(err) {
		return &model.Error{Code: model.CodeConflict, Message: what + " already exists", Err: err}
	}
	if e := classifyUnavailable(err); e != nil {
		return e
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return model.Wrap(model.CodeUnavailable, err, "request cancelled")
	}
	return model.Wrap(model.CodeInternal, err, "Internal Server Error")
}

func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505"
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		c := sqErr.Code()
		return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// IsUniqueViolation reports whether err (possibly wrapped in a model.Error)
// came from a unique constraint.
func IsUniqueViolation(err error) bool { return isUniqueViolation(err) }

// DB exposes the query builder for tests and maintenance tools.
func (s *Store) DB() bun.IDB { return s.idb }

// refuseNUL guards the write and lookup paths of names and e-mails, given
// as pairs of field and value: bun writes strings as SQL literals and drops
// U+0000 from them silently, so a NUL that got past validation would
// change what is stored or looked up. Such a value is invalid
// (value_error) at its field instead.
func refuseNUL(pairs ...string) error {
	var p model.Problems
	for i := 0; i+1 < len(pairs); i += 2 {
		if strings.IndexByte(pairs[i+1], 0) >= 0 {
			p.Add(model.ProblemValueError, "Value error, must not contain U+0000 (NUL)", pairs[i])
		}
	}
	return p.Err()
}
