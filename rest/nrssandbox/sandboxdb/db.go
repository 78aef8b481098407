// Package sandboxdb is the data access of the NRS sandbox stand-in: its
// businesses, parties, invoices and scenario counters, in its own tables
// (migrations/nrssandbox) on SQLite or PostgreSQL. It belongs to the stand-in
// alone: the application's store never reads these tables and this package
// never reads the application's.
//
// Several processes may share one database (the stand-in embedded in many
// API processes, or run on its own): every change is one transaction, and
// nothing is cached in memory.
package sandboxdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/migrate"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/einvoice-ng/einvoice/migrations"
)

// Names of the stand-in's migration bookkeeping tables, apart from the
// application's (bun_migrations), so that both can share one database.
const (
	MigrationTable     = "nrs_sandbox_migrations"
	MigrationLockTable = "nrs_sandbox_migration_locks"
)

// Errors of the data access. Everything else is an infrastructure failure.
var (
	// ErrNotFound: no such row.
	ErrNotFound = errors.New("sandboxdb: not found")
	// ErrConflict: a unique value is taken.
	ErrConflict = errors.New("sandboxdb: conflict")
)

// DB is the stand-in's database, or one transaction of it when handed out
// by RunInTx. It is safe for concurrent use.
type DB struct {
	db      *bun.DB
	idb     bun.IDB
	dialect string
}

// Open connects to dsn: a postgres:// or postgresql:// URL, or else a SQLite
// file path (created if missing). It does not migrate.
func Open(ctx context.Context, dsn string) (*DB, error) {
	var (
		db      *bun.DB
		dialect string
	)
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		sqldb, err := sql.Open("pgx", dsn)
		if err != nil {
			return nil, fmt.Errorf("sandboxdb: open postgres: %w", err)
		}
		sqldb.SetMaxOpenConns(10)
		sqldb.SetMaxIdleConns(5)
		sqldb.SetConnMaxIdleTime(5 * time.Minute)
		db = bun.NewDB(sqldb, pgdialect.New())
		dialect = migrations.Postgres
	default:
		path := strings.TrimPrefix(dsn, "sqlite://")
		path = strings.TrimPrefix(path, "file:")
		if i := strings.IndexByte(path, '?'); i >= 0 {
			path = path[:i]
		}
		if path == "" || path == ":memory:" {
			return nil, errors.New("sandboxdb: an in-memory SQLite database is not supported; give a file path")
		}
		if err := prepareSQLiteFile(path); err != nil {
			return nil, fmt.Errorf("sandboxdb: %w", err)
		}
		q := url.Values{}
		q.Add("_pragma", "foreign_keys(1)")
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "busy_timeout(10000)")
		q.Add("_pragma", "synchronous(NORMAL)")
		// Pages read through a memory map, not copied into a page cache
		// that WAL drops whenever another connection wrote (see
		// model/store's sqliteMmapSize).
		q.Add("_pragma", "mmap_size(1073741824)")
		q.Set("_txlock", "immediate")
		q.Set("_time_format", "sqlite")
		sqldb, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
		if err != nil {
			return nil, fmt.Errorf("sandboxdb: open sqlite: %w", err)
		}
		sqldb.SetMaxOpenConns(4)
		sqldb.SetMaxIdleConns(4)
		db = bun.NewDB(sqldb, sqlitedialect.New())
		dialect = migrations.SQLite
	}
	d := &DB{db: db, idb: db, dialect: dialect}
	if err := d.Ping(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	return d, nil
}

// Dialect names the database: "postgres" or "sqlite".
func (d *DB) Dialect() string { return d.dialect }

// Close closes the connection pool.
func (d *DB) Close() error { return d.db.Close() }

// Ping checks that the database answers.
func (d *DB) Ping(ctx context.Context) error {
	if err := d.db.PingContext(ctx); err != nil {
		return fmt.Errorf("sandboxdb: database unavailable: %w", err)
	}
	return nil
}

// RunInTx runs fn inside one transaction; fn's DB sees only that
// transaction. An error from fn rolls everything back.
func (d *DB) RunInTx(ctx context.Context, fn func(ctx context.Context, tx *DB) error) error {
	if _, ok := d.idb.(bun.Tx); ok {
		return fn(ctx, d)
	}
	return d.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return fn(ctx, &DB{db: d.db, idb: tx, dialect: d.dialect})
	})
}

// Migrate applies the stand-in's pending migrations (migrations/nrssandbox),
// bookkept in MigrationTable, and returns their names. Several processes may
// call it at once: they take turns.
func (d *DB) Migrate(ctx context.Context) ([]string, error) {
	m, err := d.migrator()
	if err != nil {
		return nil, err
	}
	if err := m.Init(ctx); err != nil {
		return nil, fmt.Errorf("sandboxdb: init migrations: %w", err)
	}
	if err := lock(ctx, m); err != nil {
		return nil, err
	}
	defer m.Unlock(context.WithoutCancel(ctx)) //nolint:errcheck // best effort
	group, err := m.Migrate(ctx)
	if err != nil {
		return nil, fmt.Errorf("sandboxdb: migrate: %w", err)
	}
	out := make([]string, 0, len(group.Migrations))
	for _, mg := range group.Migrations {
		out = append(out, mg.Name)
	}
	return out, nil
}

// Rollback undoes the last group of the stand-in's migrations.
func (d *DB) Rollback(ctx context.Context) ([]string, error) {
	m, err := d.migrator()
	if err != nil {
		return nil, err
	}
	if err := m.Init(ctx); err != nil {
		return nil, fmt.Errorf("sandboxdb: init migrations: %w", err)
	}
	if err := lock(ctx, m); err != nil {
		return nil, err
	}
	defer m.Unlock(context.WithoutCancel(ctx)) //nolint:errcheck // best effort
	group, err := m.Rollback(ctx)
	if err != nil {
		return nil, fmt.Errorf("sandboxdb: rollback: %w", err)
	}
	out := make([]string, 0, len(group.Migrations))
	for _, mg := range group.Migrations {
		out = append(out, mg.Name)
	}
	return out, nil
}

func (d *DB) migrator() (*migrate.Migrator, error) {
	ms, err := migrations.NRSSandbox(d.dialect)
	if err != nil {
		return nil, err
	}
	return migrate.NewMigrator(d.db, ms, migrate.WithMarkAppliedOnSuccess(true),
		migrate.WithTableName(MigrationTable), migrate.WithLocksTableName(MigrationLockTable)), nil
}

// lock takes the migration lock, waiting up to 30 s for another process.
func lock(ctx context.Context, m *migrate.Migrator) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := m.Lock(ctx)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("sandboxdb: %w (if no other process is migrating, remove the row from %s)", err, MigrationLockTable)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// mapErr turns driver errors into ErrNotFound and ErrConflict.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == "23505" {
		return fmt.Errorf("%w: %s", ErrConflict, pg.ConstraintName)
	}
	var lite *sqlite.Error
	if errors.As(err, &lite) {
		switch lite.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("%w: %s", ErrConflict, lite.Error())
		}
	}
	return err
}
