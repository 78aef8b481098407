//go:build !prod

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDevAttackDataDirPermissions: `einvoice dev` created its SQLite
// databases 0644 (readable by every local user) while secrets.json was
// 0600. Every database file (the main store, the stand-in's, embedded
// Temporal's, with their WAL and shared-memory files) is now 0600 and
// every folder of the data directory 0700, also for files an older version
// left 0644.
func TestDevAttackDataDirPermissions(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	dir := filepath.Join(t.TempDir(), "data")
	// An older version's database, world-readable.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "nrs-sandbox.db"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"dev", "--addr", "127.0.0.1:0", "--data-dir", dir, "--temporal-addr", "127.0.0.1:0", "--temporal-ui-addr", ""}
	p := start(t, args, nil)
	base := p.wait(t, devBanner, 2*time.Minute)
	token, _ := tenant(t, base) // writes to the main store
	if token == "" {
		t.Fatal("no token")
	}
	var dbs int
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		mode := info.Mode().Perm()
		switch {
		case d.IsDir():
			if mode != 0o700 {
				t.Errorf("folder %s is %o, want 700", path, mode)
			}
		case strings.Contains(d.Name(), ".db") || d.Name() == "secrets.json":
			if strings.HasSuffix(d.Name(), ".db") {
				dbs++
			}
			if mode != 0o600 {
				t.Errorf("%s is %o, want 600", path, mode)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if dbs < 3 {
		t.Fatalf("found %d databases under %s, want the store's, the stand-in's and Temporal's", dbs, dir)
	}
}
