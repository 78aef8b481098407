// Package sandboxdb is the data access of the NRS sandbox stand-in: its
// businesses, parties, invoices and scenario counters, in its own tables
// (migrations/nrssandbox) on SQLite or PostgreSQL. It belongs to the stand-in
// alone: the application's store never reads these tables and this package
// never reads the application's.
//
// Several processes may share one database (the stand-in embedded in many
// API processes, or run on its own): every change is one transaction, and
// nothing read is kept in memory (a process only remembers when it last
// dropped a business's expired counters).
package sandboxdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/einvoice-ng/einvoice/migrations"
	"github.com/einvoice-ng/einvoice/model/store/dbopen"
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
	// stmts are the hot statements, prepared once per pool.
	stmts *statements
	// pruned is when the process last dropped each business's expired
	// scenario counters.
	pruned *pruneClock
}

// statements are the stand-in's hot statements (every call authenticates
// and looks for faults; most read an invoice), prepared once with their
// arguments bound (dbopen.Prepared).
type statements struct {
	businessByKey, activeFaults, invoiceByIRN, businessAndFaults, invoiceStateByIRN dbopen.Prepared
}

func newStatements() *statements {
	st := &statements{}
	st.businessByKey.Build = func(db *bun.DB, _ string, ph func(int) string) string {
		return db.NewSelect().Model((*Business)(nil)).Where("api_key = ?", bun.Safe(ph(1))).Limit(1).String()
	}
	st.activeFaults.Build = func(db *bun.DB, _ string, ph func(int) string) string {
		return db.NewSelect().Model((*Fault)(nil)).Where("business_id = ?", bun.Safe(ph(1))).
			Where("starts_at <= ?", bun.Safe(ph(2))).Where("ends_at > ?", bun.Safe(ph(3))).
			OrderExpr("kind ASC, endpoint ASC").String()
	}
	st.businessAndFaults.Build = buildBusinessAndFaults
	st.invoiceByIRN.Build = func(db *bun.DB, _ string, ph func(int) string) string {
		return db.NewSelect().Model((*Invoice)(nil)).Where("business_id = ?", bun.Safe(ph(1))).Where("irn = ?", bun.Safe(ph(2))).String()
	}
	st.invoiceStateByIRN.Build = func(db *bun.DB, _ string, ph func(int) string) string {
		return db.NewSelect().Model((*Invoice)(nil)).ExcludeColumn("payload").
			Where("business_id = ?", bun.Safe(ph(1))).Where("irn = ?", bun.Safe(ph(2))).String()
	}
	return st
}

// conn is where d's prepared statements run.
func (d *DB) conn() dbopen.Conn { return dbopen.Conn{DB: d.db, IDB: d.idb, Dialect: d.dialect} }

// Open connects to dsn: a postgres:// or postgresql:// URL, or else a SQLite
// file path (created if missing). It does not migrate.
func Open(ctx context.Context, dsn string) (*DB, error) {
	o, err := dbopen.Open(dsn, dbopen.Options{Name: "sandboxdb",
		Postgres: dbopen.Pool{MaxOpen: 10, MaxIdle: 10}, SQLite: dbopen.Pool{MaxOpen: 4, MaxIdle: 4},
		Busy: 10 * time.Second, AutoCheckpoint: -1})
	if err != nil {
		return nil, err
	}
	d := &DB{db: o.DB, idb: o.DB, dialect: o.Dialect, stmts: newStatements(), pruned: &pruneClock{}}
	if err := d.Ping(ctx); err != nil {
		_ = o.DB.Close()
		return nil, err
	}
	return d, nil
}

// Dialect names the database: "postgres" or "sqlite".
func (d *DB) Dialect() string { return d.dialect }

// Close closes the connection pool.
func (d *DB) Close() error {
	for _, p := range []*dbopen.Prepared{&d.stmts.businessByKey, &d.stmts.activeFaults, &d.stmts.invoiceByIRN, &d.stmts.businessAndFaults, &d.stmts.invoiceStateByIRN} {
		p.Close()
	}
	return d.db.Close()
}

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
		return fn(ctx, &DB{db: d.db, idb: tx, dialect: d.dialect, stmts: d.stmts, pruned: d.pruned})
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
	return dbopen.Migrate(ctx, m, "sandboxdb", MigrationLockTable)
}

// Rollback undoes the last group of the stand-in's migrations.
func (d *DB) Rollback(ctx context.Context) ([]string, error) {
	m, err := d.migrator()
	if err != nil {
		return nil, err
	}
	return dbopen.Rollback(ctx, m, "sandboxdb", MigrationLockTable)
}

func (d *DB) migrator() (*migrate.Migrator, error) {
	ms, err := migrations.NRSSandbox(d.dialect)
	if err != nil {
		return nil, err
	}
	return migrate.NewMigrator(d.db, ms, migrate.WithMarkAppliedOnSuccess(true),
		migrate.WithTableName(MigrationTable), migrate.WithLocksTableName(MigrationLockTable)), nil
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
