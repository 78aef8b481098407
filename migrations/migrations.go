// Package migrations embeds the SQL migrations of both database dialects and
// hands them to bun's migrator. Each change is one file pair (up and down) per
// dialect, kept side by side under postgres/ and sqlite/.
package migrations

import (
	"embed"
	"fmt"
	"io/fs"

	"github.com/uptrace/bun/migrate"
)

//go:embed postgres/*.sql sqlite/*.sql
var files embed.FS

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
	sub, err := fs.Sub(files, dialect)
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
