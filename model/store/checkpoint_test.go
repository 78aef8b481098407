package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"testing"
	"time"

	"github.com/einvoice-ng/einvoice/model"
	"github.com/einvoice-ng/einvoice/model/store"
	"github.com/einvoice-ng/einvoice/model/store/storetest"
)

// walWrites is how the tests below load the log: batches of IRNs recorded
// through ClaimAll, as the API records them.
const (
	walBatches   = 200
	walBatchSize = 10
)

// writeIRNs records walBatches batches of new IRNs for project p,
// calling each(i) after batch i; it returns the references.
func writeIRNs(t *testing.T, st *store.Store, p *model.Project, tag string, each func(i int)) []string {
	t.Helper()
	ctx := context.Background()
	var refs []string
	for i := range walBatches {
		recs := make([]*model.IssuedIRN, walBatchSize)
		for j := range recs {
			ref := fmt.Sprintf("%s-%d-%d", tag, i, j)
			refs = append(refs, ref)
			recs[j] = &model.IssuedIRN{ProjectID: p.ID, InvoiceReference: ref, IssueDate: "2026-03-15",
				IRN: ref + "-94ND90NR-20260315", InvoiceTypeCode: "381", CreatedAt: now()}
		}
		if _, created, err := st.IRNs().ClaimAll(ctx, recs); err != nil || !created[0] {
			t.Fatalf("batch %d: created %v, %v", i, created, err)
		}
		if each != nil {
			each(i)
		}
	}
	return refs
}

