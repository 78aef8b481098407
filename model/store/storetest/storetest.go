// Package storetest opens fresh, migrated databases for tests: SQLite always,
// and PostgreSQL when EINVOICE_TEST_POSTGRES_URL is set (each test gets its
// own database, dropped afterwards). With CI set, an unreachable configured
// PostgreSQL fails the test instead of skipping it.
package storetest

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"strings"
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

// SQLite opens a migrated SQLite database in a temporary directory.
func SQLite(t testing.TB) *store.Store {
	t.Helper()
	return openMigrated(t, SQLiteURL(t))
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
