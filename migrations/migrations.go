// Package migrations embeds the SQL migrations of both database dialects and
// hands them to bun's migrator. Each change is one file pair (up and down) per
// dialect, kept side by side under postgres/ and sqlite/.
//
// The NRS sandbox stand-in (rest/nrssandbox) is a service of its own with its
// own tables: its migrations live under nrssandbox/ and are applied with
// their own bookkeeping table, so the stand-in can migrate a database of its
// own or share the application's.
package migrations

import (
	"embed"
	"fmt"
	"io/fs"

	"github.com/uptrace/bun/migrate"
)

//go:embed postgres/*.sql sqlite/*.sql
var files embed.FS

//go:embed nrssandbox/postgres/*.sql nrssandbox/sqlite/*.sql
var sandboxFiles embed.FS

// Dialect names accepted by For.
const (
	Postgres = "postgres"
	SQLite   = "sqlite"
)

// For returns the migrations of a dialect.
func For(dialect string) (*migrate.Migrations, error) {
	if dialect != Postgres && dialect != SQLite {
		return nil, fmt.Errorf("migrations: unknown dialect %q", dialect)
	}
	return discover(files, dialect)
}

// NRSSandbox returns the migrations of the NRS sandbox stand-in's tables for
// a dialect. Apply them with their own table names (see
// rest/nrssandbox/sandboxdb), never together with For's.
func NRSSandbox(dialect string) (*migrate.Migrations, error) {
	if dialect != Postgres && dialect != SQLite {
		return nil, fmt.Errorf("migrations: unknown dialect %q", dialect)
	}
	sub, err := fs.Sub(sandboxFiles, "nrssandbox")
	if err != nil {
		return nil, err
	}
	return discover(sub, dialect)
}

func discover(fsys fs.FS, dialect string) (*migrate.Migrations, error) {
	sub, err := fs.Sub(fsys, dialect)
	if err != nil {
		return nil, err
	}
	m := migrate.NewMigrations()
	if err := m.Discover(sub); err != nil {
		return nil, fmt.Errorf("migrations: discover %s: %w", dialect, err)
	}
	return m, nil
}

// Files exposes the embedded SQL, for tests that check every up has a down.
func Files() fs.FS { return files }

// NRSSandboxFiles exposes the stand-in's embedded SQL (postgres/ and
// sqlite/), for the same tests.
func NRSSandboxFiles() fs.FS {
	sub, _ := fs.Sub(sandboxFiles, "nrssandbox")
	return sub
}