// openSQLite opens a migrated SQLite store at path with the given limits,
// closed when the test ends.
func openSQLite(t *testing.T, path string, restart, auto int, checkpointer bool) *store.Store {
	t.Helper()
	restore := store.SetWALLimits(restart, auto, checkpointer)
	defer restore()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Migrations().Up(context.Background()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return st
}

// walPages is the size of path's log in pages (of pageSize bytes, each
// with its 24-byte frame header, after the 32-byte file header).
func walPages(t *testing.T, path string, pageSize int64) int64 {
	t.Helper()
	fi, err := os.Stat(path + "-wal")
	if errors.Is(err, fs.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return max(0, fi.Size()-32) / (pageSize + 24)
}

// pageSize returns st's page size, after emptying its log (the writes of
// the migrations and the seed), so that the log's file grows from nothing.
func pageSize(t *testing.T, st *store.Store) int64 {
	t.Helper()
	ctx := context.Background()
	// Busy while the checkpointer runs a round of its own, or while a
	// statement prepared in the background still reads: try again, for as
	// long as a slow machine (the race detector) may need.
	busy := 1
	for deadline := time.Now().Add(30 * time.Second); busy != 0 && time.Now().Before(deadline); {
		var log, done int
		if err := st.DB().NewRaw("PRAGMA wal_checkpoint(TRUNCATE)").Scan(ctx, &busy, &log, &done); err != nil {
			t.Fatalf("empty the log: %v", err)
		}
		if busy != 0 {
			time.Sleep(2 * time.Millisecond)
		}
	}
	if busy != 0 {
		t.Fatal("empty the log: busy")
	}
	var n int64
	if err := st.DB().NewRaw("PRAGMA page_size").Scan(ctx, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// maxBatchPages bounds the log pages one batch of walBatchSize IRNs
// writes (the table's and its indexes' leaves, and the pages above them
// that split).
const maxBatchPages = 40

// Without checkpoints the same writes grow the log far past the limits
// the other tests check, so that those limits are not met by writing too
// little; with the pool's own checkpoints at auto pages (the checkpointer
// off) the log stays within auto pages and one batch.
func TestSQLiteWALAutoCheckpointBound(t *testing.T) {
	const auto = 64
	unbounded := storetest.SQLiteURL(t)
	st := openSQLite(t, unbounded, 1<<20, 0, false)
	_, _, p := seed(t, st, "walnone")
	ps := pageSize(t, st)
	writeIRNs(t, st, p, "none", nil)
	if got := walPages(t, unbounded, ps); got <= 4*(auto+maxBatchPages) {
		t.Fatalf("with no checkpoint the log holds %d pages; the writes are too few to test a bound of %d", got, auto+maxBatchPages)
	}

	bounded := storetest.SQLiteURL(t)
	st = openSQLite(t, bounded, 1<<20, auto, false)
	_, _, p = seed(t, st, "walauto")
	var most int64
	writeIRNs(t, st, p, "auto", func(int) { most = max(most, walPages(t, bounded, ps)) })
	if most > auto+maxBatchPages {
		t.Fatalf("the log reached %d pages; want at most %d", most, auto+maxBatchPages)
	}
}

// The checkpointer copies the log into the database, so that the writers
// start it again and it stays bounded under sustained writes with no
// checkpoint in any commit (that a round restarts a log at its limit is
// TestSQLiteCheckpointerWaitsForAnOpenRead's).
func TestSQLiteCheckpointerBoundsTheLog(t *testing.T) {
	const restart, every = 64, 4
	path := storetest.SQLiteURL(t)
	st := openSQLite(t, path, restart, 0, true)
	_, _, p := seed(t, st, "walckpt")
	ps := pageSize(t, st)
	var most int64
	writeIRNs(t, st, p, "ckpt", func(i int) {
		most = max(most, walPages(t, path, ps))
		if i%every == every-1 {
			if _, ok := store.CheckpointNow(st); !ok {
				t.Fatal("the checkpointer has stopped")
			}
		}
	})
	// A round starts the log again once it holds restart pages; until the
	// next round it grows by at most every batches.
	if limit := int64(restart + every*maxBatchPages); most > limit {
		t.Fatalf("the log reached %d pages; want at most %d", most, limit)
	}
	stats, ok := store.CheckpointNow(st)
	if !ok {
		t.Fatal("the checkpointer has stopped")
	}
	if stats.Passive < walBatches/every {
		t.Fatalf("checkpoints %+v: want a PASSIVE one per round", stats)
	}
	if stats.Checkpointed != stats.Log {
		t.Fatalf("after a round %d of the log's %d pages are in the database", stats.Checkpointed, stats.Log)
	}
}

// Close stops the checkpointer; every IRN committed before it is there
// when the database is opened again, and the last connection's close
// leaves no log behind.
func TestSQLiteCheckpointerCloseAndReopen(t *testing.T) {
	path := storetest.SQLiteURL(t)
	st := openSQLite(t, path, 64, 0, true)
	_, _, p := seed(t, st, "walclose")
	refs := writeIRNs(t, st, p, "close", nil)
	if err := st.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if _, ok := store.CheckpointNow(st); ok {
		t.Fatal("the checkpointer still runs after Close")
	}
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the log is still there after Close: %v", err)
	}

	st = openSQLite(t, path, 64, 0, true)
	ctx := context.Background()
	n, err := st.DB().NewSelect().Model((*model.IssuedIRN)(nil)).Where("project_id = ?", p.ID).Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != len(refs) {
		t.Fatalf("%d IRNs after reopening; %d were committed", n, len(refs))
	}
	for _, ref := range []string{refs[0], refs[len(refs)/2], refs[len(refs)-1]} {
		got, created, err := st.IRNs().Claim(ctx, &model.IssuedIRN{ProjectID: p.ID, InvoiceReference: ref,
			IssueDate: "2026-03-16", IRN: "other", InvoiceTypeCode: "381", CreatedAt: now()})
		if err != nil || created || got.IRN != ref+"-94ND90NR-20260315" {
			t.Fatalf("claim of %s after reopening: created %v, %+v, %v", ref, created, got, err)
		}
	}
}

// A read transaction that holds pages of the log not yet in the database
// keeps the checkpointer from restarting the log (a RESTART would hold
// the writers off while waiting for it); once it ends, the next round
// restarts the log.
func TestSQLiteCheckpointerWaitsForAnOpenRead(t *testing.T) {
	path := storetest.SQLiteURL(t)
	st := openSQLite(t, path, 64, 0, true)
	_, _, p := seed(t, st, "walread")
	pageSize(t, st)
	ctx := context.Background()
	reader, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	tx, err := reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback() //nolint:errcheck // ended below
	writeIRNs(t, st, p, "before", nil)
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM irns").Scan(&n); err != nil {
		t.Fatal(err)
	}
	writeIRNs(t, st, p, "pinned", nil)
	held, ok := store.CheckpointNow(st)
	if !ok {
		t.Fatal("the checkpointer has stopped")
	}
	if held.Checkpointed >= held.Log {
		t.Fatalf("checkpoints %+v: the open read should keep pages of the log out of the database", held)
	}
	again, _ := store.CheckpointNow(st)
	if again.Restart != held.Restart || again.Busy != held.Busy {
		t.Fatalf("checkpoints %+v then %+v: a RESTART was tried while a read held the log", held, again)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	after, _ := store.CheckpointNow(st)
	if after.Restart != again.Restart+1 || after.Busy != again.Busy || after.Checkpointed != after.Log {
		t.Fatalf("checkpoints %+v then %+v: once the read ended, want the log copied whole and restarted", again, after)
	}
}
