// Package storetest opens fresh, migrated databases for tests: SQLite always,
// and PostgreSQL when EINVOICE_TEST_POSTGRES_URL is set (each test gets its
// own database, dropped afterwards). With CI set, an unreachable configured
// PostgreSQL fails the test instead of skipping it.
package storetest

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
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver

	"github.com/einvoice-ng/einvoice/model/store"
)

// EnvPostgres names the variable holding the PostgreSQL URL for tests.
const EnvPostgres = "EINVOICE_TEST_POSTGRES_URL"

// Dialect is a named way to open a test database.
type Dialect struct {
	Name string
	Open func(t testing.TB) *store.Store
}

// Dialects lists SQLite and, when configured, PostgreSQL.
func Dialects(t testing.TB) []Dialect {
	t.Helper()
	out := []Dialect{{Name: "sqlite", Open: SQLite}}
	if os.Getenv(EnvPostgres) != "" {
		out = append(out, Dialect{Name: "postgres", Open: Postgres})
	}
	return out
}

// SQLite opens a migrated SQLite database in a temporary directory: a copy
// of a database the process migrated once (see sqliteTemplate), which is the
// same schema and bookkeeping as migrating each database afresh, without
// running every migration again for each test.
func SQLite(t testing.TB) *store.Store {
	t.Helper()
	path := SQLiteURL(t)
	if err := sqliteTemplate.copyTo(path); err != nil {
		t.Fatalf("migrated SQLite template: %v", err)
	}
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// sqliteTemplate is a SQLite database migrated once per process, kept in
// memory: the files a closed database leaves (the database, and a
// write-ahead log when one was not checkpointed).
var sqliteTemplate = &template{build: func(path string) error {
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	if _, err := st.Migrations().Up(ctx); err != nil {
		st.Close()
		return fmt.Errorf("migrate: %w", err)
	}
	return st.Close()
}}

// template builds a SQLite database once and writes copies of its files.
type template struct {
	build func(path string) error
	once  sync.Once
	files map[string][]byte // by suffix of the database's path: "", "-wal"
	err   error
}

func (tp *template) copyTo(path string) error {
	tp.once.Do(func() {
		dir, err := os.MkdirTemp("", "einvoice-storetest-")
		if err != nil {
			tp.err = err
			return
		}
		defer os.RemoveAll(dir)
		src := filepath.Join(dir, "template.db")
		if tp.err = tp.build(src); tp.err != nil {
			return
		}
		tp.files = map[string][]byte{}
		for _, suffix := range []string{"", "-wal"} {
			b, err := os.ReadFile(src + suffix)
			if err != nil {
				if suffix != "" && errors.Is(err, fs.ErrNotExist) {
					continue
				}
				tp.err = err
				return
			}
			tp.files[suffix] = b
		}
	})
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

// SQLiteURL returns the path of a fresh SQLite file in t's temp dir.
func SQLiteURL(t testing.TB) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "einvoice.db")
}

// Postgres opens a migrated, fresh PostgreSQL database. It skips when the
// server is not configured, and fails (with CI set) when it is configured
// but unreachable.
func Postgres(t testing.TB) *store.Store {
	t.Helper()
	return openMigrated(t, PostgresURL(t))
}

// PostgresURL creates a fresh PostgreSQL database and returns its URL; it is
// dropped when the test ends.
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
	name := "einvoice_test_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:16]
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

func openMigrated(t testing.TB, dsn string) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrations().Up(ctx); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return st
}
