package dbopen_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/einvoice-ng/einvoice/migrations"
	"github.com/einvoice-ng/einvoice/model/store/dbopen"
)

func TestOpenSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "db.sqlite")
	o, err := dbopen.Open("sqlite://"+path+"?ignored=1", dbopen.Options{Name: "test", SQLite: dbopen.Pool{MaxOpen: 2, MaxIdle: 2},
		AutoCheckpoint: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer o.DB.Close()
	if o.Dialect != migrations.SQLite || o.SQLitePath != path {
		t.Fatalf("opened %q at %q", o.Dialect, o.SQLitePath)
	}
	ctx := context.Background()
	for pragma, want := range map[string]string{"journal_mode": "wal", "foreign_keys": "1", "synchronous": "1", "mmap_size": "1073741824", "temp_store": "2"} {
		var got string
		if err := o.DB.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %s, want %s", pragma, got, want)
		}
	}
	for _, p := range []string{path, filepath.Dir(path)} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		want := os.FileMode(0o600)
		if fi.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s has mode %v, want %v", p, fi.Mode().Perm(), want)
		}
	}
}

func TestOpenRefusesMemory(t *testing.T) {
	for _, dsn := range []string{"", ":memory:", "file::memory:?cache=shared"} {
		if _, err := dbopen.Open(dsn, dbopen.Options{Name: "test"}); err == nil || !strings.HasPrefix(err.Error(), "test: an in-memory SQLite database") {
			t.Errorf("%q: %v, want an in-memory refusal", dsn, err)
		}
	}
}

func TestSQLiteDSN(t *testing.T) {
	with := dbopen.SQLiteDSN("/x.db", 0, 0)
	without := dbopen.SQLiteDSN("/x.db", 0, -1)
	if !strings.Contains(with, "wal_autocheckpoint%280%29") || strings.Contains(without, "wal_autocheckpoint") {
		t.Fatalf("autocheckpoint: %s / %s", with, without)
	}
}
