// Package sandboxdbtest opens fresh, migrated databases of the NRS sandbox
// stand-in for tests: SQLite always, and PostgreSQL when
// EINVOICE_TEST_POSTGRES_URL is set (each test gets its own database,
// dropped afterwards). With CI set, an unreachable configured PostgreSQL
// fails the test instead of skipping it.
package sandboxdbtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// EnvPostgres names the variable holding the PostgreSQL URL for tests.
const EnvPostgres = "EINVOICE_TEST_POSTGRES_URL"

// Dialect is a named way to open a test database.
type Dialect struct {
	Name string
	Open func(t testing.TB) *sandboxdb.DB
}

// Dialects lists SQLite and, when configured, PostgreSQL.
func Dialects() []Dialect {
	out := []Dialect{{Name: "sqlite", Open: SQLite}}
	if os.Getenv(EnvPostgres) != "" {
		out = append(out, Dialect{Name: "postgres", Open: Postgres})
	}
	return out
}

// SQLite opens a migrated database in a fresh SQLite file: a copy of a
// database the process migrated once (see sqliteTemplate), which is the same
// schema and bookkeeping as migrating each database afresh, without running
// every migration again for each test.
func SQLite(t testing.TB) *sandboxdb.DB {
	t.Helper()
	path := SQLiteURL(t)
	if err := sqliteTemplate.copyTo(path); err != nil {
		t.Fatalf("migrated SQLite template of the stand-in's database: %v", err)
	}
	db, err := sandboxdb.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("open the stand-in's database: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// sqliteTemplate is a database migrated once per process, kept in memory:
// the files a closed SQLite database leaves (the database, and a write-ahead
// log when one was not checkpointed).
var sqliteTemplate template

type template struct {
	once  sync.Once
	files map[string][]byte // by suffix of the database's path: "", "-wal"
	err   error
}

func (tp *template) copyTo(path string) error {
	tp.once.Do(func() { tp.files, tp.err = buildTemplate() })
	if tp.err != nil {
		return tp.err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	for suffix, b := range tp.files {
		if err := os.WriteFile(path+suffix, b, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// buildTemplate migrates a database in a temporary directory, closes it and
// returns its files.
func buildTemplate() (map[string][]byte, error) {
	dir, err := os.MkdirTemp("", "einvoice-sandboxdbtest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "template.db")
	ctx := context.Background()
	db, err := sandboxdb.Open(ctx, src)
	if err != nil {
		return nil, err
	}
	if _, err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(src + suffix)
		if err != nil {
			if suffix != "" && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, err
		}
		files[suffix] = b
	}
	return files, nil
}

// SQLiteURL returns the path of a fresh SQLite file in t's temp dir.
func SQLiteURL(t testing.TB) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "nrs-sandbox.db")
}

// Postgres opens a migrated, fresh PostgreSQL database.
func Postgres(t testing.TB) *sandboxdb.DB {
	t.Helper()
	return Open(t, PostgresURL(t))
}

// PostgresURL creates a fresh PostgreSQL database and returns its URL; it is
// dropped when the test ends. It skips when the server is not configured and
// fails (with CI set) when it is configured but unreachable.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvPostgres)
	if base == "" {
		t.Skipf("%s is not set", EnvPostgres)
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("open %s: %v", EnvPostgres, err)
	}
	t.Cleanup(func() { admin.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := admin.PingContext(ctx); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL at %s is configured but unreachable: %v", EnvPostgres, err)
		}
		t.Skipf("PostgreSQL configured but unreachable: %v", err)
	}
	name := "nrs_sandbox_test_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:16]
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse %s: %v", EnvPostgres, err)
	}
	u.Path = "/" + name
	return u.String()
}

// Open opens and migrates the database at dsn, closed when the test ends.
func Open(t testing.TB, dsn string) *sandboxdb.DB {
	t.Helper()
	ctx := context.Background()
	db, err := sandboxdb.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("open the stand-in's database: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatalf("migrate the stand-in's database: %v", err)
	}
	return db
}
