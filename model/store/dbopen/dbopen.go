// Package dbopen opens einvoice's databases with one set of rules, for the
// application's store (model/store) and the NRS sandbox stand-in's tables
// (rest/nrssandbox/sandboxdb) alike: a postgres:// or postgresql:// URL
// through pgx with bun's pgdialect, else a SQLite file (never in memory)
// made readable by its owner only, opened in WAL mode with
// synchronous=NORMAL, foreign keys enforced, BEGIN taking the write lock,
// times written as SQLite reads them, and pages read through a memory map.
// Each caller keeps its own pool sizes and, on SQLite, its busy timeout
// and checkpointing. Both prepare their hot statements once, with bound
// arguments written as bun writes them (Prepared).
package dbopen

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/migrate"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/einvoice-ng/einvoice/migrations"
)

// Pool bounds a connection pool. On PostgreSQL keep MaxIdle at MaxOpen:
// a connection given back beyond MaxIdle is closed, and under a steady
// load the pool then opens another a moment later; each is a new
// PostgreSQL backend (a fork, its catalog caches filled again, every
// statement prepared again), and at 100 invoices a second such churn cost
// about as much CPU as everything the processes themselves did
// (docs/performance.md). Idle connections still close after
// postgresIdleTime.
type Pool struct {
	MaxOpen, MaxIdle int
}

// Options are a caller's own choices.
type Options struct {
	// Name prefixes the errors ("store", "sandboxdb").
	Name string
	// Postgres and SQLite are the pools of each kind of database.
	Postgres, SQLite Pool
	// Busy is how long a SQLite connection waits for the write lock.
	Busy time.Duration
	// AutoCheckpoint is SQLite's wal_autocheckpoint in pages: 0 never
	// (a checkpointer of the caller's own does it), negative SQLite's
	// default.
	AutoCheckpoint int
}

// Opened is an open database.
type Opened struct {
	DB *bun.DB
	// Dialect is migrations.Postgres or migrations.SQLite.
	Dialect string
	// SQLitePath is the SQLite file ("" on PostgreSQL).
	SQLitePath string
}

// On PostgreSQL a statement runs unnamed, parsed, bound and executed in
// one round trip (pgx's QueryExecModeExec), unless the URL chooses
// another default_query_exec_mode. bun writes every argument into its
// statements' text, so that no two share one: pgx's default mode would
// prepare each under a name first (a round trip of its own, a plan the
// server keeps until the connection's cache of 512 evicts it and then a
// DEALLOCATE), for a text that never runs again. The hot statements that
// do run again (Prepared) still ask for pgx's statement cache.

// A statement kept prepared is planned again at every execution, for its
// arguments and the tables as they are then (plan_cache_mode
// force_custom_plan, unless the URL sets plan_cache_mode): PostgreSQL
// otherwise settles on a generic plan after five executions, chosen while
// the tables may still be nearly empty. Measured on a fresh database (the
// deployed benchmark), the stand-in's lookup of an invoice by business and
// IRN kept a plan that read every invoice of the business through another
// index (1,700 pages per lookup after 1,800 invoices), and the store's
// lookup by project and IRN a similar one; planning a lookup costs a few
// microseconds.

// postgresIdleTime is how long an idle PostgreSQL connection is kept.
const postgresIdleTime = 5 * time.Minute

// Open connects to dsn: a postgres:// or postgresql:// URL, or else a
// SQLite file path (created if missing; sqlite:// and file: prefixes and
// a query are dropped). It does not migrate, nor ping.
func Open(dsn string, o Options) (*Opened, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			return nil, fmt.Errorf("%s: open postgres: %w", o.Name, err)
		}
		if !strings.Contains(dsn, "default_query_exec_mode") {
			cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
		}
		if _, set := cfg.RuntimeParams["plan_cache_mode"]; !set {
			cfg.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
		}
		sqldb := stdlib.OpenDB(*cfg)
		sqldb.SetMaxOpenConns(o.Postgres.MaxOpen)
		sqldb.SetMaxIdleConns(o.Postgres.MaxIdle)
		sqldb.SetConnMaxIdleTime(postgresIdleTime)
		return &Opened{DB: bun.NewDB(sqldb, pgdialect.New()), Dialect: migrations.Postgres}, nil
	}
	path := strings.TrimPrefix(dsn, "sqlite://")
	path = strings.TrimPrefix(path, "file:")
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	if path == "" || path == ":memory:" {
		return nil, fmt.Errorf("%s: an in-memory SQLite database is not supported; give a file path", o.Name)
	}
	if err := PrepareSQLiteFile(path); err != nil {
		return nil, fmt.Errorf("%s: %w", o.Name, err)
	}
	sqldb, err := sql.Open("sqlite", SQLiteDSN(path, o.Busy, o.AutoCheckpoint))
	if err != nil {
		return nil, fmt.Errorf("%s: open sqlite: %w", o.Name, err)
	}
	sqldb.SetMaxOpenConns(o.SQLite.MaxOpen)
	sqldb.SetMaxIdleConns(o.SQLite.MaxIdle)
	return &Opened{DB: bun.NewDB(sqldb, sqlitedialect.New()), Dialect: migrations.SQLite, SQLitePath: path}, nil
}

