package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/rest/nrssandbox/sandboxdb"
)

// TestAttackDatabaseFilePermissions: SQLite databases were created 0644
// (readable by every local user) while secrets.json was 0600. The main
// store's and the stand-in's database files, with their WAL and
// shared-memory files, are now 0600 and the folders made for them 0700,
// also for files an older version left 0644; so is the stand-in's
// generated seal key. (TestDevAttackDataDirPermissions covers `einvoice
// dev` with embedded Temporal, in the default build.)
func TestAttackDatabaseFilePermissions(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	old := filepath.Join(t.TempDir(), "old.db")
	if err := os.WriteFile(old, nil, 0o644); err != nil { // an older version's database
		t.Fatal(err)
	}
	st, err := store.Open(ctx, filepath.Join(dir, "einvoice.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Migrations().Up(ctx); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sdb, err := sandboxdb.Open(ctx, old)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sdb.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	if _, err := keyFile(filepath.Join(dir, "nrs-sandbox-seal.key")); err != nil {
		t.Fatal(err)
	}
	want := map[string]os.FileMode{dir: 0o700, filepath.Join(dir, "nrs-sandbox-seal.key"): 0o600}
	for _, db := range []string{filepath.Join(dir, "einvoice.db"), old} {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			want[db+suffix] = 0o600
		}
	}
	for path, mode := range want {
		info, err := os.Stat(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if got := info.Mode().Perm(); got != mode {
			t.Errorf("%s is %o, want %o", path, got, mode)
		}
	}
}
