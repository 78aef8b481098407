package store_test

import (
	"context"
	"database/sql"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// TestDeadlockIsUnavailable: a transaction that PostgreSQL gives up to
// break a deadlock comes out of RunInTx as unavailable with a Retry-After
// of a second (a 503 the caller may retry), not as an internal error; the
// other transaction commits.
func TestDeadlockIsUnavailable(t *testing.T) {
	if os.Getenv(storetest.EnvPostgres) == "" {
		t.Skip("PostgreSQL only: " + storetest.EnvPostgres + " is not set")
	}
	for _, d := range storetest.Dialects(t) {
		if d.Name != "postgres" {
			continue
		}
		st := d.Open(t)
		ctx := context.Background()
		db := st.DB()
		if _, err := db.ExecContext(ctx, "CREATE TABLE lock_probe (id int PRIMARY KEY, n int NOT NULL)"); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, "INSERT INTO lock_probe VALUES (1, 0), (2, 0)"); err != nil {
			t.Fatal(err)
		}
		var both sync.WaitGroup
		both.Add(2)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i, order := range [][2]int{{1, 2}, {2, 1}} {
			wg.Go(func() {
				errs[i] = st.RunInTx(ctx, func(ctx context.Context, tx *store.Store) error {
					if _, err := tx.DB().ExecContext(ctx, "UPDATE lock_probe SET n = n + 1 WHERE id = ?", order[0]); err != nil {
						both.Done()
						return err
					}
					both.Done()
					both.Wait() // each holds its first row
					_, err := tx.DB().ExecContext(ctx, "UPDATE lock_probe SET n = n + 1 WHERE id = ?", order[1])
					return err
				})
			})
		}
		wg.Wait()
		failed := 0
		for _, err := range errs {
			if err == nil {
				continue
			}
			failed++
			if !store.Contended(err) {
				t.Fatalf("not contended: %v", err)
			}
			e := model.AsError(err)
			if e.Code != model.CodeUnavailable || e.RetryAfter != time.Second {
				t.Fatalf("deadlock answered %s (Retry-After %s): %v", e.Code, e.RetryAfter, err)
			}
		}
		if failed != 1 {
			t.Fatalf("%d of 2 transactions failed: %v", failed, errs)
		}
		var n int
		if err := db.NewRaw("SELECT SUM(n) FROM lock_probe").Scan(ctx, &n); err != nil || n != 2 {
			t.Fatalf("rows after the deadlock: %d %v, want the winner's 2 updates only", n, err)
		}
	}
}

// TestSQLiteBusyIsUnavailable: a write transaction refused because another
// holds the database (SQLITE_BUSY once the busy timeout ran out) is
// unavailable with a Retry-After, not an internal error.
func TestSQLiteBusyIsUnavailable(t *testing.T) {
	path := storetest.SQLiteURL(t)
	open := func() *sql.DB {
		db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)&_pragma=journal_mode(WAL)")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	ctx := context.Background()
	holder, err := open().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.ExecContext(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	if _, err := holder.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	defer holder.ExecContext(ctx, "ROLLBACK") //nolint:errcheck
	other, err := open().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	_, err = other.ExecContext(ctx, "BEGIN IMMEDIATE")
	if err == nil {
		t.Fatal("a second writer began while the first held the database")
	}
	if !store.Contended(err) {
		t.Fatalf("not contended: %v", err)
	}
	if e := model.AsError(err); e.Code != model.CodeUnavailable || e.RetryAfter != time.Second {
		t.Fatalf("busy answered %s (Retry-After %s): %v", e.Code, e.RetryAfter, err)
	}
	// Not every failure is contention.
	if _, err := other.ExecContext(ctx, "SELECT * FROM no_such_table"); err == nil || store.Contended(err) {
		t.Fatalf("a missing table: %v", err)
	}
}