// MmapSize is how much of a SQLite database file its connections read
// through a memory map instead of their page caches. In WAL mode a
// connection drops its whole page cache whenever another connection of
// the pool has written since its last transaction, which under a steady
// stream of writes is every transaction: each then read its pages again
// (pread) into page buffers the allocator maps and unmaps (mmap, munmap).
// Pages read through the map need neither (`PRAGMA mmap_size`).
const MmapSize = 1 << 30

// Statement journals are kept in memory in chunks of 1 KiB
// (`PRAGMA temp_store=MEMORY`). A statement that may fail after changing
// some rows (an insert into a table with unique indexes, inside a
// transaction of several statements) keeps a journal to undo just itself;
// by default its first chunk is 64 KiB, which the driver's allocator maps
// and unmaps for every such statement (about 5 % of the process's CPU
// under a stream of invoices). Temporary tables and indexes are kept in
// memory too.

// SQLiteDSN is the driver's name for the SQLite file at path: WAL with
// synchronous=NORMAL, foreign keys enforced, BEGIN taking the write lock
// (IMMEDIATE), busy waiting up to busy, pages read through a memory map
// (MmapSize), statement journals in memory (temp_store), and a connection checkpointing the log inside its own commit
// once it reaches autoCheckpoint pages (0: never; negative: SQLite's
// default).
func SQLiteDSN(path string, busy time.Duration, autoCheckpoint int) string {
	q := url.Values{}
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	q.Add("_pragma", "synchronous(NORMAL)")
	if autoCheckpoint >= 0 {
		q.Add("_pragma", fmt.Sprintf("wal_autocheckpoint(%d)", autoCheckpoint))
	}
	q.Add("_pragma", "mmap_size("+strconv.Itoa(MmapSize)+")")
	q.Add("_pragma", "temp_store(MEMORY)")
	q.Set("_txlock", "immediate")
	q.Set("_time_format", "sqlite")
	return "file:" + path + "?" + q.Encode()
}

// PrepareSQLiteFile makes a SQLite database's file readable by its owner
// only before SQLite opens it: its folder is created 0700 when missing,
// the file is created 0600 when missing (SQLite takes an empty file for a
// new database) and an existing one is set to 0600, as are its journal,
// WAL and shared-memory files, which SQLite creates with the database
// file's permissions.
func PrepareSQLiteFile(path string) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return ChmodSQLiteFiles(path)
}

// ChmodSQLiteFiles sets a SQLite database's file and its journal, WAL and
// shared-memory files, those that exist, to 0600.
func ChmodSQLiteFiles(path string) error {
	for _, p := range []string{path, path + "-journal", path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// Migrate applies m's pending migrations and returns their names. Several
// processes may call it at once: they take turns, each waiting up to 30 s
// for the migration lock (name prefixes the errors; lockTable is the
// table an operator clears when a process died holding the lock).
func Migrate(ctx context.Context, m *migrate.Migrator, name, lockTable string) ([]string, error) {
	return locked(ctx, m, name, lockTable, "migrate", m.Migrate)
}

// Rollback undoes m's last group of migrations and returns their names,
// under the migration lock as Migrate.
func Rollback(ctx context.Context, m *migrate.Migrator, name, lockTable string) ([]string, error) {
	return locked(ctx, m, name, lockTable, "rollback", m.Rollback)
}

// locked runs a migrator's step under the migration lock.
func locked(ctx context.Context, m *migrate.Migrator, name, lockTable, verb string,
	step func(context.Context, ...migrate.MigrationOption) (*migrate.MigrationGroup, error)) ([]string, error) {
	if err := m.Init(ctx); err != nil {
		return nil, fmt.Errorf("%s: init migrations: %w", name, err)
	}
	if err := lock(ctx, m, name, lockTable); err != nil {
		return nil, err
	}
	defer m.Unlock(context.WithoutCancel(ctx)) //nolint:errcheck // best effort
	group, err := step(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", name, verb, err)
	}
	return Names(group), nil
}

// Names lists a group's migrations.
func Names(g *migrate.MigrationGroup) []string {
	out := make([]string, 0, len(g.Migrations))
	for _, mg := range g.Migrations {
		out = append(out, mg.Name)
	}
	return out
}

// lock takes the migration lock, waiting up to 30 s for another process
// that is migrating the same database.
func lock(ctx context.Context, m *migrate.Migrator, name, lockTable string) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := m.Lock(ctx)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: %w (if no other process is migrating, remove the row from %s)", name, err, lockTable)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}
